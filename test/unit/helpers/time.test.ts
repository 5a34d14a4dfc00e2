import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';

import { inputError } from '../support/inputError';
import {
	toFutureUtcTimestamp,
	validateTimeOfDay,
	validateTimeZone,
} from '../../../nodes/Peach/helpers/time';

describe('email, times, time zones, URLs', () => {
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
});

describe('future ISO 8601 timestamps', () => {
	const now = new Date('2030-01-01T00:00:00Z');
	/** Retry Until `value` in the workflow time zone `zone`, as a UTC timestamp (now is 2030-01-01). */
	const retryUntil = (value: unknown, zone = 'UTC') =>
		toFutureUtcTimestamp('Retry Until', value, zone, now);

	it('sends a Z timestamp as it is', () => {
		expect(retryUntil('2030-01-02T10:00:00Z')).toBe('2030-01-02T10:00:00.000Z');
	});

	it('converts an offset to UTC', () => {
		expect(retryUntil('2030-01-02T10:00:00+05:30')).toBe('2030-01-02T04:30:00.000Z');
		expect(retryUntil('2030-01-02T10:00:00-0800')).toBe('2030-01-02T18:00:00.000Z');
	});

	it('reads a time without offset in the workflow time zone (as the n8n date picker gives it)', () => {
		expect(retryUntil('2030-01-02T10:00:00', 'Asia/Kolkata')).toBe('2030-01-02T04:30:00.000Z');
		expect(retryUntil('2030-07-02T10:00:00', 'Europe/Berlin')).toBe('2030-07-02T08:00:00.000Z');
	});

	it('takes a Date or a Luxon DateTime from an expression', () => {
		expect(retryUntil(new Date('2030-01-05T00:00:00Z'))).toBe('2030-01-05T00:00:00.000Z');
		const luxonLike = { toISO: () => '2030-01-05T05:30:00.000+05:30' };
		expect(retryUntil(luxonLike)).toBe('2030-01-05T00:00:00.000Z');
		expect(retryUntil(DateTime.fromISO('2030-01-05T05:30:00', { zone: 'Asia/Kolkata' }))).toBe(
			'2030-01-05T00:00:00.000Z',
		);
	});

	it('accepts the offsets +05 and +05:30, and the date forms n8n reads', () => {
		expect(retryUntil('2030-01-02T10:00:00+05')).toBe('2030-01-02T05:00:00.000Z');
		expect(retryUntil('2030-01-02 10:00:00', 'Asia/Kolkata')).toBe('2030-01-02T04:30:00.000Z');
	});

	it('refuses a day-month order it cannot know, saying how to write it', () => {
		const error = inputError(() => retryUntil('02/01/2030'));
		expect(error.message).toBe(
			'Retry Until "02/01/2030" is ambiguous (day and month could be either way round)',
		);
		expect(error.fix).toContain('year first');
	});

	it('refuses a past moment and says when it is', () => {
		const error = inputError(() => retryUntil('2029-12-31T23:00:00Z'));
		expect(error.message).toContain('Retry Until "2029-12-31T23:00:00Z" is not in the future');
	});

	it.each(['tomorrow', '2030-02-30T10:00:00Z', '2030-01-02T25:00:00Z', '02/01/2030'])(
		'refuses %j',
		(value) => {
			expect(inputError(() => retryUntil(value)).message).toContain('Retry Until');
		},
	);
});
