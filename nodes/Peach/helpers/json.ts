import type { IDataObject } from 'n8n-workflow';
import { jsonParse } from 'n8n-workflow';

import { PeachInputError } from './inputError';

/** An object that is not an array or null: the one check of this kind in the package. */
export function isPlainObject(value: unknown): value is IDataObject {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Sets `key` as an own, enumerable field, whatever the name: a key such as `__proto__` stays a
 * field and cannot change the object's prototype (plain assignment would).
 */
export function setOwn(target: object, key: string, value: unknown): void {
	Object.defineProperty(target, key, {
		value,
		enumerable: true,
		writable: true,
		configurable: true,
	});
}

/**
 * JSON given as text (from the editor) or already parsed (from an expression), read by n8n's own
 * parser; a syntax error names the field and the fix.
 */
export function parseJson(field: string, value: unknown): unknown {
	if (typeof value !== 'string') return value;
	let parsed: unknown;
	let failure: Error | undefined;
	try {
		parsed = jsonParse<unknown>(value);
	} catch (error) {
		failure = error as Error;
	}
	if (failure) {
		throw new PeachInputError(
			field,
			value,
			`is not valid JSON (${failure.message})`,
			'Fix the JSON syntax: keys and strings in double quotes, no trailing commas.',
		);
	}
	return parsed;
}

/** A JSON object given as text (from the editor) or as an object (from an expression). */
export function parseJsonObject(field: string, value: unknown): IDataObject {
	if (typeof value === 'string' && value.trim() === '') {
		throw new PeachInputError(
			field,
			value,
			'is empty',
			'Enter a JSON object, e.g. {"start_step": "welcome", "steps": {}}, or remove the field.',
		);
	}
	const parsed = parseJson(field, value);
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
