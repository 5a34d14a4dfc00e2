import type { INodeProperties } from 'n8n-workflow';

import { keyValueCollection } from './fields';

export const phoneNumberField: INodeProperties = {
	displayName: 'Phone Number',
	name: 'phoneNumber',
	type: 'string',
	required: true,
	default: '',
	placeholder: 'e.g. +919988776655',
	description: "The contact's WhatsApp number in international format: + and the country code",
};

/** Optional facts about the contact sent with an event (Peach stores them on the contact). */
export function contactFieldsCollection(
	fields: Array<'email' | 'language' | 'metadata' | 'name'> = [
		'email',
		'language',
		'metadata',
		'name',
	],
): INodeProperties {
	const all: Record<string, INodeProperties> = {
		email: {
			displayName: 'Email',
			name: 'email',
			type: 'string',
			placeholder: 'e.g. nathan@example.com',
			default: '',
			description: "The contact's email address",
		},
		language: {
			displayName: 'Language',
			name: 'language',
			type: 'string',
			default: '',
			placeholder: 'e.g. en',
			description: "The contact's language",
		},
		metadata: keyValueCollection('metadata', 'Metadata', {
			description: 'Extra facts about the contact, stored by Peach as text',
			keyPlaceholder: 'e.g. customer_id',
			valuePlaceholder: 'e.g. 42',
		}),
		name: {
			displayName: 'Name',
			name: 'name',
			type: 'string',
			default: '',
			placeholder: 'e.g. Asha Rao',
			description: "The contact's display name",
		},
	};
	return {
		displayName: 'Contact Fields',
		name: 'contactFields',
		type: 'collection',
		placeholder: 'Add Contact Field',
		default: {},
		options: fields.map((field) => all[field]),
	};
}
