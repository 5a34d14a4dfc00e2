import type { INodeProperties } from 'n8n-workflow';

/** Resource locators shared by several operations: "From list" first (the default), then "By ID". */

export const templateLocator: INodeProperties = {
	displayName: 'Template',
	name: 'templateId',
	type: 'resourceLocator',
	default: { mode: 'list', value: '' },
	required: true,
	description: 'The approved WhatsApp template to send',
	modes: [
		{
			displayName: 'From List',
			name: 'list',
			type: 'list',
			placeholder: 'Select an approved template...',
			typeOptions: { searchListMethod: 'searchTemplates', searchable: true },
		},
		{
			displayName: 'By ID',
			name: 'id',
			type: 'string',
			placeholder: 'e.g. wat_1234abcd',
			validation: [
				{
					type: 'regex',
					properties: { regex: '^\\S+$', errorMessage: 'A template ID has no spaces' },
				},
			],
		},
	],
};

export function automationLocator(overrides: Partial<INodeProperties> = {}): INodeProperties {
	return {
		displayName: 'Automation',
		name: 'automationId',
		type: 'resourceLocator',
		default: { mode: 'list', value: '' },
		description: 'A Peach automation (stream)',
		modes: [
			{
				displayName: 'From List',
				name: 'list',
				type: 'list',
				placeholder: 'Select an automation...',
				typeOptions: { searchListMethod: 'searchAutomations', searchable: true },
			},
			{
				displayName: 'By ID',
				name: 'id',
				type: 'string',
				placeholder: 'e.g. strm_1234abcd',
				validation: [
					{
						type: 'regex',
						properties: { regex: '^\\S+$', errorMessage: 'An automation ID has no spaces' },
					},
				],
			},
		],
		...overrides,
	};
}

export const triggerLocator: INodeProperties = {
	displayName: 'Trigger',
	name: 'triggerId',
	type: 'resourceLocator',
	default: { mode: 'list', value: '' },
	required: true,
	description:
		'The trigger to update. "From List" shows the triggers of the automation chosen above.',
	modes: [
		{
			displayName: 'From List',
			name: 'list',
			type: 'list',
			placeholder: 'Select a trigger...',
			typeOptions: { searchListMethod: 'searchTriggers', searchable: true },
		},
		{
			displayName: 'By ID',
			name: 'id',
			type: 'string',
			placeholder: 'e.g. trig_1234abcd',
			validation: [
				{
					type: 'regex',
					properties: { regex: '^\\S+$', errorMessage: 'A trigger ID has no spaces' },
				},
			],
		},
	],
};

/** A name/value row, as used by metadata, trigger variables and data-mapping values. */
export function keyValueCollection(
	name: string,
	displayName: string,
	options: {
		description: string;
		keyName?: string;
		keyPlaceholder?: string;
		valuePlaceholder?: string;
	},
): INodeProperties {
	return {
		displayName,
		name,
		type: 'fixedCollection',
		typeOptions: { multipleValues: true },
		placeholder: `Add ${displayName.replace(/s$/, '')}`,
		default: {},
		description: options.description,
		options: [
			{
				displayName: 'Values',
				name: 'values',
				values: [
					{
						displayName: options.keyName ?? 'Name',
						name: 'key',
						type: 'string',
						default: '',
						placeholder: options.keyPlaceholder,
					},
					{
						displayName: 'Value',
						name: 'value',
						type: 'string',
						default: '',
						placeholder: options.valuePlaceholder,
					},
				],
			},
		],
	};
}
