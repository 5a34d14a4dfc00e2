import type { IDataObject } from 'n8n-workflow';

/**
 * A user input that cannot be sent. Pure helpers throw it; the router turns it into a
 * NodeOperationError with the item index, so nothing is sent for that item.
 */
export class PeachInputError extends Error {
	constructor(
		readonly field: string,
		readonly value: unknown,
		readonly problem: string,
		readonly fix: string,
	) {
		super(`${field} ${describeValue(value)} ${problem}`);
		this.name = 'PeachInputError';
	}
}

export function describeValue(value: unknown): string {
	if (typeof value === 'string')
		return `"${value.length > 80 ? `${value.slice(0, 77)}...` : value}"`;
	if (value === undefined) return '(empty)';
	try {
		const text = JSON.stringify(value);
		return text.length > 80 ? `${text.slice(0, 77)}...` : text;
	} catch {
		return String(value);
	}
}

const E164 = /^\+[1-9]\d{6,14}$/;

/** A phone number as text without spaces, dots, dashes and brackets; undefined when it is not text. */
function compactPhone(value: unknown): string | undefined {
	const raw = typeof value === 'number' ? String(value) : value;
	return typeof raw === 'string' ? raw.replace(/[\s().-]/g, '') : undefined;
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
		throw new PeachInputError(
			field,
			value,
			'has no + and country code',
			'Write the number in international (E.164) format: + then the country code, e.g. +919988776655.',
		);
	}
	if (!E164.test(compact)) {
		throw new PeachInputError(
			field,
			value,
			'is not a valid international phone number',
			'Use + followed by the country code and number, 8 to 15 digits in all, e.g. +14155550123.',
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
	if (!/^[1-9]\d{6,14}$/.test(compact)) {
		throw new PeachInputError(
			field,
			value,
			'is not a business phone number',
			'Enter digits only, with the country code and no +, e.g. 919876543222.',
		);
	}
	return compact;
}

export function validateEmail(field: string, value: string): string {
	const trimmed = value.trim();
	if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(trimmed)) {
		throw new PeachInputError(
			field,
			value,
			'is not an email address',
			'Enter an address such as name@example.com, or remove the field.',
		);
	}
	return trimmed;
}

/** A time of day as `HH:MM`, 24-hour clock. */
export function validateTimeOfDay(field: string, value: unknown): string {
	const text = typeof value === 'string' ? value.trim() : value;
	if (typeof text !== 'string' || !/^([01]\d|2[0-3]):[0-5]\d$/.test(text)) {
		throw new PeachInputError(
			field,
			value,
			'is not a time of day',
			'Use HH:MM on a 24-hour clock, e.g. 08:00 or 20:30.',
		);
	}
	return text;
}

export function isValidTimeZone(zone: string): boolean {
	try {
		new Intl.DateTimeFormat('en-US', { timeZone: zone });
		return zone.length > 0;
	} catch {
		return false;
	}
}

/** An IANA time zone name such as `Asia/Kolkata`. */
export function validateTimeZone(field: string, value: unknown): string {
	const text = typeof value === 'string' ? value.trim() : value;
	if (typeof text !== 'string' || !isValidTimeZone(text)) {
		throw new PeachInputError(
			field,
			value,
			'is not an IANA time zone',
			'Use a name from the IANA time zone database, e.g. Asia/Kolkata, Europe/Berlin or UTC.',
		);
	}
	return text;
}

const ISO_8601 =
	/^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?)?(Z|[+-]\d{2}:?\d{2})?$/i;

/** Offset of `zone` from UTC, in minutes, at the instant `utcMillis`. */
function zoneOffsetMinutes(utcMillis: number, zone: string): number {
	const parts = new Intl.DateTimeFormat('en-US', {
		timeZone: zone,
		hourCycle: 'h23',
		year: 'numeric',
		month: '2-digit',
		day: '2-digit',
		hour: '2-digit',
		minute: '2-digit',
		second: '2-digit',
	}).formatToParts(new Date(utcMillis));
	const get = (type: string) => Number(parts.find((part) => part.type === type)?.value);
	const asUtc = Date.UTC(
		get('year'),
		get('month') - 1,
		get('day'),
		get('hour'),
		get('minute'),
		get('second'),
	);
	return Math.round((asUtc - Math.floor(utcMillis / 1000) * 1000) / 60000);
}

/** The UTC instant of a wall-clock time in `zone` (the n8n date picker gives times without an offset). */
export function wallTimeToUtc(
	wall: {
		year: number;
		month: number;
		day: number;
		hour: number;
		minute: number;
		second: number;
		millisecond: number;
	},
	zone: string,
): number {
	const naive = Date.UTC(
		wall.year,
		wall.month - 1,
		wall.day,
		wall.hour,
		wall.minute,
		wall.second,
		wall.millisecond,
	);
	let guess = naive - zoneOffsetMinutes(naive, zone) * 60000;
	guess = naive - zoneOffsetMinutes(guess, zone) * 60000;
	return guess;
}

