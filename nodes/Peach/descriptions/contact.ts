import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

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

export const communicationPreferenceOptions: INodePropertyOptions[] = [
	{ name: 'Allow Everything', value: 'allow_everything' },
	{ name: 'Disallow Automated Messaging', value: 'disallow_automated_messaging' },
	{ name: 'Disallow Marketing', value: 'disallow_marketing' },
	{ name: 'Mute All', value: 'mute_all' },
];

/** Every optional contact field an operation may offer, as Peach's contact has them. */
const CONTACT_FIELDS = {
	age: {
		displayName: 'Age',
		name: 'age',
		type: 'number',
		typeOptions: { minValue: 0 },
		default: 0,
	},
	communicationPreference: {
		displayName: 'Communication Preference',
		name: 'communicationPreference',
		type: 'options',
		options: communicationPreferenceOptions,
		default: 'allow_everything',
		description: 'Which messages the contact accepts',
	},
	email: {
		displayName: 'Email',
		name: 'email',
		type: 'string',
		placeholder: 'e.g. nathan@example.com',
		default: '',
		description: "The contact's email address",
	},
	gender: { displayName: 'Gender', name: 'gender', type: 'string', default: '' },
	language: {
		displayName: 'Language',
		name: 'language',
		type: 'string',
		default: '',
		placeholder: 'e.g. en',
		description: "The contact's language",
	},
	metadata: keyValueCollection('metadata', 'Metadata', {
		description:
			"Extra facts about the contact, as text. Peach merges them into the contact's metadata (keys you leave out stay).",
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
	nickname: { displayName: 'Nickname', name: 'nickname', type: 'string', default: '' },
	optedOut: {
		displayName: 'Opted Out',
		name: 'optedOut',
		type: 'boolean',
		default: false,
		description: 'Whether the contact opted out of messages',
	},
	tags: {
		displayName: 'Tags',
		name: 'tags',
		type: 'string',
		default: '',
		placeholder: 'e.g. vip, newsletter',
		description: 'Comma-separated tags',
	},
	timezone: {
		displayName: 'Time Zone',
		name: 'timezone',
		type: 'string',
		default: '',
		placeholder: 'e.g. Asia/Kolkata',
		description: 'An IANA time zone name',
	},
} satisfies Record<string, INodeProperties>;

export type ContactField = keyof typeof CONTACT_FIELDS;

/** The fields Peach takes when it creates a contact (Create or Update, Create Many). */
export const CREATE_CONTACT_FIELDS: ContactField[] = [
	'communicationPreference',
	'email',
	'language',
	'metadata',
	'name',
	'optedOut',
	'tags',
	'timezone',
];

/**
 * The optional contact fields of an operation, in one collection sorted by name: by default those an
 * event's `contact` takes (email, language, metadata, name), Peach storing them on the contact.
 */
export function contactFieldsCollection(
	fields: ContactField[] = ['email', 'language', 'metadata', 'name'],
	collection: { name?: string; displayName?: string } = {},
): INodeProperties {
	const displayName = collection.displayName ?? 'Contact Fields';
	return {
		displayName,
		name: collection.name ?? 'contactFields',
		type: 'collection',
		placeholder: displayName === 'Contact Fields' ? 'Add Contact Field' : 'Add Field',
		default: {},
		options: [...fields].sort().map((field) => CONTACT_FIELDS[field]),
	};
}
