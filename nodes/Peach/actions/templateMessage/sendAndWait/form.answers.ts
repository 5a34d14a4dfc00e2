import type { IDataObject } from 'n8n-workflow';

import { isPlainObject } from '../../../helpers/json';
import type { FormField, Given } from './form';
import {
	TEXT_MAX,
	TEXTAREA_MAX,
	ANSWER_MAX_BYTES,
	isDate,
	isEmail,
	isNumber,
	inputName,
} from './form';

/**
 * The answer, or why it cannot be taken, with what was given to show the form again (none: a
 * tampered post, the form shown as it was first).
 */
export type FormAnswer =
	| { data: IDataObject; problem?: undefined; given: Given }
	| { problem: string; given?: Given };

/** A post with an input the form has not (or that fills in one the page does not show). */
const TAMPERED = 'The answer has a field this form does not have. Fill in the form again.';

/** What was posted for each input, as strings; undefined for a post with an input the form has not. */
function givenOf(fields: FormField[], body: unknown): Given | undefined {
	const given: Given = {};
	const posted = isPlainObject(body) ? body : {};
	const names = new Set(fields.map((_, index) => inputName(index)));
	for (const [name, value] of Object.entries(posted)) {
		const values = Array.isArray(value) ? value : [value];
		if (!names.has(name) || !values.every((entry) => typeof entry === 'string')) return undefined;
		given[name] = values as string[];
	}
	return given;
}

/** One field's value in the answer, or why it cannot be taken (the end of a sentence). */
type FieldValue = { value: IDataObject[string]; reason?: undefined } | { reason: string };

/** A field left empty: refused if required (or too few checkboxes), else null (a multiple one: []). */
function emptyValue(field: FormField): FieldValue {
	if (field.required)
		return { reason: field.multiple ? 'choose at least one.' : 'this field is required.' };
	if (field.type === 'checkbox' && field.minChoices > 0)
		return { reason: `choose at least ${field.minChoices}.` };
	return { value: field.multiple ? [] : null };
}

/** A dropdown, radio or checkbox answer: its options only, each once, as many as allowed. */
function chosenValue(field: FormField, filled: string[]): FieldValue {
	const unknown = filled.find((entry) => !field.options.includes(entry));
	if (unknown !== undefined) return { reason: `"${unknown}" is not one of the choices.` };
	if (new Set(filled).size !== filled.length) return { reason: 'each choice counts once.' };
	if (field.multiple && (filled.length < field.minChoices || filled.length > field.maxChoices)) {
		return {
			reason:
				field.minChoices === field.maxChoices
					? `choose exactly ${field.minChoices}.`
					: `choose ${field.minChoices} to ${field.maxChoices}.`,
		};
	}
	return { value: field.multiple ? filled : filled[0] };
}

/** A typed answer: within its length, and a number, a date or an e-mail where the field is one. */
function typedValue(field: FormField, value: string): FieldValue {
	if (value.length > (field.type === 'textarea' ? TEXTAREA_MAX : TEXT_MAX))
		return {
			reason: `at most ${field.type === 'textarea' ? TEXTAREA_MAX : TEXT_MAX} characters.`,
		};
	if (field.type === 'number') {
		if (!isNumber(value))
			return { reason: `"${value}" is not a number: write digits only, e.g. 1200 or 1200.50.` };
		return { value: Number(value) };
	}
	if (field.type === 'date' && !isDate(value))
		return { reason: `"${value}" is not a date (YYYY-MM-DD).` };
	if (field.type === 'email' && !isEmail(value))
		return { reason: `"${value}" is not an e-mail address.` };
	return { value };
}

/** What a field the person fills in was given (its input's strings): its value, or why not. */
function fieldValue(field: FormField, posted: string[]): FieldValue {
	// A textarea keeps its new lines and a password its spaces; blank is empty for every field.
	const values = posted.map((entry) =>
		field.type === 'textarea' || field.type === 'password' ? entry : entry.trim(),
	);
	const filled = values.filter((entry) => entry.trim() !== '');
	if (filled.length === 0) return emptyValue(field);
	if (!field.multiple && filled.length > 1) return { reason: 'give one answer.' };
	if (field.options.length) return chosenValue(field, filled);
	return typedValue(field, filled[0]);
}

/**
 * Reads a POST of the form (as n8n parsed it) against its definition: every key must be one of its
 * inputs, required fields filled, numbers numbers, dates dates, e-mails e-mails, choices among the
 * options (as many as allowed), texts within their length, what was typed within ANSWER_MAX_BYTES
 * (as UTF-8: a browser's encoding of the post is larger). Returns the answer in n8n's shape
 * (`{ <key>: value }`: a number as a number, checkboxes as a list), or the first problem.
 */
export function readAnswer(fields: FormField[], body: unknown): FormAnswer {
	const given = givenOf(fields, body);
	if (given === undefined) return { problem: TAMPERED };
	const typed = Object.values(given)
		.flat()
		.reduce((bytes, value) => bytes + Buffer.byteLength(value), 0);
	if (typed > ANSWER_MAX_BYTES)
		return { problem: `The answer is too long (more than ${ANSWER_MAX_BYTES / 1024} KB).`, given };
	const data: IDataObject = {};
	for (const [index, field] of fields.entries()) {
		const name = inputName(index);
		if (field.type === 'hiddenField' || field.type === 'html') {
			// Not an input of the page: its value is the form's, and a post that gives one is tampered.
			if (name in given) return { problem: TAMPERED };
			if (field.type === 'hiddenField') data[field.key] = field.value;
			else if (field.key) data[field.key] = field.html;
			continue;
		}
		const read = fieldValue(field, given[name] ?? []);
		if (read.reason !== undefined) return { problem: `${field.label}: ${read.reason}`, given };
		data[field.key] = read.value;
	}
	return { data, given };
}
