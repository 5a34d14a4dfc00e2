import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { PeachInputError } from '../../helpers/inputError';
import { isPlainObject, parseJson } from '../../helpers/json';

/**
 * Send and Wait's Custom Form: the form the person fills in on the answer page, with n8n's parameter
 * names and field types (Define Form: fields or JSON). Its definition is checked before the template
 * is sent (a form that cannot be shown never costs a message), and each answer against it before
 * anything resumes: what the person typed is data, read by the definition, never HTML or an expression.
 */

export const FIELD_TYPES = [
	'text',
	'textarea',
	'number',
	'email',
	'password',
	'date',
	'dropdown',
	'radio',
	'checkbox',
	'hiddenField',
	'html',
] as const;
export type FieldType = (typeof FIELD_TYPES)[number];

/** A form field as checked: its output key, and what an answer may be. Pure data. */
export interface FormField {
	/** The field's key in the output (`data.<key>`): Custom Field Name, else the label. */
	key: string;
	label: string;
	type: FieldType;
	required: boolean;
	placeholder: string;
	/** Text types, date, dropdown and radio: one value; checkbox: the pre-selected options. */
	defaults: string[];
	/** Dropdown, radio, checkbox. */
	options: string[];
	/** Dropdown: several choices (n8n's Multiple Choice). */
	multiple: boolean;
	/** Checkbox: how many may be chosen. */
	minChoices: number;
	maxChoices: number;
	/** Hidden field: its value (set here, never taken from the page). */
	value: string;
	/** Custom HTML: the markup, and its output key if it has one (Element Name). */
	html: string;
}

/** What a text answer may hold; the whole answer is refused beyond ANSWER_MAX_BYTES. */
const TEXT_MAX = 1_000;
const TEXTAREA_MAX = 10_000;
export const ANSWER_MAX_BYTES = 64 * 1024;

const TYPE_NAMES: Record<FieldType, string> = {
	checkbox: 'Checkboxes',
	date: 'Date',
	dropdown: 'Dropdown',
	email: 'Email',
	hiddenField: 'Hidden Field',
	html: 'Custom HTML',
	number: 'Number',
	password: 'Password',
	radio: 'Radio Buttons',
	text: 'Text Input',
	textarea: 'Textarea',
};

const optionsOf = (name: string, label: string): INodeProperties => ({
	displayName: label,
	name: 'fieldOptions',
	placeholder: `Add ${label.replace(/s$/, '')}`,
	type: 'fixedCollection',
	default: { values: [{ option: '' }] },
	required: true,
	typeOptions: { multipleValues: true, sortable: true },
	displayOptions: { show: { fieldType: [name] } },
	options: [
		{
			displayName: 'Values',
			name: 'values',
			values: [{ displayName: 'Option', name: 'option', type: 'string', default: '' }],
		},
	],
});

