import type { IDataObject } from 'n8n-workflow';

import { PeachInputError } from './inputError';
import { isPlainObject, setOwn } from './json';

export interface KeyValuePair {
	key?: string;
	value?: unknown;
}

/** The rows of a key/value fixedCollection (`{ values: [{ key, value }] }`), as stored by n8n. */
export function rowsOf(collection: unknown, property = 'values'): KeyValuePair[] {
	if (!isPlainObject(collection)) return [];
	const rows = collection[property];
	return Array.isArray(rows) ? (rows as KeyValuePair[]) : [];
}

/**
 * Named values (key/value rows, or the entries of a JSON object) to an object: every name given,
 * each name once, each value converted by `convert`. Any name is an ordinary key, including
 * `constructor` or `__proto__`.
 */
export function namedValues<T>(
	field: string,
	entries: Array<[unknown, unknown]>,
	names: { row: string; fix: string; once: string },
	convert: (value: unknown, key: string) => T,
): Record<string, T> {
	const result: Record<string, T> = {};
	const seen = new Set<string>();
	for (const [rawKey, value] of entries) {
		const key = typeof rawKey === 'string' ? rawKey.trim() : '';
		if (key === '')
			throw new PeachInputError(field, rawKey, `has a row without a ${names.row}`, names.fix);
		if (seen.has(key)) throw new PeachInputError(field, key, 'is used twice', names.once);
		seen.add(key);
		setOwn(result, key, convert(value, key));
	}
	return result;
}

const rowEntries = (rows: KeyValuePair[]): Array<[unknown, unknown]> =>
	rows.map((row) => [row.key, row.value]);

/**
 * Key/value rows to an object of strings (metadata, trigger variables, data-mapping values).
 * Numbers and booleans are written as text; objects are refused; duplicate keys are refused.
 */
export function pairsToStringMap(field: string, rows: KeyValuePair[]): Record<string, string> {
	return namedValues(
		field,
		rowEntries(rows),
		{
			row: 'name',
			fix: 'Give every row a name, or delete the empty row.',
			once: 'Use each name once.',
		},
		(value, key) => {
			if (value === undefined || value === null) return '';
			if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') {
				return String(value);
			}
			throw new PeachInputError(
				`${field} "${key}"`,
				value,
				'is not text',
				'Use a text value; Peach stores these values as strings.',
			);
		},
	);
}

/**
 * Key/value rows to an object whose values stay as given (text from the editor, any JSON value from
 * an expression): event payloads. Every name is kept, each once.
 */
export function pairsToValues(field: string, rows: KeyValuePair[]): IDataObject {
	return namedValues(
		field,
		rowEntries(rows),
		{
			row: 'name',
			fix: 'Give every row a name, or delete the empty row.',
			once: 'Use each name once.',
		},
		(value) => (value === undefined ? '' : (value as IDataObject[string])),
	);
}

/** Drops keys whose value is undefined, an empty string or an empty object, so only fields the user set are sent. */
export function omitEmpty<T extends IDataObject>(object: T): T {
	const result: IDataObject = {};
	for (const [key, value] of Object.entries(object)) {
		if (value === undefined || value === '') continue;
		if (isPlainObject(value) && Object.keys(value).length === 0) continue;
		result[key] = value;
	}
	return result as T;
}

/**
 * An operation's output from Peach's answer, as it came: an object as it is, a list as one item per
 * entry, an empty answer as `{}`, anything else (text, a number) as `{ response }`.
 */
export function outputOf(response: unknown): IDataObject | IDataObject[] {
	if (isPlainObject(response)) return response;
	if (Array.isArray(response))
		return response.map((entry) => (isPlainObject(entry) ? entry : { response: entry as string }));
	if (response === undefined || response === '') return {};
	return { response: response as string };
}

/** One output object from Peach's answer, whatever its shape: a list is kept under `response`. */
export function answerOf(response: unknown): IDataObject {
	const output = outputOf(response);
	return Array.isArray(output) ? { response: output } : output;
}
