/**
 * Send and Wait's Custom Form: the form the person fills in on the answer page, with n8n's parameter
 * names and field types (Define Form: fields or JSON). Its definition is checked before the template
 * is sent (a form that cannot be shown never costs a message), and each answer against it before
 * anything resumes: what the person typed is data, read by the definition, never HTML or an expression.
 * This file holds what the form's parts share: its field types, a checked field, the limits and the
 * checks of a typed value. The parameters are in form.description.ts, the definition's check in
 * form.definition.ts (one field's in form.field.ts), an answer's check in form.answers.ts.
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
export const TEXT_MAX = 1_000;
export const TEXTAREA_MAX = 10_000;
export const ANSWER_MAX_BYTES = 64 * 1024;

export const text = (value: unknown) =>
	value === undefined || value === null ? '' : String(value as string | number).trim();

/** A calendar date as YYYY-MM-DD (2026-13-01, 2026-02-30 are none). */
export function isDate(value: string): boolean {
	if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
	const date = new Date(`${value}T00:00:00Z`);
	return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value;
}

export const isEmail = (value: string) => /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value);

/** A decimal number as a person types it (no hex, no Infinity). */
export const isNumber = (value: string) =>
	/^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/.test(value) && Number.isFinite(Number(value));

/** The page's name of a field's input (n8n's form: field-<index>). */
export const inputName = (index: number) => `field-${index}`;

/** What the person sent for the fields: strings as the page posted them (kept to show them again). */
export type Given = Record<string, string[]>;
