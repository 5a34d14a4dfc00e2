import type {
	IDataObject,
	IExecuteFunctions,
	IHttpRequestMethods,
	INodeProperties,
	INodePropertyOptions,
} from 'n8n-workflow';

import { keyValueCollection } from '../../descriptions/fields';
import { isSet, oneOf, requireText, validateEmail } from '../../helpers/fields';
import { PeachInputError } from '../../helpers/inputError';
import { parseJsonObject } from '../../helpers/json';
import { omitEmpty, outputOf, pairsToStringMap, rowsOf } from '../../helpers/payload';
import { validateTimeZone } from '../../helpers/time';
import { peachApiRequest } from '../../transport/request';
import type { ItemResult } from '../node.type';

/**
 * What the Contact operations share: the contact's path, its fields and how they are sent, and the
 * setup guest link requests.
 */

/** `/contacts/{phone_number}` with the + URL-encoded. */
export function contactPath(phoneNumber: string): string {
	return `/contacts/${encodeURIComponent(phoneNumber)}`;
}

export const COMMUNICATION_PREFERENCES = [
	'allow_everything',
	'disallow_marketing',
	'disallow_automated_messaging',
	'mute_all',
];

export const communicationPreferenceOptions: INodePropertyOptions[] = [
	{ name: 'Allow Everything', value: 'allow_everything' },
	{ name: 'Disallow Automated Messaging', value: 'disallow_automated_messaging' },
	{ name: 'Disallow Marketing', value: 'disallow_marketing' },
	{ name: 'Mute All', value: 'mute_all' },
];

type ContactField = 'age' | 'gender' | 'nickname' | 'tags' | 'communicationPreference';

/** The optional contact fields, those of create (upsert) and, with `extra`, those only update takes. */
export function contactFields(
	name: string,
	displayName: string,
	extra: ContactField[],
): INodeProperties {
	const all: Record<string, INodeProperties> = {
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
		},
		gender: { displayName: 'Gender', name: 'gender', type: 'string', default: '' },
		language: {
			displayName: 'Language',
			name: 'language',
			type: 'string',
			default: '',
			placeholder: 'e.g. en',
		},
		metadata: keyValueCollection('metadata', 'Metadata', {
			description:
				"Extra facts about the contact, as text. Peach merges them into the contact's existing metadata (keys you leave out stay).",
			keyPlaceholder: 'e.g. customer_id',
			valuePlaceholder: 'e.g. 42',
		}),
		name: {
			displayName: 'Name',
			name: 'name',
			type: 'string',
			default: '',
			placeholder: 'e.g. Asha Rao',
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
	};
	const names = ['email', 'language', 'metadata', 'name', 'optedOut', 'timezone', ...extra].sort();
	return {
		displayName,
		name,
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		options: names.map((field) => all[field]),
	};
}

/** A contact's fields as Peach names them, only those set, each checked. Pure. */
export function contactAttributes(fields: IDataObject, where = ''): IDataObject {
	const label = (name: string) => (where ? `${where} → ${name}` : name);
	const tags = isSet(fields.tags)
		? (Array.isArray(fields.tags) ? fields.tags : String(fields.tags).split(','))
				.map((tag) => String(tag).trim())
				.filter(Boolean)
		: undefined;
	if (
		fields.age !== undefined &&
		(typeof fields.age !== 'number' || !Number.isInteger(fields.age) || fields.age < 0)
	) {
		throw new PeachInputError(
			label('Age'),
			fields.age,
			'is not a whole number',
			'Enter the age in years, e.g. 34.',
		);
	}
	const metadata = pairsToStringMap(label('Metadata'), rowsOf(fields.metadata));
	return omitEmpty({
		name: typeof fields.name === 'string' ? fields.name.trim() : undefined,
		email:
			typeof fields.email === 'string' && isSet(fields.email.trim())
				? validateEmail(label('Email'), fields.email)
				: undefined,
		timezone: isSet(fields.timezone)
			? validateTimeZone(label('Time Zone'), fields.timezone)
			: undefined,
		language: typeof fields.language === 'string' ? fields.language.trim() : undefined,
		nickname: typeof fields.nickname === 'string' ? fields.nickname.trim() : undefined,
		gender: typeof fields.gender === 'string' ? fields.gender.trim() : undefined,
		age: fields.age as number | undefined,
		tags: tags?.length ? tags : undefined,
		opted_out: typeof fields.optedOut === 'boolean' ? fields.optedOut : undefined,
		communication_preference: oneOf(
			label('Communication Preference'),
			fields.communicationPreference,
			COMMUNICATION_PREFERENCES,
		),
		metadata,
	});
}

/**
 * Setup guest links: only their paths are documented (not their bodies or answers), so extra fields
 * can be given as JSON and Peach's answer is output as it comes (README, "What is not known").
 */
export const guestLinkIdField: INodeProperties = {
	displayName: 'Setup Guest Link ID',
	name: 'guestLinkId',
	type: 'string',
	required: true,
	default: '={{ $json.id }}',
	placeholder: 'e.g. sgl_1234abcd',
	description: 'The ID a Create Setup Guest Link returned. By default the one in the input item.',
};

export const extraFieldsJson: INodeProperties = {
	displayName: 'Fields (JSON)',
	name: 'fieldsJson',
	type: 'json',
	default: '{}',
	description:
		"Fields to send in the body, as Peach's web app or support names them. Peach documents none.",
};

export async function guestLinkRequest(
	context: IExecuteFunctions,
	itemIndex: number,
	action: 'create' | 'expire' | 'regenerate',
): Promise<ItemResult> {
	let method: IHttpRequestMethods = 'POST';
	let path = '/setup_guest_links';
	let body: IDataObject | undefined;
	if (action === 'create') {
		const json = context.getNodeParameter('fieldsJson', itemIndex, '{}');
		body = isSet(json) ? parseJsonObject('Fields (JSON)', json) : {};
	} else {
		const id = requireText(
			'Setup Guest Link ID',
			context.getNodeParameter('guestLinkId', itemIndex),
			'Use the id a Create Setup Guest Link returned.',
		);
		path = `/setup_guest_links/${encodeURIComponent(id)}${action === 'regenerate' ? '/regenerate' : ''}`;
		if (action === 'expire') method = 'DELETE';
	}
	const response = await peachApiRequest.call(context, { method, path, body, itemIndex });
	return action === 'expire' &&
		(response === undefined ||
			(typeof response === 'object' && response !== null && Object.keys(response).length === 0))
		? { expired: true }
		: outputOf(response);
}
