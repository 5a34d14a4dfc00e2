import type { IDataObject } from 'n8n-workflow';

import { PeachInputError } from './inputError';
import { isPlainObject, parseJsonObject, setOwn } from './json';
import { namedValues, rowsOf } from './payload';

/**
 * The one home of what a template variable's value is and when it counts as empty, whichever way the
 * user gives the variables (From the Template, rows, JSON, a broadcast's Contact Variables) and
 * whichever operation sends them:
 *
 * - a value is text or a number, as it is; `header_media` may also be `{link, filename}`;
 * - a value is **empty** when it is missing, null, or text of white space only;
 * - an empty value is never sent: every operation refuses it with the one message below
 *   (`emptyVariableText`), naming the item, its contact, the variable and the expression behind it.
 */

/** The template variable whose value may be a `{link, filename}` object (Peach's docs). */
export const HEADER_MEDIA = 'header_media';

/** A value that fills nothing: missing, null, or text of white space (spaces, new lines) only. */
export function isEmptyValue(value: unknown): boolean {
	return (
		value === undefined || value === null || (typeof value === 'string' && value.trim() === '')
	);
}

/** The variables given for one item: the values that fill something, and the names given empty. */
export interface GivenVariables {
	values: IDataObject;
	/** Names the user gave whose value came out empty (never sent). */
	empty: string[];
}

/**
 * One value that is not empty: text or a number as it is; for `header_media` also `{link,
 * filename?}`; anything else is refused with the variable's name.
 */
function filledValue(field: string, key: string, value: unknown): string | number | IDataObject {
	if (typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value)))
		return value;
	if (key === HEADER_MEDIA && isPlainObject(value)) {
		const extra = Object.keys(value).filter((name) => name !== 'link' && name !== 'filename');
		if (
			typeof value.link === 'string' &&
			value.link.trim() !== '' &&
			extra.length === 0 &&
			(value.filename === undefined || typeof value.filename === 'string')
		) {
			return value;
		}
		throw new PeachInputError(
			`${field} "${key}"`,
			value,
			'is not {"link": "...", "filename": "..."}',
			'Give header_media as a URL, a media:// URL, or {"link": "<URL>", "filename": "<name.pdf>"} (filename only for documents).',
		);
	}
	throw new PeachInputError(
		`${field} "${key}"`,
		value,
		'is neither text nor a number',
		'Use text or a number. Only header_media may be an object: {"link": "...", "filename": "..."}.',
	);
}

const VARIABLE_NAMES = {
	row: 'variable name',
	fix: "Give every row the template variable's name, e.g. first_name, or delete the empty row.",
	once: 'Use each template variable once.',
};

/**
 * Named values (rows, a JSON object's entries, the mapper's fields) by the one rule: every name
 * given, each once; an empty value is set aside in `empty`, any other value checked.
 */
function givenFromEntries(field: string, entries: Array<[unknown, unknown]>): GivenVariables {
	const empty: string[] = [];
	const named = namedValues(field, entries, VARIABLE_NAMES, (value, key) => {
		if (isEmptyValue(value)) {
			empty.push(key);
			return undefined;
		}
		return filledValue(field, key, value);
	});
	const values: IDataObject = {};
	for (const [key, value] of Object.entries(named))
		if (!empty.includes(key)) setOwn(values, key, value);
	return { values, empty };
}

/** How the user gives the variables: From the Template (the mapper), rows, or JSON. */
export type VariablesMode = 'template' | 'fields' | 'json';

/**
 * The variables one item gives, from whichever way the user gave them (`mode`), by one rule for all.
 * `field` names where the user gives them (Variables, Other Template Variables, Global Variables…).
 */
