import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { communicationPreferenceOptions } from '../../descriptions/contact';
import { COMMUNICATION_PREFERENCES } from '../../helpers/contact';
import { oneOf } from '../../helpers/fields';
import { outputOf } from '../../helpers/payload';
import { normalizeContactPhoneNumber } from '../../helpers/phone';
import { badRowsError, checkRows, chunks } from '../../helpers/rows';
import { peachApiRequest } from '../../transport/request';
import type { BatchOutput, OperationOption } from '../operation/node.type';
import { apiPath } from '../../transport/path';

export const option: OperationOption = {
	name: 'Update Communication Preferences',
	value: 'updateCommunicationPreferences',
	action: 'Update the communication preferences of many contacts',
	description:
		'Set which messages many contacts accept (everything, no marketing, no automated messages, nothing) in one request',
};

const PHONES_PER_REQUEST = 1000;

export const properties: INodeProperties[] = [
	{
		displayName: 'Contacts',
		name: 'source',
		type: 'options',
		noDataExpression: true,
		options: [
			{
				name: 'One Phone Number per Input Item',
				value: 'items',
				description: 'All input items together, in one request',
			},
			{
				name: 'A List per Input Item',
				value: 'list',
				description: 'Each input item gives a list of numbers; one request per item',
			},
		],
		default: 'items',
	},
	{
		displayName: 'Phone Number',
		name: 'phoneNumber',
		type: 'string',
		required: true,
		default: '={{ $json.phone_number }}',
		description: "Each item's contact number with + and the country code",
		displayOptions: { show: { source: ['items'] } },
	},
	{
		displayName: 'Phone Numbers',
		name: 'phoneNumbers',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. +919988776655, +14155550123',
		description: 'Numbers separated by commas or new lines, or an array from an expression',
		displayOptions: { show: { source: ['list'] } },
	},
	{
		displayName: 'Communication Preference',
		name: 'communicationPreference',
		type: 'options',
		options: communicationPreferenceOptions,
		default: 'disallow_marketing',
	},
];

async function update(
	context: IExecuteFunctions,
	phones: string[],
	preference: string,
	itemIndex: number,
): Promise<IDataObject> {
	const response = await peachApiRequest.call(context, {
		method: 'POST',
		path: apiPath`/contacts/bulk_update_communication_preferences`,
		body: { phone_numbers: phones, communication_preference: preference },
		itemIndex,
	});
	const output = outputOf(response);
	return Array.isArray(output) ? { response: output } : output;
}

/** A List per Input Item: one request per item, with that item's numbers. */
async function updateEachList(
	context: IExecuteFunctions,
	itemIndexes: number[],
	preference: string,
): Promise<BatchOutput[]> {
	const outputs: BatchOutput[] = [];
	for (const itemIndex of itemIndexes) {
		try {
			const raw = context.getNodeParameter('phoneNumbers', itemIndex);
			const list = (Array.isArray(raw) ? raw : String(raw ?? '').split(/[\n,;]/))
				.map((phone) => String(phone).trim())
				.filter(Boolean)
				.map((phone, index) =>
					normalizeContactPhoneNumber(`Phone Numbers (number ${index + 1})`, phone),
				);
			outputs.push({
				json: {
					...(await update(context, list, preference, itemIndex)),
					phoneNumbers: list.length,
				},
				inputs: [itemIndex],
			});
		} catch (error) {
			outputs.push({ error: error as Error, inputs: [itemIndex] });
		}
	}
	return outputs;
}

/**
 * One Phone Number per Input Item: every number checked before the first request (bad ones stop the
 * run, all named, unless Continue On Fail makes each its item's error), the good ones sent
 * PHONES_PER_REQUEST at a time.
 */
async function updateAllItems(
	context: IExecuteFunctions,
	itemIndexes: number[],
	preference: string,
): Promise<BatchOutput[]> {
	const rows = checkRows(itemIndexes, (itemIndex) =>
		normalizeContactPhoneNumber(
			`Item ${itemIndex} → Phone Number`,
			context.getNodeParameter('phoneNumber', itemIndex),
		),
	);
	const problems = rows.flatMap((row) => ('error' in row ? [row] : []));
	if (problems.length && !context.continueOnFail())
		throw badRowsError(
			'Phone Numbers',
			problems.map((row) => row.error),
		);
	const good = rows.flatMap((row) => ('value' in row ? [row] : []));
	const outputs: BatchOutput[] = [];
	for (const chunk of chunks(good, PHONES_PER_REQUEST)) {
		const inputs = chunk.map((row) => row.itemIndex);
		try {
			const json = await update(
				context,
				chunk.map((row) => row.value),
				preference,
				inputs[0],
			);
			outputs.push({ json: { ...json, phoneNumbers: chunk.length }, inputs });
		} catch (error) {
			outputs.push({ error: error as Error, inputs });
		}
	}
	outputs.push(...problems.map((row) => ({ error: row.error, inputs: [row.itemIndex] })));
	return outputs;
}

export async function executeBatch(
	this: IExecuteFunctions,
	itemIndexes: number[],
): Promise<BatchOutput[]> {
	if (itemIndexes.length === 0) return [];
	const preference =
		oneOf(
			'Communication Preference',
			this.getNodeParameter('communicationPreference', 0),
			COMMUNICATION_PREFERENCES,
		) ?? '';
	const source = this.getNodeParameter('source', 0, 'items') as string;
	return source === 'list'
		? updateEachList(this, itemIndexes, preference)
		: updateAllItems(this, itemIndexes, preference);
}

export const batch = true;
