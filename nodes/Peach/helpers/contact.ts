import type { IDataObject } from 'n8n-workflow';

import { isSet, validateEmail } from './fields';
import { isPlainObject } from './json';
import { omitEmpty, pairsToStringMap, rowsOf } from './payload';
import { normalizeContactPhoneNumber } from './phone';

/** The `contact` object of an event: the phone number plus the contact fields the user set. */
export function contactFrom(phoneNumber: unknown, fields: IDataObject): IDataObject {
	return omitEmpty({
		phone_number: normalizeContactPhoneNumber('Phone Number', phoneNumber),
		name: typeof fields.name === 'string' ? fields.name.trim() : undefined,
		email:
			typeof fields.email === 'string' && isSet(fields.email.trim())
				? validateEmail('Email', fields.email)
				: undefined,
		language: typeof fields.language === 'string' ? fields.language.trim() : undefined,
		metadata: pairsToStringMap('Metadata', rowsOf(fields.metadata)),
	});
}

/** Who a request body is for: its contact's phone number (items for one contact go in input order). */
export function recipientOfEvent(body: IDataObject): string | undefined {
	return isPlainObject(body.contact) && typeof body.contact.phone_number === 'string'
		? body.contact.phone_number
		: undefined;
}
