import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { contactFieldsCollection, phoneNumberField } from '../../descriptions/contact';
import { contactAttributes } from '../../helpers/contact';
import { outputOf } from '../../helpers/payload';
import { normalizeContactPhoneNumber } from '../../helpers/phone';
import { peachApiRequest } from '../../transport/request';
import type { ItemResult, OperationOption } from '../node.type';

export const option: OperationOption = {
	name: 'Create or Update',
	value: 'upsert',
	action: 'Create or update a contact',
	description: 'Create a new record, or update the current one if it already exists (upsert)',
};

const properties: INodeProperties[] = [
	phoneNumberField,
	contactFieldsCollection(
		[
			'communicationPreference',
			'email',
			'language',
			'metadata',
			'name',
			'optedOut',
			'tags',
			'timezone',
		],
		{ name: 'additionalFields', displayName: 'Additional Fields' },
	),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['contact'], operation: ['upsert'] } },
	properties,
);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<ItemResult> {
	const body = {
		phone_number: normalizeContactPhoneNumber(
			'Phone Number',
			this.getNodeParameter('phoneNumber', itemIndex),
		),
		...contactAttributes(this.getNodeParameter('additionalFields', itemIndex, {}) as IDataObject),
	};
	return outputOf(
		await peachApiRequest.call(this, { method: 'POST', path: '/contacts', body, itemIndex }),
	);
}
