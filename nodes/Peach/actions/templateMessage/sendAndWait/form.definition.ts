import { PeachInputError } from '../../../helpers/inputError';
import { isPlainObject, parseJson } from '../../../helpers/json';
import type { FieldType, FormField } from './form';
import { FIELD_TYPES, text, isDate, isNumber } from './form';

/** The Custom Form's definition (Define Form: fields or JSON), checked before the template is sent. */

/** One field of the definition, checked; `at` names it in a refusal. */
function fieldOf(raw: unknown, at: string): FormField {
	if (!isPlainObject(raw)) {
		throw new PeachInputError(
			at,
			raw,
			'is not a form field',
			'Give an object such as {"fieldLabel": "Amount", "fieldType": "number"}.',
		);
	}
	const given = text(raw.fieldType || 'text');
	const type = given as FieldType;
	if (!FIELD_TYPES.includes(type)) {
		throw new PeachInputError(
			`${at} → Element Type`,
			given,
			given === 'file' ? 'is not offered: the answer page takes no files' : 'is not a field type',
			`Use one of: ${FIELD_TYPES.join(', ')}.`,
		);
	}
	const label = text(raw.fieldLabel);
	const key = text(raw.fieldName) || (type === 'html' ? text(raw.elementName) : label);
	if (type !== 'html' && type !== 'hiddenField' && label === '') {
		throw new PeachInputError(
			`${at} → Label`,
			label,
			'is empty',
			'Give the field a label, e.g. Amount to refund.',
		);
	}
	if (type === 'hiddenField' && key === '') {
		throw new PeachInputError(
			`${at} → Custom Field Name`,
			key,
			'is empty',
			'A hidden field needs a name: its key in the output.',
		);
	}
	const rawOptions =
		isPlainObject(raw.fieldOptions) && Array.isArray(raw.fieldOptions.values)
			? raw.fieldOptions.values
			: [];
	const options = rawOptions.map((option) => text(isPlainObject(option) ? option.option : option));
	const choices = type === 'dropdown' || type === 'radio' || type === 'checkbox';
	if (choices) {
		if (options.length === 0 || options.some((option) => option === '')) {
			throw new PeachInputError(
				`${at} → Options`,
				options,
				options.length === 0 ? 'has no options' : 'has an empty option',
				'Give each option a label.',
			);
		}
		const repeated = options.find((option, index) => options.indexOf(option) !== index);
		if (repeated !== undefined) {
			throw new PeachInputError(
				`${at} → Options`,
				repeated,
				'is given twice',
				'Give each option once: the answer is its label.',
			);
		}
	}
	const multiple = type === 'checkbox' || (type === 'dropdown' && raw.multiselect === true);
	const defaultText = text(raw.defaultValue);
	const defaults =
		defaultText === ''
			? []
			: multiple
				? defaultText
						.split(',')
						.map((entry) => entry.trim())
						.filter(Boolean)
				: [defaultText];
	for (const value of defaults) {
		if (choices && !options.includes(value))
			throw new PeachInputError(
				`${at} → Default Value`,
				value,
				'is not one of its options',
				`Use one of: ${options.join(', ')}.`,
			);
		if (type === 'number' && !isNumber(value))
			throw new PeachInputError(
				`${at} → Default Value`,
				value,
				'is not a number',
				'Give a number, e.g. 1200.',
			);
		if (type === 'date' && !isDate(value))
			throw new PeachInputError(
				`${at} → Default Value`,
				value,
				'is not a date',
				'Give a date as YYYY-MM-DD, e.g. 2026-12-01.',
			);
	}
	let minChoices = 0;
	let maxChoices = multiple ? options.length : 1;
	if (type === 'checkbox') {
		const limit = text(raw.limitSelection) || 'unlimited';
		if (limit === 'exact') {
			minChoices = maxChoices = Number(raw.numberOfSelections ?? 1);
		} else if (limit === 'range') {
			minChoices = Number(raw.minSelections ?? 0);
			maxChoices = Number(raw.maxSelections ?? 1);
		}
		if (
			!Number.isInteger(minChoices) ||
			!Number.isInteger(maxChoices) ||
			minChoices < 0 ||
			maxChoices < Math.max(minChoices, 1) ||
			minChoices > options.length
		) {
			throw new PeachInputError(
				`${at} → Limit Selection`,
				`${minChoices} to ${maxChoices} of ${options.length}`,
				'cannot be chosen',
				'Give whole numbers: at least 0, at most the number of checkboxes, the minimum not above the maximum.',
			);
		}
	}
	return {
		key,
		label,
		type,
		required: raw.requiredField === true && type !== 'html' && type !== 'hiddenField',
		placeholder: text(raw.placeholder),
		defaults,
		options,
		multiple,
		minChoices,
		maxChoices,
		value: type === 'hiddenField' ? text(raw.fieldValue) : '',
		html: type === 'html' ? String(raw.html ?? '') : '',
	};
}

/**
 * The form as defined in the node (Form Elements, or Form Fields as JSON), checked: at least one
 * field, each with a label and a known type, choices with options, defaults that fit, and no two
 * answers under one key (nor under `respondedAt`, which the node sets). Pure.
 */
export function customFormOf(defineForm: unknown, elements: unknown, json: unknown): FormField[] {
	const byJson = defineForm === 'json';
	const source = byJson ? 'Form Fields (JSON)' : 'Form Elements';
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
	const fields = raw.map((entry, index) => {
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
	return fields;
}

/** The form as the node's parameters define it, read with the context's getNodeParameter. */
export function readCustomForm(read: (name: string, fallback: unknown) => unknown): FormField[] {
	const defineForm = read('defineForm', 'fields');
	return defineForm === 'json'
		? customFormOf(defineForm, undefined, read('jsonOutput', '[]'))
		: customFormOf(defineForm, read('formFields', {}), undefined);
}
