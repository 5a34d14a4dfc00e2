import type { IDataObject } from 'n8n-workflow';

import { PeachInputError } from '../../../helpers/inputError';
import { isPlainObject } from '../../../helpers/json';
import type { FieldType, FormField } from './form';
import { FIELD_TYPES, text, isDate, isNumber } from './form';

/**
 * One field of the Custom Form's definition, checked part by part (the first problem refuses): its
 * type, its label and key, its options, its default value, how many of its checkboxes may be chosen.
 */

/** What the later checks of a field depend on. */
type Shape = Pick<FormField, 'type' | 'options' | 'multiple'>;

const isChoice = (type: FieldType) =>
	type === 'dropdown' || type === 'radio' || type === 'checkbox';

/** Element Type (text when none is given): one the answer page offers. */
function typeOf(raw: IDataObject, at: string): FieldType {
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
	return type;
}

/**
 * The label (required but for custom HTML and hidden fields) and the output key: Custom Field Name,
 * else a custom HTML's Element Name, else the label (a hidden field needs one).
 */
function namesOf(raw: IDataObject, type: FieldType, at: string): { label: string; key: string } {
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
	return { label, key };
}

/** The options as given; a dropdown's, radio's or checkbox's each with a label, none twice. */
function optionsOf(raw: IDataObject, type: FieldType, at: string): string[] {
	const rawOptions =
		isPlainObject(raw.fieldOptions) && Array.isArray(raw.fieldOptions.values)
			? raw.fieldOptions.values
			: [];
	const options = rawOptions.map((option) => text(isPlainObject(option) ? option.option : option));
	if (!isChoice(type)) return options;
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
	return options;
}

/** Default Value: one value (a multiple field's: a comma-separated list), each fitting the field. */
function defaultsOf(raw: IDataObject, { type, options, multiple }: Shape, at: string): string[] {
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
		if (isChoice(type) && !options.includes(value))
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
	return defaults;
}

/**
 * How many may be chosen: a checkbox's Limit Selection (checked against its options), a multiple
 * dropdown's options, else one.
 */
function choiceLimits(
	raw: IDataObject,
	{ type, options, multiple }: Shape,
	at: string,
): { minChoices: number; maxChoices: number } {
	let minChoices = 0;
	let maxChoices = multiple ? options.length : 1;
	if (type !== 'checkbox') return { minChoices, maxChoices };
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
	return { minChoices, maxChoices };
}

/** One field of the definition, checked; `at` names it in a refusal. */
export function fieldOf(raw: unknown, at: string): FormField {
	if (!isPlainObject(raw)) {
		throw new PeachInputError(
			at,
			raw,
			'is not a form field',
			'Give an object such as {"fieldLabel": "Amount", "fieldType": "number"}.',
		);
	}
	const type = typeOf(raw, at);
	const { label, key } = namesOf(raw, type, at);
	const options = optionsOf(raw, type, at);
	const multiple = type === 'checkbox' || (type === 'dropdown' && raw.multiselect === true);
	const defaults = defaultsOf(raw, { type, options, multiple }, at);
	const { minChoices, maxChoices } = choiceLimits(raw, { type, options, multiple }, at);
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