/** A Luxon DateTime, as `{{ $now.plus(...) }}` gives, recognised without importing Luxon. */
function isLuxonLike(value: unknown): value is { toISO(): string } {
	return (
		typeof value === 'object' &&
		value !== null &&
		typeof (value as { toISO?: unknown }).toISO === 'function'
	);
}

/**
 * An ISO 8601 date-time that must lie in the future, returned in UTC (`...Z`).
 * A value without an offset is read in `timeZone` (the workflow's time zone).
 */
export function toFutureUtcTimestamp(
	field: string,
	value: unknown,
	timeZone: string,
	now: Date = new Date(),
): string {
	const text =
		typeof value === 'string'
			? value.trim()
			: value instanceof Date
				? value.toISOString()
				: isLuxonLike(value)
					? value.toISO()
					: value;
	const match = typeof text === 'string' ? ISO_8601.exec(text) : null;
	if (typeof text !== 'string' || !match) {
		throw new PeachInputError(
			field,
			value,
			'is not an ISO 8601 date-time',
			'Use a date-time such as 2030-01-31T18:00:00Z or 2030-01-31T18:00:00+05:30.',
		);
	}
	const [, y, mo, d, h = '00', mi = '00', s = '00', frac = '0', offset] = match;
	const wall = {
		year: Number(y),
		month: Number(mo),
		day: Number(d),
		hour: Number(h),
		minute: Number(mi),
		second: Number(s),
		millisecond: Math.round(Number(`0.${frac}`) * 1000),
	};
	const check = new Date(
		Date.UTC(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute, wall.second),
	);
	if (
		check.getUTCFullYear() !== wall.year ||
		check.getUTCMonth() !== wall.month - 1 ||
		check.getUTCDate() !== wall.day ||
		wall.hour > 23 ||
		wall.minute > 59 ||
		wall.second > 59
	) {
		throw new PeachInputError(
			field,
			value,
			'is not a real calendar date-time',
			'Check the day, month and time, e.g. 2030-01-31T18:00:00Z.',
		);
	}
	let millis: number;
	if (offset === undefined) {
		millis = wallTimeToUtc(wall, isValidTimeZone(timeZone) ? timeZone : 'UTC');
	} else {
		const naive = Date.UTC(
			wall.year,
			wall.month - 1,
			wall.day,
			wall.hour,
			wall.minute,
			wall.second,
			wall.millisecond,
		);
		if (offset.toUpperCase() === 'Z') {
			millis = naive;
		} else {
			const sign = offset.startsWith('-') ? -1 : 1;
			const digits = offset.slice(1).replace(':', '');
			const minutes = Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2, 4));
			millis = naive - sign * minutes * 60000;
		}
	}
	if (millis <= now.getTime()) {
		throw new PeachInputError(
			field,
			value,
			`is not in the future (it is ${new Date(millis).toISOString()} UTC, now is ${now.toISOString()})`,
			'Pick a later date-time, e.g. {{ $now.plus({ days: 1 }).toISO() }}.',
		);
	}
	return new Date(millis).toISOString();
}

export function validateHttpUrl(field: string, value: unknown): string {
	const text = typeof value === 'string' ? value.trim() : '';
	let parsed: URL | undefined;
	try {
		parsed = new URL(text);
	} catch {
		parsed = undefined;
	}
	if (
		!parsed ||
		(parsed.protocol !== 'http:' && parsed.protocol !== 'https:') ||
		!parsed.hostname
	) {
		throw new PeachInputError(
			field,
			value,
			'is not an http(s) URL',
			'Enter a full URL that starts with https:// (or http://), e.g. https://example.com/peach/backend.',
		);
	}
	return text;
}

export function isPlainObject(value: unknown): value is IDataObject {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A JSON object given as text (from the editor) or as an object (from an expression). */
export function parseJsonObject(field: string, value: unknown): IDataObject {
	let parsed: unknown = value;
	if (typeof value === 'string') {
		if (value.trim() === '') {
			throw new PeachInputError(
				field,
				value,
				'is empty',
				'Enter a JSON object, e.g. {"start_step": "welcome", "steps": {}}, or remove the field.',
			);
		}
		let syntaxError: string | undefined;
		try {
			parsed = JSON.parse(value);
		} catch (error) {
			syntaxError = (error as Error).message;
		}
		if (syntaxError !== undefined) {
			throw new PeachInputError(
				field,
				value,
				`is not valid JSON (${syntaxError})`,
				'Fix the JSON syntax: keys and strings in double quotes, no trailing commas.',
			);
		}
	}
	if (!isPlainObject(parsed)) {
		throw new PeachInputError(
			field,
			value,
			`is ${Array.isArray(parsed) ? 'an array' : parsed === null ? 'null' : `a ${typeof parsed}`}, not a JSON object`,
			'Wrap the values in an object: {"key": "value"}.',
		);
	}
	return parsed;
}

export function requireNonEmptyString(field: string, value: unknown, fix: string): string {
	if (typeof value !== 'string' || value.trim() === '') {
		throw new PeachInputError(field, value, 'is empty', fix);
	}
	return value.trim();
}
