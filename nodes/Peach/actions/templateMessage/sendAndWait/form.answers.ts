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

/**
 * Reads a POST of the form (as n8n parsed it) against its definition: every key must be one of its
 * inputs, required fields filled, numbers numbers, dates dates, e-mails e-mails, choices among the
 * options (as many as allowed), texts within their length, what was typed within ANSWER_MAX_BYTES
 * (as UTF-8: a browser's encoding of the post is larger). Returns the answer in n8n's shape
 * (`{ <key>: value }`: a number as a number, checkboxes as a list), or the first problem.
 */
export function readAnswer(fields: FormField[], body: unknown): FormAnswer {
	const given: Given = {};
	const posted = isPlainObject(body) ? body : {};
	const names = new Set(fields.map((_, index) => inputName(index)));
	const tampered = {
		problem: 'The answer has a field this form does not have. Fill in the form again.',
	};
	for (const [name, value] of Object.entries(posted)) {
		const values = Array.isArray(value) ? value : [value];
		if (!names.has(name) || !values.every((entry) => typeof entry === 'string')) return tampered;
		given[name] = values as string[];
	}
	const typed = Object.values(given)
		.flat()
		.reduce((bytes, value) => bytes + Buffer.byteLength(value), 0);
	if (typed > ANSWER_MAX_BYTES)
		return { problem: `The answer is too long (more than ${ANSWER_MAX_BYTES / 1024} KB).`, given };
	const data: IDataObject = {};
	for (const [index, field] of fields.entries()) {
		const name = inputName(index);
		if (field.type === 'hiddenField') {
			if (name in given) return tampered;
			data[field.key] = field.value;
			continue;
		}
		if (field.type === 'html') {
			if (name in given) return tampered;
			if (field.key) data[field.key] = field.html;
			continue;
		}
		// A textarea keeps its new lines and a password its spaces; blank is empty for every field.
		const values = (given[name] ?? []).map((entry) =>
			field.type === 'textarea' || field.type === 'password' ? entry : entry.trim(),
		);
		const filled = values.filter((entry) => entry.trim() !== '');
		const problem = (reason: string): FormAnswer => ({
			problem: `${field.label}: ${reason}`,
			given,
		});
		if (filled.length === 0) {
			if (field.required)
				return problem(field.multiple ? 'choose at least one.' : 'this field is required.');
			if (field.type === 'checkbox' && field.minChoices > 0)
				return problem(`choose at least ${field.minChoices}.`);
			data[field.key] = field.multiple ? [] : null;
			continue;
		}
		if (!field.multiple && filled.length > 1) return problem('give one answer.');
		if (field.options.length) {
			const unknown = filled.find((entry) => !field.options.includes(entry));
			if (unknown !== undefined) return problem(`"${unknown}" is not one of the choices.`);
			if (new Set(filled).size !== filled.length) return problem('each choice counts once.');
			if (
				field.multiple &&
				(filled.length < field.minChoices || filled.length > field.maxChoices)
			) {
				return problem(
					field.minChoices === field.maxChoices
						? `choose exactly ${field.minChoices}.`
						: `choose ${field.minChoices} to ${field.maxChoices}.`,
				);
			}
			data[field.key] = field.multiple ? filled : filled[0];
			continue;
		}
		const [value] = filled;
		if (value.length > (field.type === 'textarea' ? TEXTAREA_MAX : TEXT_MAX))
			return problem(`at most ${field.type === 'textarea' ? TEXTAREA_MAX : TEXT_MAX} characters.`);
		if (field.type === 'number') {
			if (!isNumber(value))
				return problem(`"${value}" is not a number: write digits only, e.g. 1200 or 1200.50.`);
			data[field.key] = Number(value);
		} else if (field.type === 'date') {
			if (!isDate(value)) return problem(`"${value}" is not a date (YYYY-MM-DD).`);
			data[field.key] = value;
		} else if (field.type === 'email') {
			if (!isEmail(value)) return problem(`"${value}" is not an e-mail address.`);
			data[field.key] = value;
		} else {
			data[field.key] = value;
		}
	}
	return { data, given };
}
