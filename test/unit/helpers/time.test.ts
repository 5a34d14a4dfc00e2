import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';

import { requireText, validateEmail, validateHttpUrl } from '../../../nodes/Peach/helpers/fields';
import { PeachInputError } from '../../../nodes/Peach/helpers/inputError';
import { parseJsonObject } from '../../../nodes/Peach/helpers/json';
import { omitEmpty, outputOf, pairsToStringMap } from '../../../nodes/Peach/helpers/payload';
import {
	normalizeBusinessPhoneNumber,
	normalizeContactPhoneNumber,
} from '../../../nodes/Peach/helpers/phone';
import {
	toFutureUtcTimestamp,
	validateTimeOfDay,
	validateTimeZone,
} from '../../../nodes/Peach/helpers/time';

function inputError(run: () => unknown): PeachInputError {
	try {
		run();
	} catch (error) {
		expect(error).toBeInstanceOf(PeachInputError);
		return error as PeachInputError;
	}
	throw new Error('expected a PeachInputError');
}

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

describe('email, times, time zones, URLs', () => {
	it('checks email addresses', () => {
		expect(validateEmail('Email', ' a@b.co ')).toBe('a@b.co');
		expect(inputError(() => validateEmail('Email', 'not-an-email')).message).toBe(
			'Email "not-an-email" is not an email address',
		);
	});

	it('accepts HH:MM on a 24-hour clock only', () => {
		expect(validateTimeOfDay('Start Time', '08:00')).toBe('08:00');
		expect(validateTimeOfDay('Start Time', '23:59')).toBe('23:59');
		for (const bad of ['8:00', '24:00', '12:60', '0800', '08:00:00', 7]) {
			expect(inputError(() => validateTimeOfDay('Start Time', bad)).fix).toContain('HH:MM');
		}
	});

	it('accepts IANA zones and refuses others', () => {
		expect(validateTimeZone('Time Zone', 'Asia/Kolkata')).toBe('Asia/Kolkata');
		expect(validateTimeZone('Time Zone', 'UTC')).toBe('UTC');
		const error = inputError(() => validateTimeZone('Time Zone', 'Mars/Olympus'));
		expect(error.message).toBe('Time Zone "Mars/Olympus" is not an IANA time zone');
		expect(error.fix).toContain('Asia/Kolkata');
	});

	it('accepts only http(s) URLs', () => {
		expect(validateHttpUrl('Backend URL', 'https://example.com/x')).toBe('https://example.com/x');
		expect(validateHttpUrl('Backend URL', 'http://localhost:8080')).toBe('http://localhost:8080');
		for (const bad of ['ftp://example.com', 'example.com', '', 'javascript:alert(1)']) {
			expect(inputError(() => validateHttpUrl('Backend URL', bad)).message).toContain(
				'is not an http(s) URL',
			);
		}
	});
});

describe('future ISO 8601 timestamps', () => {
	const now = new Date('2030-01-01T00:00:00Z');

	it('sends a Z timestamp as it is', () => {
		expect(toFutureUtcTimestamp('Retry Until', '2030-01-02T10:00:00Z', 'UTC', now)).toBe(
			'2030-01-02T10:00:00.000Z',
		);
	});

	it('converts an offset to UTC', () => {
		expect(toFutureUtcTimestamp('Retry Until', '2030-01-02T10:00:00+05:30', 'UTC', now)).toBe(
			'2030-01-02T04:30:00.000Z',
		);
		expect(toFutureUtcTimestamp('Retry Until', '2030-01-02T10:00:00-0800', 'UTC', now)).toBe(
			'2030-01-02T18:00:00.000Z',
		);
	});

	it('reads a time without offset in the workflow time zone (as the n8n date picker gives it)', () => {
		expect(toFutureUtcTimestamp('Retry Until', '2030-01-02T10:00:00', 'Asia/Kolkata', now)).toBe(
			'2030-01-02T04:30:00.000Z',
		);
		expect(toFutureUtcTimestamp('Retry Until', '2030-07-02T10:00:00', 'Europe/Berlin', now)).toBe(
			'2030-07-02T08:00:00.000Z',
		);
	});

	it('takes a Date or a Luxon DateTime from an expression', () => {
		expect(toFutureUtcTimestamp('Retry Until', new Date('2030-01-05T00:00:00Z'), 'UTC', now)).toBe(
			'2030-01-05T00:00:00.000Z',
		);
		const luxonLike = { toISO: () => '2030-01-05T05:30:00.000+05:30' };
		expect(toFutureUtcTimestamp('Retry Until', luxonLike, 'UTC', now)).toBe(
			'2030-01-05T00:00:00.000Z',
		);
		expect(
			toFutureUtcTimestamp(
				'Retry Until',
				DateTime.fromISO('2030-01-05T05:30:00', { zone: 'Asia/Kolkata' }),
				'UTC',
				now,
			),
		).toBe('2030-01-05T00:00:00.000Z');
	});

	it('accepts the offsets +05 and +05:30, and the date forms n8n reads', () => {
		expect(toFutureUtcTimestamp('Retry Until', '2030-01-02T10:00:00+05', 'UTC', now)).toBe(
			'2030-01-02T05:00:00.000Z',
		);
		expect(toFutureUtcTimestamp('Retry Until', '2030-01-02 10:00:00', 'Asia/Kolkata', now)).toBe(
			'2030-01-02T04:30:00.000Z',
		);
	});

	it('refuses a day-month order it cannot know, saying how to write it', () => {
		const error = inputError(() => toFutureUtcTimestamp('Retry Until', '02/01/2030', 'UTC', now));
		expect(error.message).toBe(
			'Retry Until "02/01/2030" is ambiguous (day and month could be either way round)',
		);
		expect(error.fix).toContain('year first');
	});

	it('refuses a past moment and says when it is', () => {
		const error = inputError(() =>
			toFutureUtcTimestamp('Retry Until', '2029-12-31T23:00:00Z', 'UTC', now),
		);
		expect(error.message).toContain('Retry Until "2029-12-31T23:00:00Z" is not in the future');
	});

	it.each(['tomorrow', '2030-02-30T10:00:00Z', '2030-01-02T25:00:00Z', '02/01/2030'])(
		'refuses %j',
		(value) => {
			expect(
				inputError(() => toFutureUtcTimestamp('Retry Until', value, 'UTC', now)).message,
			).toContain('Retry Until');
		},
	);
});

