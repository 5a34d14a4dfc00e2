import type { IDataObject, INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { requireText } from '../../helpers/fields';
import { normalizeContactPhoneNumber } from '../../helpers/phone';

/** What the Conversation operations share: the statuses a conversation can have, the contact. */

export const STATUSES = ['open', 'pending', 'awaiting_customer_response', 'closed'];
export const STATUS_OPTIONS: INodePropertyOptions[] = [
	{ name: 'Awaiting Customer Response', value: 'awaiting_customer_response' },
	{ name: 'Closed', value: 'closed' },
	{ name: 'Open', value: 'open' },
	{ name: 'Pending', value: 'pending' },
];

/** The contact's name, which Peach requires beside the phone number to find a conversation. */
export const contactNameField: INodeProperties = {
	displayName: 'Contact Name',
	name: 'contactName',
	type: 'string',
	required: true,
	default: '',
	placeholder: 'e.g. Asha Rao',
	description: "The contact's name (Peach requires it here)",
};

/** The `contact` of a conversation event, checked: `{name, phone_number}`. Pure. */
export function conversationContact(phoneNumber: unknown, contactName: unknown): IDataObject {
	return {
		name: requireText('Contact Name', contactName, "Give the contact's name; Peach requires it."),
		phone_number: normalizeContactPhoneNumber('Phone Number', phoneNumber),
	};
}
