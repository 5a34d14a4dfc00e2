import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { phoneNumberField } from '../../descriptions/contact';
import { outputOf } from '../../helpers/payload';
import { peachApiRequest } from '../../transport/request';
import type { ItemResult, OperationOption } from '../operation/node.type';
import { contactNameField, conversationContact } from './shared';
import { apiPath } from '../../transport/path';
import { recordIn } from '../item/itemParameters';

export const option: OperationOption = {
	name: 'Close',
	value: 'close',
	action: 'Close a conversation',
	description: "Close a contact's conversation, found by the contact's phone number and name",
};

export const properties: INodeProperties[] = [phoneNumberField, contactNameField];

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<ItemResult> {
	const body = {
		event_type: 'close_conversation',
		contact: conversationContact(
			this.getNodeParameter('phoneNumber', itemIndex),
			this.getNodeParameter('contactName', itemIndex),
		),
	};
	return outputOf(
		await peachApiRequest.call(this, { method: 'POST', path: apiPath`/events`, body, itemIndex }),
	);
}

/** Changes to one record go one after another, in input order. */
export const recordOf = recordIn('phoneNumber', 'contact');