/** n8n's form field properties (the Form node's names), for the field types the page offers. */
export const customFormProperties: INodeProperties[] = [
	{
		displayName: 'Define Form',
		name: 'defineForm',
		type: 'options',
		noDataExpression: true,
		options: [
			{ name: 'Using Fields Below', value: 'fields' },
			{ name: 'Using JSON', value: 'json' },
		],
		default: 'fields',
	},
	{
		displayName: 'Form Fields',
		name: 'jsonOutput',
		type: 'json',
		typeOptions: { rows: 5 },
		default:
			'[\n  {\n    "fieldLabel": "Amount (₹)",\n    "fieldType": "number",\n    "requiredField": true\n  },\n  {\n    "fieldLabel": "Reason",\n    "fieldType": "dropdown",\n    "fieldOptions": { "values": [{ "option": "Damaged" }, { "option": "Late" }] },\n    "requiredField": true\n  }\n]\n',
		description:
			"The form's fields as n8n's Form node takes them: fieldLabel, fieldType, requiredField, placeholder, defaultValue, fieldOptions",
		displayOptions: { show: { defineForm: ['json'] } },
	},
	{
		displayName: 'Form Elements',
		name: 'formFields',
		placeholder: 'Add Form Element',
		type: 'fixedCollection',
		default: {},
		typeOptions: { multipleValues: true, sortable: true },
		displayOptions: { show: { defineForm: ['fields'] } },
		options: [
			{
				displayName: 'Values',
				name: 'values',
				values: [
					optionsOf('checkbox', 'Checkboxes'),
					{
						displayName: 'Custom Field Name',
						name: 'fieldName',
						type: 'string',
						default: '',
						description:
							"The answer's key in the output instead of the label (required for a hidden field)",
						displayOptions: { hide: { fieldType: ['html'] } },
					},
					{
						displayName: 'Default Value',
						name: 'defaultValue',
						type: 'string',
						default: '',
						description:
							'Filled in when the page opens. A date as YYYY-MM-DD; a choice must be one of the options; checkboxes: options separated by commas.',
						displayOptions: {
							show: {
								fieldType: [
									'text',
									'textarea',
									'number',
									'email',
									'date',
									'dropdown',
									'radio',
									'checkbox',
								],
							},
						},
					},
					{
						displayName: 'Element Name',
						name: 'elementName',
						type: 'string',
						default: '',
						description: 'A key to include the HTML in the output (optional)',
						displayOptions: { show: { fieldType: ['html'] } },
					},
					{
						displayName: 'Element Type',
						name: 'fieldType',
						type: 'options',
						default: 'text',
						options: FIELD_TYPES.map((value) => ({ name: TYPE_NAMES[value], value })).sort((a, b) =>
							a.name.localeCompare(b.name),
						),
						required: true,
					},
					optionsOf('dropdown', 'Field Options'),
					{
						displayName: 'Field Value',
						name: 'fieldValue',
						type: 'string',
						default: '',
						description: 'The value the answer carries (the page does not show it or take it)',
						displayOptions: { show: { fieldType: ['hiddenField'] } },
					},
					{
						displayName: 'HTML',
						name: 'html',
						type: 'string',
						typeOptions: { rows: 4 },
						default: '',
						description:
							'Shown on the page. Headings, paragraphs, lists, bold and italic, code, and links to https:// addresses are kept; any other tag shows as text.',
						displayOptions: { show: { fieldType: ['html'] } },
					},
					{
						displayName: 'Label',
						name: 'fieldLabel',
						type: 'string',
						default: '',
						placeholder: 'e.g. Amount to refund',
						description: 'Shown above the field; the key of its answer in the output',
						required: true,
						displayOptions: { hide: { fieldType: ['hiddenField', 'html'] } },
					},
					{
						displayName: 'Limit Selection',
						name: 'limitSelection',
						type: 'options',
						default: 'unlimited',
						options: [
							{ name: 'Exact Number', value: 'exact' },
							{ name: 'Range', value: 'range' },
							{ name: 'Unlimited', value: 'unlimited' },
						],
						displayOptions: { show: { fieldType: ['checkbox'] } },
					},
					{
						displayName: 'Maximum Selections',
						name: 'maxSelections',
						type: 'number',
						default: 1,
						typeOptions: { numberPrecision: 0, minValue: 1 },
						displayOptions: { show: { fieldType: ['checkbox'], limitSelection: ['range'] } },
					},
					{
						displayName: 'Minimum Selections',
						name: 'minSelections',
						type: 'number',
						default: 0,
						typeOptions: { numberPrecision: 0, minValue: 0 },
						displayOptions: { show: { fieldType: ['checkbox'], limitSelection: ['range'] } },
					},
					{
						displayName: 'Multiple Choice',
						name: 'multiselect',
						type: 'boolean',
						default: false,
						description: 'Whether the person may choose several options of the dropdown',
						displayOptions: { show: { fieldType: ['dropdown'] } },
					},
					{
						displayName: 'Number of Selections',
						name: 'numberOfSelections',
						type: 'number',
						default: 1,
						typeOptions: { numberPrecision: 0, minValue: 1 },
						displayOptions: { show: { fieldType: ['checkbox'], limitSelection: ['exact'] } },
					},
					{
						displayName: 'Placeholder',
						name: 'placeholder',
						type: 'string',
						default: '',
						description: 'Sample text shown inside the empty field',
						displayOptions: {
							show: { fieldType: ['text', 'textarea', 'number', 'email', 'password'] },
						},
					},
					optionsOf('radio', 'Radio Buttons'),
					{
						displayName: 'Required Field',
						name: 'requiredField',
						type: 'boolean',
						default: false,
						description: 'Whether the person must fill this field in before sending',
						displayOptions: { hide: { fieldType: ['html', 'hiddenField'] } },
					},
				],
			},
		],
	},
];

const text = (value: unknown) =>
	value === undefined || value === null ? '' : String(value as string | number).trim();

/** A calendar date as YYYY-MM-DD (2026-13-01, 2026-02-30 are none). */
function isDate(value: string): boolean {
	if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
	const date = new Date(`${value}T00:00:00Z`);
	return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value;
}

const isEmail = (value: string) => /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value);

/** A decimal number as a person types it (no hex, no Infinity). */
const isNumber = (value: string) =>
	/^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/.test(value) && Number.isFinite(Number(value));

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

/** The page's name of a field's input (n8n's form: field-<index>). */
export const inputName = (index: number) => `field-${index}`;

/** What the person sent for the fields: strings as the page posted them (kept to show them again). */
export type Given = Record<string, string[]>;

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
