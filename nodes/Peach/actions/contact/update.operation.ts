import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { contactFieldsCollection, phoneNumberField } from '../../descriptions/contact';
import { contactAttributes } from '../../helpers/contact';
import { PeachInputError } from '../../helpers/inputError';
import { outputOf } from '../../helpers/payload';
import { normalizeContactPhoneNumber } from '../../helpers/phone';
import { peachApiRequest } from '../../transport/request';
import type { ItemResult, OperationOption } from '../operation/node.type';
import { contactPath } from './shared';
import { recordIn } from '../item/itemParameters';

export const option: OperationOption = {
	name: 'Update',
	value: 'update',
	action: 'Update a contact',
	description:
		'Change the fields of an existing contact, found by phone number; metadata is deep-merged by Peach',
};

export const properties: INodeProperties[] = [
	phoneNumberField,
	contactFieldsCollection(
		['age', 'email', 'gender', 'language', 'metadata', 'name', 'nickname', 'optedOut', 'timezone'],
		{ name: 'updateFields', displayName: 'Update Fields' },
	),
];

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<ItemResult> {
	const phone = normalizeContactPhoneNumber(
		'Phone Number',
		this.getNodeParameter('phoneNumber', itemIndex),
	);
	const body = contactAttributes(
		this.getNodeParameter('updateFields', itemIndex, {}) as IDataObject,
	);
	if (Object.keys(body).length === 0) {
		throw new PeachInputError(
			'Update Contact',
			'(no changes)',
			'would change nothing',
			'Add an Update Field.',
		);
	}
	return outputOf(
		await peachApiRequest.call(this, {
			method: 'PATCH',
			path: contactPath(phone),
			body,
			itemIndex,
			notFound: { label: 'Contact', id: phone },
		}),
	);
}

/** Changes to one record go one after another, in input order. */
export const recordOf = recordIn('phoneNumber', 'contact');
