import { describe, expect, it } from 'vitest';

import { inputError } from '../support/inputError';
import {
	normalizeBusinessPhoneNumber,
	normalizeContactPhoneNumber,
} from '../../../nodes/Peach/helpers/phone';

describe('contact phone number', () => {
	it('accepts E.164 and drops spaces, dashes, dots and brackets', () => {
		expect(normalizeContactPhoneNumber('Phone Number', '+919988776655')).toBe('+919988776655');
		expect(normalizeContactPhoneNumber('Phone Number', '+1 (415) 555-0123')).toBe('+14155550123');
		expect(normalizeContactPhoneNumber('Phone Number', '+44.20.7946.0958')).toBe('+442079460958');
	});

	it('refuses a number without + and country code, naming field, value and fix', () => {
		const error = inputError(() => normalizeContactPhoneNumber('Phone Number', '9988776655'));
		expect(error.message).toBe('Phone Number "9988776655" has no + and country code');
		expect(error.fix).toContain('+919988776655');
		expect(error.fix).toContain("{{ '+' + $json.phone }}");
		expect(error.fixWith?.('{{ $json.body.mobile }}')).toBe(
			"Phone Number is {{ $json.body.mobile }}. If the data has the digits with the country code but no +, add it: {{ '+' + $json.body.mobile }}. Otherwise write the number with + and the country code, e.g. +919988776655.",
		);
		expect(error.fixWith?.('{{ $json.a || $json.b }}')).toContain(
			"add it: {{ '+' + ($json.a || $json.b) }}",
		);
	});

	it.each(['+0123456789', '+12', '+1234567890123456', '+91abc', ''])('refuses %j', (value) => {
		const error = inputError(() => normalizeContactPhoneNumber('Phone Number', value));
		expect(error.message).toContain('Phone Number');
	});

	it('refuses a missing value', () => {
		expect(inputError(() => normalizeContactPhoneNumber('Phone Number', undefined)).message).toBe(
			'Phone Number is empty',
		);
	});
});

describe('business phone number', () => {
	it('accepts digits with the country code', () => {
		expect(normalizeBusinessPhoneNumber('Business Phone Number', '919876543222')).toBe(
			'919876543222',
		);
		expect(normalizeBusinessPhoneNumber('Business Phone Number', 919876543222)).toBe(
			'919876543222',
		);
	});

	it('refuses a leading + and says what to send instead', () => {
		const error = inputError(() =>
			normalizeBusinessPhoneNumber('Business Phone Number', '+919876543222'),
		);
		expect(error.message).toBe('Business Phone Number "+919876543222" starts with +');
		expect(error.fix).toContain('919876543222.');
	});

	it('refuses letters and short numbers', () => {
		expect(
			inputError(() => normalizeBusinessPhoneNumber('Business Phone Number', 'abc')).message,
		).toContain('is not a business phone number');
		expect(
			inputError(() => normalizeBusinessPhoneNumber('Business Phone Number', '12345')).message,
		).toContain('"12345"');
	});
});

describe('review defects', () => {
	it('the phone number message states the digits the check allows (7 to 15)', () => {
		expect(normalizeContactPhoneNumber('Phone Number', '+1234567')).toBe('+1234567');
		const error = inputError(() => normalizeContactPhoneNumber('Phone Number', '+123456'));
		expect(error.fix).toContain('7 to 15 digits');
		expect(normalizeBusinessPhoneNumber('Business Phone Number', '1234567')).toBe('1234567');
		expect(inputError(() => normalizeBusinessPhoneNumber('B', '123456')).fix).toContain(
			'7 to 15 digits',
		);
	});
});
