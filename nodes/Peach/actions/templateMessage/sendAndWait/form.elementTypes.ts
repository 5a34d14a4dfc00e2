import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import type { FieldType } from './form';
import { FIELD_TYPES } from './form';

/**
 * The Custom Form's element types as the editor shows them (form.description.ts): their names, the
 * Form node's, and the options field of a choice (checkboxes, dropdown, radio buttons).
 */

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

/** Element Type's choices: every field type the page offers, by name. */
export const elementTypeOptions: INodePropertyOptions[] = FIELD_TYPES.map((value) => ({
	name: TYPE_NAMES[value],
	value,
})).sort((a, b) => a.name.localeCompare(b.name));

/** The options of a choice element of type `name`, under `label` (one Option each). */
export const optionsOf = (name: string, label: string): INodeProperties => ({
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