describe('JSON objects', () => {
	it('parses text and passes objects through', () => {
		expect(parseJsonObject('Definition', '{"a": 1}')).toEqual({ a: 1 });
		expect(parseJsonObject('Definition', { a: 1 })).toEqual({ a: 1 });
	});

	it.each([
		['[1, 2]', 'is an array, not a JSON object'],
		['"text"', 'is a string, not a JSON object'],
		['null', 'is null, not a JSON object'],
		['{"a": 1,}', 'is not valid JSON'],
		['', 'is empty'],
	])('refuses %j', (value, problem) => {
		const error = inputError(() => parseJsonObject('Definition (JSON)', value));
		expect(error.message).toContain(`Definition (JSON)`);
		expect(error.message).toContain(problem);
	});
});

describe('key/value rows', () => {
	it('makes string maps, writing numbers as text', () => {
		expect(
			pairsToStringMap('Metadata', [
				{ key: 'plan', value: 'gold' },
				{ key: 'visits', value: 3 },
			]),
		).toEqual({
			plan: 'gold',
			visits: '3',
		});
	});

	it('refuses empty and duplicate names, and object values', () => {
		expect(() => pairsToStringMap('Metadata', [{ key: '', value: 'x' }])).toThrow(
			'has a row without a name',
		);
		expect(() =>
			pairsToStringMap('Metadata', [
				{ key: 'a', value: '1' },
				{ key: 'a', value: '2' },
			]),
		).toThrow('Metadata "a" is used twice');
	});

	it('omits undefined, empty strings and empty objects', () => {
		expect(omitEmpty({ a: undefined, b: '', c: {}, d: 0, e: 'x', f: { g: 1 } })).toEqual({
			d: 0,
			e: 'x',
			f: { g: 1 },
		});
	});
});

describe('review defects', () => {
	it('a key named like an Object.prototype member is an ordinary key (not "used twice")', () => {
		const rows = ['constructor', 'toString', 'valueOf', '__proto__'].map((key) => ({
			key,
			value: 'x',
		}));
		const metadata = pairsToStringMap('Metadata', rows);
		expect(Object.keys(metadata)).toEqual(['constructor', 'toString', 'valueOf', '__proto__']);
		expect(Object.getPrototypeOf(metadata)).toBe(Object.prototype);
		expect(JSON.parse(JSON.stringify(metadata))).toEqual(
			JSON.parse('{"constructor":"x","toString":"x","valueOf":"x","__proto__":"x"}'),
		);
		expect(() =>
			pairsToStringMap('Metadata', [
				{ key: 'toString', value: 'a' },
				{ key: 'toString', value: 'b' },
			]),
		).toThrow('Metadata "toString" is used twice');
	});

	it('the phone number message states the digits the check allows (7 to 15)', () => {
		expect(normalizeContactPhoneNumber('Phone Number', '+1234567')).toBe('+1234567');
		const error = inputError(() => normalizeContactPhoneNumber('Phone Number', '+123456'));
		expect(error.fix).toContain('7 to 15 digits');
		expect(normalizeBusinessPhoneNumber('Business Phone Number', '1234567')).toBe('1234567');
		expect(inputError(() => normalizeBusinessPhoneNumber('B', '123456')).fix).toContain(
			'7 to 15 digits',
		);
	});

	it('an ID given as a number (expression, $fromAI) is used, not reported empty', () => {
		expect(requireText('Template', 12345, 'fix')).toBe('12345');
		expect(inputError(() => requireText('Template', '  ', 'fix')).message).toBe(
			'Template "  " is empty',
		);
		expect(inputError(() => requireText('Template', { a: 1 }, 'fix')).message).toBe(
			'Template {"a":1} is not text',
		);
	});

	it('an answer is output as it came', () => {
		expect(outputOf({ id: 'x' })).toEqual({ id: 'x' });
		expect(outputOf([{ id: 'a' }, 'b'])).toEqual([{ id: 'a' }, { response: 'b' }]);
		expect(outputOf('')).toEqual({});
		expect(outputOf('accepted')).toEqual({ response: 'accepted' });
	});
});
