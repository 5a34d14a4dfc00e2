import type { IDataObject } from 'n8n-workflow';

import { isSet, validateEmail } from './fields';
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
