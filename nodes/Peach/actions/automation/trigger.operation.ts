import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { contactFieldsCollection, phoneNumberField } from '../../descriptions/contact';
import { keyValueCollection } from '../../descriptions/fields';
import { locator } from '../../descriptions/locator';
import { contactFrom } from '../../helpers/contact';
import { PeachInputError } from '../../helpers/inputError';
import { parseJsonObject } from '../../helpers/json';
import { outputOf, rowsOf } from '../../helpers/payload';
import { peachApiRequest } from '../../transport/request';
import type { ItemResult, OperationOption } from '../node.type';
import { automationIdOf } from './get.operation';

/**
 * The body of `POST /streams/{id}/events`, as Peach's MCP server builds it (its docs page was never
 * seen): `contact` plus the payload's keys at the top level. Kept here, in one place.
 */
export const TRIGGER_EVENT = { contactKey: 'contact', payloadAtTopLevel: true } as const;

export const option: OperationOption = {
	name: 'Trigger',
	value: 'trigger',
	action: 'Trigger an automation for a contact',
	description:
		'Start an automation for one contact with an event payload; the automation may message the contact, so a failed one must be checked before repeating',
};

const properties: INodeProperties[] = [
	locator('automation', { required: true }),
	phoneNumberField,
	contactFieldsCollection(['email', 'name']),
	{
		displayName: 'Payload',
		name: 'payloadInput',
		type: 'options',
		noDataExpression: true,
		options: [
			{ name: 'Using Fields Below', value: 'fields' },
			{ name: 'Using JSON', value: 'json' },
		],
		default: 'fields',
		description: 'Event data the automation can read, next to the contact',
	},
	{
		...keyValueCollection('payload', 'Payload Fields', {
			description: 'Names and values of the event data, e.g. order_id = A-7',
			keyPlaceholder: 'e.g. order_id',
			valuePlaceholder: 'e.g. A-7',
		}),
		displayOptions: { show: { payloadInput: ['fields'] } },
	},
	{
		displayName: 'Payload (JSON)',
		name: 'payloadJson',
		type: 'json',
		default: '{}',
		displayOptions: { show: { payloadInput: ['json'] } },
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['automation'], operation: ['trigger'] } },
	properties,
);

/** The event body: the contact and the payload (any JSON values; "contact" is reserved). Pure. */
export function buildTriggerEventBody(contact: IDataObject, payload: IDataObject): IDataObject {
	if (Object.prototype.hasOwnProperty.call(payload, TRIGGER_EVENT.contactKey)) {
		throw new PeachInputError(
			'Payload',
			TRIGGER_EVENT.contactKey,
			'is a reserved name',
			'Give the contact in Phone Number and Contact Fields, and name the payload fields otherwise.',
		);
	}
	return { [TRIGGER_EVENT.contactKey]: contact, ...payload };
}

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<ItemResult> {
	const id = automationIdOf(this, itemIndex);
	const mode = this.getNodeParameter('payloadInput', itemIndex, 'fields') as string;
	let payload: IDataObject = {};
	if (mode === 'json') {
		payload = parseJsonObject(
			'Payload (JSON)',
			this.getNodeParameter('payloadJson', itemIndex, '{}'),
		);
	} else {
		for (const row of rowsOf(this.getNodeParameter('payload', itemIndex, {}))) {
			const key = typeof row.key === 'string' ? row.key.trim() : '';
			if (!key)
				throw new PeachInputError(
					'Payload Fields',
					row,
					'has a row without a name',
					'Name every row.',
				);
			payload[key] = row.value as string;
		}
	}
	const body = buildTriggerEventBody(
		contactFrom(
			this.getNodeParameter('phoneNumber', itemIndex),
			this.getNodeParameter('contactFields', itemIndex, {}) as IDataObject,
		),
		payload,
	);
	return outputOf(
		await peachApiRequest.call(this, {
			method: 'POST',
			path: `/streams/${encodeURIComponent(id)}/events`,
			body,
			itemIndex,
			notFound: { label: 'Automation', id },
			delivers: true,
		}),
	);
}
