import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { keyValueCollection } from './fields';

/**
 * How the user gives a template's variables (`liquid_values`): as fields read from the template
 * itself (n8n's resource mapper: each variable by name, its example as hint), as rows, or as JSON.
 */
export function templateVariablesFields(
	options: {
		/** The default mode: 'template' for new operations, 'fields' where values are not a template's. */
		defaultMode?: 'template' | 'fields' | 'json';
		label?: string;
		description?: string;
		/** Whether to offer "From the Template" (false where the values are not a template's). */
		fromTemplate?: boolean;
	} = {},
): INodeProperties[] {
	const fromTemplate = options.fromTemplate ?? true;
	const defaultMode = options.defaultMode ?? (fromTemplate ? 'template' : 'fields');
	const modes = variablesModes();
	const properties: INodeProperties[] = [
		{
			displayName: options.label ?? 'Template Variables',
			name: 'variablesInput',
			type: 'options',
			noDataExpression: true,
			options: fromTemplate ? modes : modes.slice(1),
			default: defaultMode,
			description:
				options.description ?? "How to give the values of the template's variables (liquid_values)",
		},
	];
	if (fromTemplate) {
		properties.push(templateMappedField());
	}
	properties.push(...rowsAndJsonFields());
	return properties;
}

/** The ways to give the variables: from the template (resource mapper), as rows, or as JSON. */
function variablesModes(): INodePropertyOptions[] {
	return [
		{
			name: 'From the Template',
			value: 'template',
			description: 'One field per variable of the template chosen above, named as in the template',
		},
		{
			name: 'Using Fields Below',
			value: 'fields',
			description: 'One row per variable, name and value',
		},
		{
			name: 'Using JSON',
			value: 'json',
			description: 'A JSON object of variable names and values, e.g. for a header_media object',
		},
	];
}

/** From the Template: one field per variable of the chosen template (n8n's resource mapper). */
function templateMappedField(): INodeProperties {
	return {
		displayName: 'Variables',
		name: 'variablesMapped',
		type: 'resourceMapper',
		noDataExpression: true,
		default: { mappingMode: 'defineBelow', value: null },
		required: true,
		typeOptions: {
			// The template only: n8n empties the mapped values whenever a parameter named here
			// changes, so what a user typed survives a change of operation or of the fields around.
			loadOptionsDependsOn: ['templateId.value'],
			resourceMapper: {
				resourceMapperMethod: 'getTemplateVariables',
				mode: 'add',
				fieldWords: { singular: 'variable', plural: 'variables' },
				addAllFields: true,
				multiKeyMatch: false,
				supportAutoMap: false,
				noFieldsError: 'This template has no variables, or pick a template first',
			},
		},
		displayOptions: { show: { variablesInput: ['template'] } },
	};
}

/** Using Fields Below (one row per variable) and Using JSON (an object of names and values). */
function rowsAndJsonFields(): INodeProperties[] {
	return [
		{
			...keyValueCollection('variables', 'Variables', {
				description:
					'Values for the named variables. A value may be text or a number; a header media value is a URL.',
				keyName: 'Variable Name',
				keyPlaceholder: 'e.g. first_name',
				valuePlaceholder: 'e.g. Asha',
			}),
			displayOptions: { show: { variablesInput: ['fields'] } },
		},
		{
			displayName: 'Variables (JSON)',
			name: 'variablesJson',
			type: 'json',
			default: '{\n  "first_name": "Asha"\n}',
			description: 'A JSON object of variable names and values',
			displayOptions: { show: { variablesInput: ['json'] } },
		},
	];
}
