import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { phoneNumberField } from '../../descriptions/contact';
import { requireText } from '../../helpers/fields';
import { outputOf } from '../../helpers/payload';
import { normalizeContactPhoneNumber } from '../../helpers/phone';
import { peachApiRequest } from '../../transport/request';
import type { ItemResult, OperationOption } from '../node.type';

export const option: OperationOption = {
	name: 'Close',
	value: 'close',
	action: 'Close a conversation',
	description: "Close a contact's conversation, found by the contact's phone number and name",
};

const properties: INodeProperties[] = [
	phoneNumberField,
	{
		displayName: 'Contact Name',
		name: 'contactName',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. Asha Rao',
		description: "The contact's name (Peach requires it here)",
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['conversation'], operation: ['close'] } },
	properties,
);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<ItemResult> {
	const body = {
		event_type: 'close_conversation',
		contact: {
			name: requireText(
				'Contact Name',
				this.getNodeParameter('contactName', itemIndex),
				"Give the contact's name; Peach requires it.",
			),
			phone_number: normalizeContactPhoneNumber(
				'Phone Number',
				this.getNodeParameter('phoneNumber', itemIndex),
			),
		},
	};
	return outputOf(
		await peachApiRequest.call(this, { method: 'POST', path: '/events', body, itemIndex }),
	);
}
