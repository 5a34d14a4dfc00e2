import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import {
	CREATE_CONTACT_FIELDS,
	contactFieldsCollection,
	phoneNumberField,
} from '../../descriptions/contact';
import { contactAttributes } from '../../helpers/contact';
import { outputOf } from '../../helpers/payload';
import { normalizeContactPhoneNumber } from '../../helpers/phone';
import { peachApiRequest } from '../../transport/request';
import type { ItemResult, OperationOption } from '../operation/node.type';
import { apiPath } from '../../transport/path';
import { recordIn } from '../item/itemParameters';

export const option: OperationOption = {
	name: 'Create or Update',
	value: 'upsert',
	action: 'Create or update a contact',
	description: 'Create a new record, or update the current one if it already exists (upsert)',
};

export const properties: INodeProperties[] = [
	phoneNumberField,
	contactFieldsCollection(CREATE_CONTACT_FIELDS, {
		name: 'additionalFields',
		displayName: 'Additional Fields',
	}),
];

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<ItemResult> {
	const body = {
		phone_number: normalizeContactPhoneNumber(
			'Phone Number',
			this.getNodeParameter('phoneNumber', itemIndex),
		),
		...contactAttributes(this.getNodeParameter('additionalFields', itemIndex, {}) as IDataObject),
	};
	return outputOf(
		await peachApiRequest.call(this, { method: 'POST', path: apiPath`/contacts`, body, itemIndex }),
	);
}

/** Changes to one record go one after another, in input order. */
export const recordOf = recordIn('phoneNumber', 'contact');
