import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { CREATE_CONTACT_FIELDS, contactFieldsCollection } from '../../descriptions/contact';
import { contactAttributes } from '../../helpers/contact';
import { normalizeContactPhoneNumber } from '../../helpers/phone';
import { badRowsError, checkRows, chunkOutputs, chunks } from '../../helpers/rows';
import { peachApiRequest } from '../../transport/request';
import type { BatchOutput, OperationOption } from '../operation/node.type';
import { apiPath } from '../../transport/path';

export const option: OperationOption = {
	name: 'Create Many',
	value: 'createMany',
	action: 'Create many contacts',
	description:
		'Create or update a contact for every input item in as few requests as possible (500 contacts each); every phone number is checked first',
};

/** Contacts per request. Peach documents no limit; 500 keeps each request well under usual body limits. */
export const CHUNK_SIZE = 500;

export const properties: INodeProperties[] = [
	{
		displayName: 'Phone Number',
		name: 'phoneNumber',
		type: 'string',
		required: true,
		default: '={{ $json.phone_number }}',
		placeholder: 'e.g. {{ $json.phone }}',
		description: "Each item's contact number with + and the country code, mapped by expression",
	},
	contactFieldsCollection(CREATE_CONTACT_FIELDS, {
		name: 'contactFields',
		displayName: 'Contact Fields',
	}),
];

/**
 * Reads every item's contact, checks all of them, then posts them as JSON arrays of up to CHUNK_SIZE.
 * Bad rows: without Continue On Fail all are reported at once and nothing is sent; with it, each is an
 * error item and the good ones are sent. Each output is paired to its input item.
 */
export async function executeBatch(
	this: IExecuteFunctions,
	itemIndexes: number[],
): Promise<BatchOutput[]> {
	const rows = checkRows(itemIndexes, (itemIndex) => ({
		phone_number: normalizeContactPhoneNumber(
			`Item ${itemIndex} → Phone Number`,
			this.getNodeParameter('phoneNumber', itemIndex),
		),
		...contactAttributes(
			this.getNodeParameter('contactFields', itemIndex, {}) as IDataObject,
			`Item ${itemIndex}`,
		),
	}));
	const problems = rows.flatMap((row) => ('error' in row ? [row] : []));
	if (problems.length && !this.continueOnFail())
		throw badRowsError(
			'Contacts',
			problems.map((row) => row.error),
		);
	const outputs: BatchOutput[] = [];
	const good = rows.flatMap((row) => ('value' in row ? [row] : []));
	for (const chunk of chunks(good, CHUNK_SIZE)) {
		const inputs = chunk.map((row) => row.itemIndex);
		try {
			const response = await peachApiRequest.call(this, {
				method: 'POST',
				path: apiPath`/contacts`,
				body: chunk.map((row) => row.value),
				itemIndex: inputs[0],
			});
			outputs.push(...chunkOutputs(response, inputs));
		} catch (error) {
			outputs.push({ error: error as Error, inputs });
		}
	}
	outputs.push(...problems.map((row) => ({ error: row.error, inputs: [row.itemIndex] })));
	return outputs;
}

export const batch = true;
