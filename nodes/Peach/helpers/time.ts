import type { IDataObject } from 'n8n-workflow';
import { IANAZone } from 'luxon';
import { tryToParseDateTime } from 'n8n-workflow';

import { PeachInputError } from './inputError';

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

/** An IANA time zone name such as `Asia/Kolkata`. */
export function validateTimeZone(field: string, value: unknown): string {
	const text = typeof value === 'string' ? value.trim() : value;
	if (typeof text !== 'string' || !IANAZone.isValidZone(text)) {
		throw new PeachInputError(
			field,
			value,
			'is not an IANA time zone',
			'Use a name from the IANA time zone database, e.g. Asia/Kolkata, Europe/Berlin or UTC.',
		);
	}
	return text;
}

/** A Luxon DateTime, as `{{ $now.plus(...) }}` gives (possibly from another copy of Luxon). */
function isLuxonLike(value: unknown): value is { toISO(): string } {
	return (
		typeof value === 'object' &&
		value !== null &&
		typeof (value as { toISO?: unknown }).toISO === 'function'
	);
}

/**
 * A date-time as the user gave it, read by n8n's own parser (ISO 8601 with `Z`, `+05` or `+05:30`,
 * SQL, HTTP and RFC 2822 dates); text without an offset is read in `timeZone` (the workflow's). A
 * JS Date or a Luxon DateTime from an expression is taken as it is. Day/month-ambiguous text and
 * dates that do not exist are refused.
 */
export function parseDateTime(
	field: string,
	value: unknown,
	timeZone: string,
): ReturnType<typeof tryToParseDateTime> {
	const notDate = () =>
		new PeachInputError(
			field,
			value,
			'is not a date-time',
			'Use a date-time such as 2030-01-31T18:00:00Z or 2030-01-31T18:00:00+05:30.',
		);
	const text =
		typeof value === 'string' ? value.trim() : isLuxonLike(value) ? value.toISO() : undefined;
	if (text === '' || (text === undefined && !(value instanceof Date))) throw notDate();
	if (text !== undefined && /^\d{1,2}[/.-]\d{1,2}[/.-]\d{2,4}/.test(text)) {
		throw new PeachInputError(
			field,
			value,
			'is ambiguous (day and month could be either way round)',
			'Write the date year first, e.g. 2030-01-31T18:00:00Z.',
		);
	}
	let parsed: ReturnType<typeof tryToParseDateTime>;
	try {
		parsed = tryToParseDateTime(text ?? value, IANAZone.isValidZone(timeZone) ? timeZone : 'UTC');
	} catch {
		throw notDate();
	}
	// A date that does not exist (2030-02-30) must not roll over into the next month.
	const written = text === undefined ? undefined : /^(\d{4}-\d{2}-\d{2})/.exec(text)?.[1];
	if (!parsed.isValid || (written !== undefined && parsed.toFormat('yyyy-MM-dd') !== written)) {
		throw new PeachInputError(
			field,
			value,
			'is not a real calendar date-time',
			'Check the day, month and time, e.g. 2030-01-31T18:00:00Z.',
		);
	}
	return parsed;
}

/** A date-time in UTC ISO 8601 (`...Z`). */
export function toUtcTimestamp(field: string, value: unknown, timeZone: string): string {
	return parseDateTime(field, value, timeZone).toUTC().toISO() as string;
}

/** A date-time that must lie in the future, in UTC ISO 8601 (`...Z`). */
export function toFutureUtcTimestamp(
	field: string,
	value: unknown,
	timeZone: string,
	now: Date = new Date(),
): string {
	const utc = parseDateTime(field, value, timeZone).toUTC();
	if (utc.toMillis() <= now.getTime()) {
		throw new PeachInputError(
			field,
			value,
			`is not in the future (it is ${utc.toISO()} UTC, now is ${now.toISOString()})`,
			'Pick a later date-time, e.g. {{ $now.plus({ days: 1 }).toISO() }}.',
		);
	}
	return utc.toISO() as string;
}

/** When Peach says a record was made (`created_at` and its kin), in ms; undefined when it does not. */
/**
 * Peach's clock and n8n's may differ by up to this: Peach is asked from this long before an
 * execution began, and what Peach dates within this of the start may be an earlier execution's.
 */
export const PEACH_CLOCK_MARGIN_MS = 60_000;

/**
 * Whether Peach dates a record (`at`) so near the execution's start that it may be an earlier
 * execution's: `since` is the start less the clock margin, so the doubt runs to the start plus it.
 */
export const nearStart = (at: number, since: number): boolean =>
	at < since + 2 * PEACH_CLOCK_MARGIN_MS;

export function createdAtOf(record: IDataObject): number | undefined {
	for (const key of ['created_at', 'createdAt', 'initiated_at', 'inserted_at']) {
		const at = typeof record[key] === 'string' ? Date.parse(record[key]) : NaN;
		if (Number.isFinite(at)) return at;
	}
	return undefined;
}
