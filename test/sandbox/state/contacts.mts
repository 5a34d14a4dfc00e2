/** Contacts, in the shape Peach's webhooks carry them. */
import { ACCOUNT_ID, type JsonObject } from './common.mts';

export interface Contact extends JsonObject {
	id: string;
	account_id: string;
	name: string | null;
	phone_number: string;
	first_name: string | null;
	last_name: string | null;
	country_code: string | null;
	language: string | null;
	email: string | null;
}

export function contact(
	id: string,
	name: string | null,
	phone: string,
	countryCode: string | null,
	language: string | null,
	email: string | null,
): Contact {
	const [first, ...rest] = (name ?? '').split(' ');
	return {
		id,
		account_id: ACCOUNT_ID,
		name,
		phone_number: phone,
		first_name: first || null,
		last_name: rest.join(' ') || null,
		country_code: countryCode,
		language,
		email,
	};
}

export function seedContacts(): Contact[] {
	const contacts: Contact[] = [
		contact('ct_asha', 'Asha Rao', '+919988776655', '91', 'en', 'asha@example.com'),
		contact('ct_ben', 'Ben Okafor', '+2348012345678', '234', 'en', null),
		contact('ct_chloe', 'Chloé Martin', '+33612345678', '33', 'fr', 'chloe@example.com'),
	];
	return contacts;
}
