import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { phoneNumberField } from '../../descriptions/contact';
import { outputOf } from '../../helpers/payload';
import { normalizeContactPhoneNumber } from '../../helpers/phone';
import { peachApiRequest } from '../../transport/request';
import type { ItemResult, OperationOption } from '../operation/node.type';
import { contactPath } from './shared';

export const option: OperationOption = {
	name: 'Get',
	value: 'get',
	action: 'Get a contact',
	description:
		"Read a contact by phone number (this endpoint is seen only in Peach's own n8n node)",
};

export const properties: INodeProperties[] = [phoneNumberField];

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<ItemResult> {
	const phone = normalizeContactPhoneNumber(
		'Phone Number',
		this.getNodeParameter('phoneNumber', itemIndex),
	);
	return outputOf(
		await peachApiRequest.call(this, {
			method: 'GET',
			path: contactPath(phone),
			itemIndex,
			notFound: { label: 'Contact', id: phone },
		}),
	);
}
