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
 * Key/value rows to an object of strings (metadata, trigger variables, data-mapping values).
 * Numbers and booleans are written as text; objects are refused; duplicate keys are refused.
 */
export function pairsToStringMap(field: string, rows: KeyValuePair[]): Record<string, string> {
	const result: Record<string, string> = {};
	for (const row of rows) {
		const key = typeof row.key === 'string' ? row.key.trim() : '';
		if (key === '') {
			throw new PeachInputError(
				field,
				row,
				'has a row without a name',
				'Give every row a name, or delete the empty row.',
			);
		}
		if (key in result) {
			throw new PeachInputError(field, key, 'is used twice', 'Use each name once.');
		}
		const value = row.value;
		if (value === undefined || value === null) {
			result[key] = '';
		} else if (
			typeof value === 'string' ||
			typeof value === 'number' ||
			typeof value === 'boolean'
		) {
			result[key] = String(value);
		} else {
			throw new PeachInputError(
				`${field} "${key}"`,
				value,
				'is not text',
				'Use a text value; Peach stores these values as strings.',
			);
		}
	}
	return result;
}

/**
 * Template variable rows to `liquid_values`. A value stays a number when it is one (an expression
 * can return a number); everything else is sent as given when it is text.
 */
export function pairsToLiquidValues(field: string, rows: KeyValuePair[]): IDataObject {
	const result: IDataObject = {};
	for (const row of rows) {
		const key = typeof row.key === 'string' ? row.key.trim() : '';
		if (key === '') {
			throw new PeachInputError(
				field,
				row,
				'has a row without a variable name',
				"Give every row the template variable's name, e.g. first_name, or delete the empty row.",
			);
		}
		if (key in result) {
			throw new PeachInputError(field, key, 'is used twice', 'Use each template variable once.');
		}
		const value = row.value;
		if (typeof value === 'string' || typeof value === 'number') {
			result[key] = value;
		} else if (value === undefined || value === null) {
			result[key] = '';
		} else {
			throw new PeachInputError(
				`${field} "${key}"`,
				value,
				'is neither text nor a number',
				'Use text or a number. For an object value (e.g. header_media with link and filename) switch Template Variables to "Using JSON".',
			);
		}
	}
	return result;
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
