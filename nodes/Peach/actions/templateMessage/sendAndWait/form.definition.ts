import { PeachInputError } from '../../../helpers/inputError';
import { isPlainObject, parseJson } from '../../../helpers/json';
import type { FormField } from './form';
import { text } from './form';
import { fieldOf } from './form.field';

/** The Custom Form's definition (Define Form: fields or JSON), checked before the template is sent. */

/** The fields as given: Form Elements' rows, or Form Fields parsed as JSON; refused if not a list. */
function givenFieldsOf(
	source: string,
	byJson: boolean,
	elements: unknown,
	json: unknown,
): unknown[] {
	const raw = byJson
		? parseJson(source, json)
		: isPlainObject(elements) && Array.isArray(elements.values)
			? elements.values
			: elements;
	if (!Array.isArray(raw)) {
		throw new PeachInputError(
			source,
			raw,
			'is not a list of fields',
			'Give an array such as [{"fieldLabel": "Amount", "fieldType": "number"}].',
		);
	}
	return raw;
}

/**
 * Each answer under its own key: no two fields under one key, nor one under a key the answer cannot
 * hold (`__proto__`) or that the node sets (`respondedAt`).
 */
function checkKeys(source: string, fields: FormField[]): void {
	const keys = fields.map((field) => field.key).filter(Boolean);
	const repeated = keys.find((key, index) => keys.indexOf(key) !== index);
	if (repeated !== undefined) {
		throw new PeachInputError(
			source,
			repeated,
			'names two fields: one answer would hide the other',
			'Give each field its own label (or Custom Field Name).',
		);
	}
	// An object key that is no key: `data.__proto__ = value` sets the prototype instead.
	if (keys.includes('__proto__')) {
		throw new PeachInputError(
			source,
			'__proto__',
			'cannot be a key of the answer',
			'Give the field another label (or Custom Field Name).',
		);
	}
	if (keys.includes('respondedAt')) {
		throw new PeachInputError(
			source,
			'respondedAt',
			'is the key of the time of the answer',
			'Give the field another label (or Custom Field Name).',
		);
	}
}

/**
 * The form as defined in the node (Form Elements, or Form Fields as JSON), checked: at least one
 * field, each with a label and a known type, choices with options, defaults that fit, and no two
 * answers under one key (nor under `respondedAt`, which the node sets). Pure.
 */
export function customFormOf(defineForm: unknown, elements: unknown, json: unknown): FormField[] {
	const byJson = defineForm === 'json';
	const source = byJson ? 'Form Fields (JSON)' : 'Form Elements';
	const fields = givenFieldsOf(source, byJson, elements, json).map((entry, index) => {
		const label = isPlainObject(entry) ? text(entry.fieldLabel || entry.fieldName) : '';
		return fieldOf(entry, `${source} → field ${index + 1}${label ? ` (${label})` : ''}`);
	});
	if (!fields.some((field) => field.type !== 'html' && field.type !== 'hiddenField')) {
		throw new PeachInputError(
			source,
			`${fields.length} fields`,
			'has no field to fill in',
			'Add a field, e.g. a Number labelled Amount to refund.',
		);
	}
	checkKeys(source, fields);
	return fields;
}

/** The form as the node's parameters define it, read with the context's getNodeParameter. */
export function readCustomForm(read: (name: string, fallback: unknown) => unknown): FormField[] {
	const defineForm = read('defineForm', 'fields');
	return defineForm === 'json'
		? customFormOf(defineForm, undefined, read('jsonOutput', '[]'))
		: customFormOf(defineForm, read('formFields', {}), undefined);
}
