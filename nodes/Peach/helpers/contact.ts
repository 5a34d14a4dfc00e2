import type { IDataObject } from 'n8n-workflow';

import { isSet, oneOf, validateEmail } from './fields';
import { PeachInputError } from './inputError';
import { isPlainObject } from './json';
import { omitEmpty, pairsToStringMap, rowsOf } from './payload';
import { normalizeContactPhoneNumber } from './phone';
import { validateTimeZone } from './time';

export const COMMUNICATION_PREFERENCES = [
	'allow_everything',
	'disallow_marketing',
	'disallow_automated_messaging',
	'mute_all',
];

/**
 * A contact's fields as Peach names them, only those set, each checked; `where` names the row in
 * messages (e.g. "Item 3"). The one reading of the Contact Fields collections. Pure.
 */
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

/** The `contact` object of an event: the phone number plus the contact fields the user set. */
export function contactFrom(phoneNumber: unknown, fields: IDataObject): IDataObject {
	return {
		phone_number: normalizeContactPhoneNumber('Phone Number', phoneNumber),
		...contactAttributes(fields),
	};
}

/** Who a request body is for: its contact's phone number (items for one contact go in input order). */
export function recipientOfEvent(body: IDataObject): string | undefined {
	return isPlainObject(body.contact) && typeof body.contact.phone_number === 'string'
		? body.contact.phone_number
		: undefined;
}
