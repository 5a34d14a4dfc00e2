import { PeachInputError } from './inputError';

/** E.164: + then 7 to 15 digits, the first not 0 (the shortest numbers in use have 7 digits in all). */
const E164 = /^\+[1-9]\d{6,14}$/;
/** A WhatsApp wa_id: the same digits without the +. */
const WA_ID = /^[1-9]\d{6,14}$/;

/**
 * A phone number as text without spaces, dots, dashes and brackets, and without the trunk prefix
 * written `(0)` (`+44 (0)20 7946 0958` is +442079460958, the 0 is dialled only at home); undefined
 * when it is not text or a number.
 */
function compactPhone(value: unknown): string | undefined {
	const raw = typeof value === 'number' ? String(value) : value;
	return typeof raw === 'string' ? raw.replace(/\(0\)/g, '').replace(/[\s().-]/g, '') : undefined;
}

/** The user's expression with the + added in front: `{{ $json.phone }}` → `{{ '+' + $json.phone }}`. */
function withPlus(expression: string): string {
	const single = /^\{\{\s*([^{}]+?)\s*\}\}$/.exec(expression);
	if (!single) return "{{ '+' + $json.phone }}";
	const inner = /^[\w$.[\]'"]+$/.test(single[1]) ? single[1] : `(${single[1]})`;
	return `{{ '+' + ${inner} }}`;
}

/** Contact phone number: E.164 with a leading `+` and the country code. Spaces, dots, dashes and brackets are dropped. */
export function normalizeContactPhoneNumber(field: string, value: unknown): string {
	const compact = compactPhone(value);
	if (compact === undefined || compact === '') {
		throw new PeachInputError(
			field,
			value,
			'is empty',
			"Enter the contact's number with + and the country code, e.g. +919988776655.",
		);
	}
	if (!compact.startsWith('+')) {
		// 11 digits or more already hold a country code (91 9988776655); ten may be a national number.
		const example = WA_ID.test(compact) && compact.length >= 11 ? `+${compact}` : '+919988776655';
		throw new PeachInputError(
			field,
			value,
			'has no + and country code',
			`Write the number in international (E.164) format: + then the country code, e.g. ${example}. If your data has the digits without +, add it in the expression: {{ '+' + $json.phone }}.`,
			(expression) =>
				`${field} is ${expression}. If the data has the digits with the country code but no +, add it: ${withPlus(expression)}. Otherwise write the number with + and the country code, e.g. ${example}.`,
		);
	}
	if (!E164.test(compact)) {
		throw new PeachInputError(
			field,
			value,
			'is not a valid international phone number',
			'Use + followed by the country code and number, 7 to 15 digits in all, e.g. +14155550123.',
		);
	}
	return compact;
}

/** Business (sender) number: the WhatsApp wa_id, digits with the country code and no `+`. */
export function normalizeBusinessPhoneNumber(field: string, value: unknown): string {
	const compact = compactPhone(value);
	if (compact === undefined) {
		throw new PeachInputError(
			field,
			value,
			'is not text',
			'Enter digits with the country code and no +, e.g. 919876543222.',
		);
	}
	if (compact.startsWith('+')) {
		throw new PeachInputError(
			field,
			value,
			'starts with +',
			`Peach expects the business number as digits only, with the country code and no +: ${compact.slice(1)}.`,
		);
	}
	if (!WA_ID.test(compact)) {
		throw new PeachInputError(
			field,
			value,
			'is not a business phone number',
			'Enter digits only, with the country code and no +, 7 to 15 digits in all, e.g. 919876543222.',
		);
	}
	return compact;
}
