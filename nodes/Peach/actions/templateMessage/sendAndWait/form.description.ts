import type { INodeProperties } from 'n8n-workflow';

import { elementTypeOptions, optionsOf } from './form.elementTypes';

/**
 * The Custom Form's parameters: n8n's form field properties (the Form node's names). The element
 * types' names and a choice's options field are in form.elementTypes.ts.
 */

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
						options: elementTypeOptions,
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
