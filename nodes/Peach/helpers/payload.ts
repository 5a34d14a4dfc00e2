import type { IDataObject } from 'n8n-workflow';

import { isPlainObject, PeachInputError } from './validation';

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
 * Walks key/value rows: every row needs a name, each name once; `convert` turns a value into what is sent.
 */
function rowsToObject<T>(
	field: string,
	rows: KeyValuePair[],
	names: { row: string; fix: string; once: string },
	convert: (value: unknown, key: string) => T,
): Record<string, T> {
	const result: Record<string, T> = {};
	for (const row of rows) {
		const key = typeof row.key === 'string' ? row.key.trim() : '';
		if (key === '')
			throw new PeachInputError(field, row, `has a row without a ${names.row}`, names.fix);
		if (key in result) throw new PeachInputError(field, key, 'is used twice', names.once);
		result[key] = convert(row.value, key);
	}
	return result;
}

/**
 * Key/value rows to an object of strings (metadata, trigger variables, data-mapping values).
 * Numbers and booleans are written as text; objects are refused; duplicate keys are refused.
 */
export function pairsToStringMap(field: string, rows: KeyValuePair[]): Record<string, string> {
	return rowsToObject(
		field,
		rows,
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
 * Template variable rows to `liquid_values`. A value stays a number when it is one (an expression
 * can return a number); text is sent as it is.
 */
export function pairsToLiquidValues(field: string, rows: KeyValuePair[]): IDataObject {
	return rowsToObject<string | number>(
		field,
		rows,
		{
			row: 'variable name',
			fix: "Give every row the template variable's name, e.g. first_name, or delete the empty row.",
			once: 'Use each template variable once.',
		},
		(value, key) => {
			if (typeof value === 'string' || typeof value === 'number') return value;
			if (value === undefined || value === null) return '';
			throw new PeachInputError(
				`${field} "${key}"`,
				value,
				'is neither text nor a number',
				'Use text or a number. For an object value (e.g. header_media with link and filename) switch Template Variables to "Using JSON".',
			);
		},
	);
}

/** Whether an optional parameter was given a value (n8n leaves unset ones undefined or ''). */
export function isSet(value: unknown): boolean {
	return value !== undefined && value !== null && value !== '';
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