export function givenVariables(
	mode: string,
	input: { rows?: unknown; json?: unknown; mapped?: unknown },
	field = 'Variables',
): GivenVariables {
	if (mode === 'json') {
		const json = input.json;
		if (json === undefined || (typeof json === 'string' && json.trim() === ''))
			return { values: {}, empty: [] };
		const parsed = parseJsonObject(`${field} (JSON)`, json);
		return givenFromEntries(`${field} (JSON)`, Object.entries(parsed));
	}
	if (mode === 'template') {
		const mapped = isPlainObject(input.mapped) && isPlainObject(input.mapped.value);
		const value = mapped ? ((input.mapped as IDataObject).value as IDataObject) : {};
		return givenFromEntries(field, Object.entries(value));
	}
	return givenFromEntries(
		field,
		rowsOf(input.rows).map((row) => [row.key, row.value]),
	);
}

/** What an empty value was, as a person reads it: no value, empty text, or only spaces. */
function whatItGave(value: unknown): string {
	if (typeof value !== 'string') return 'no value';
	return value === '' ? 'empty text' : 'only spaces';
}

/**
 * The fix, in the user's own terms: their expression with a fallback (`{{ $json.nickname || 'there'
 * }}`) when it is one `{{ … }}`; else what to do with the value.
 */
function fixOf(
	name: string,
	field: string,
	expression: string | undefined,
	given: boolean,
): string {
	const single = expression === undefined ? null : /^\{\{\s*([^{}]*?)\s*\}\}$/.exec(expression);
	if (single) {
		const inner = /^[\w$.[\]'"]+$/.test(single[1]) ? single[1] : `(${single[1]})`;
		return `Give every item a value (e.g. {{ ${inner} || 'there' }}), or leave out the items without one (e.g. with a Filter node before this one).`;
	}
	if (expression !== undefined)
		return `Give every item a value (e.g. add || 'there' to the expression), or leave out the items without one (e.g. with a Filter node before this one).`;
	return given
		? `Give ${name} a value, or remove it from ${field}.`
		: `Give ${name} a value in ${field} (e.g. {{ $json.${name} }}), or leave out the items without one (e.g. with a Filter node before this one).`;
}

/**
 * The one message for a template variable that came out empty (and the others of the same item):
 * the item as n8n numbers it (its index, from 0), its contact, the variable, what the user wrote
 * for it and what that gave, where the template shows it, and the fix built from their expression.
 */
export function emptyVariableText(input: {
	/** The first empty variable, and the others of the item. */
	name: string;
	others: string[];
	itemIndex: number;
	/** Who the item is for (a phone number), when known. */
	recipient?: string;
	/**
	 * Where the user gives the value (Variables, Other Template Variables…); `alsoIn` where it may be
	 * given too (a broadcast's Contact Variables), when the user's own entry is not known.
	 */
	field: string;
	alsoIn?: string;
	/** The expression the user wrote for it, as typed, if any. */
	expression?: string;
	/** The value it gave (undefined when the variable was not given at all). */
	value?: unknown;
	/** Whether the user gave the variable at all (a row, a JSON key, a mapper field). */
	given: boolean;
	/** Where the template shows it: `Template "welcome" shows {{first_name}} in its body`. */
	shownIn?: string;
}): { message: string; description: string } {
	const { name, others } = input;
	const where = `${input.field}${input.alsoIn ? ` and ${input.alsoIn}` : ''}`;
	const gave = input.given ? whatItGave(input.value) : 'no value';
	const what =
		input.expression !== undefined
			? `${input.field} → ${name} is ${input.expression}, which gave ${gave} for this item.`
			: input.given && !input.alsoIn
				? `${input.field} → ${name} gave ${gave} for this item.`
				: `${where} give ${gave} for ${name}.`;
	const shown = input.shownIn
		? `${input.shownIn}: sent without a value, the contact would see the placeholder.`
		: 'An empty value is never sent.';
	const and = others.length ? ` (and ${others.join(', ')})` : '';
	return {
		// The contact first, then the item as n8n numbers it (from 0).
		message: input.recipient
			? `Variable ${name}${and} is empty for ${input.recipient} (item ${input.itemIndex})`
			: `Variable ${name}${and} is empty in item ${input.itemIndex}`,
		description: [what, shown, fixOf(name, input.field, input.expression, input.given)].join(' '),
	};
}
