import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { keyValueCollection } from '../../descriptions/fields';
import { locator } from '../../descriptions/locator';
import { PeachInputError } from '../../helpers/inputError';
import { isPlainObject } from '../../helpers/json';
import { outputOf, pairsToStringMap, rowsOf } from '../../helpers/payload';
import { apiPath, segment } from '../../transport/path';
import { peachApiRequest } from '../../transport/request';
import { locatorValueOf, recordIn } from '../item/itemParameters';
import type { ItemResult, OperationOption } from '../operation/node.type';
import { dataMappingsField, dataMappingsFrom } from './shared';

export const option: OperationOption = {
	name: 'Update',
	value: 'update',
	action: 'Update a trigger',
	description:
		"Change a trigger's description, variables or data mappings, or activate or pause it",
};

export const properties: INodeProperties[] = [
	locator('automation', {
		description:
			'The automation whose triggers "From List" shows. Not needed when the trigger is given By ID.',
	}),
	locator('trigger', {
		required: true,
		description:
			'The trigger to update. "From List" shows the triggers of the automation chosen above.',
	}),
	{
		displayName: 'Activation',
		name: 'activation',
		type: 'options',
		options: [
			{
				name: 'Activate',
				value: 'activate',
				description: 'Activate the trigger; Peach registers its integration webhooks',
			},
			{
				name: "Don't Change",
				value: 'unchanged',
				description: 'Leave the trigger active or paused as it is',
			},
			{
				name: 'Pause',
				value: 'pause',
				description: 'Pause the trigger so it no longer starts the automation',
			},
		],
		default: 'unchanged',
		description: 'Whether to activate or pause the trigger',
	},
	{
		displayName:
			"Data Mappings replace all of the trigger's existing mappings: list every mapping the trigger should keep.",
		name: 'dataMappingsNotice',
		type: 'notice',
		default: '',
	},
	{
		displayName: 'Update Fields',
		name: 'updateFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		options: [
			{
				displayName: 'Clear Data Mappings',
				name: 'clearDataMappings',
				type: 'boolean',
				default: false,
				description:
					"Whether to remove all of the trigger's data mappings (sends an empty list). Leave Data Mappings out when this is on.",
			},
			dataMappingsField,
			{
				displayName: 'Description',
				name: 'description',
				type: 'string',
				default: '',
				placeholder: 'e.g. Paid orders from the web shop',
				description: 'A new description of the trigger',
			},
			keyValueCollection('variables', 'Variables', {
				description: "Values for the trigger condition's variables (text)",
				keyPlaceholder: 'e.g. key_path',
				valuePlaceholder: 'e.g. $.source_name',
			}),
		],
	},
];

/**
 * The new data mappings: the rows of Data Mappings, or none with Clear Data Mappings (refused with
 * rows); undefined when neither is given.
 */
function dataMappingsChange(updateFields: IDataObject): IDataObject[] | undefined {
	const mappings =
		isPlainObject(updateFields.dataMappings) && 'mappings' in updateFields.dataMappings
			? dataMappingsFrom(updateFields.dataMappings)
			: undefined;
	if (updateFields.clearDataMappings !== true) return mappings;
	if (mappings?.length) {
		throw new PeachInputError(
			'Clear Data Mappings',
			true,
			'is on while Data Mappings has rows',
			'Turn Clear Data Mappings off to replace the mappings with the rows, or remove the rows to clear them.',
		);
	}
	return [];
}

/** The PATCH body: only what the user chose. Refuses an update that would change nothing. Pure. */
export function buildTriggerUpdateBody(activation: string, updateFields: IDataObject): IDataObject {
	const body: IDataObject = {};
	if (typeof updateFields.description === 'string' && updateFields.description.trim() !== '') {
		body.description = updateFields.description.trim();
	}
	if (updateFields.variables !== undefined) {
		const variables = pairsToStringMap('Variables', rowsOf(updateFields.variables));
		if (Object.keys(variables).length) body.variables = variables;
	}
	const dataMappings = dataMappingsChange(updateFields);
	if (dataMappings) body.data_mappings = dataMappings;
	if (activation === 'activate') body.activate = true;
	else if (activation === 'pause') body.activate = false;
	else if (activation !== 'unchanged' && activation !== '') {
		throw new PeachInputError(
			'Activation',
			activation,
			'is not a choice',
			"Use Activate, Pause or Don't Change.",
		);
	}
	if (Object.keys(body).length === 0) {
		throw new PeachInputError(
			'Update Trigger',
			'(no changes)',
			'would change nothing',
			'Set Activation to Activate or Pause, or add an Update Field (Description, Variables, Data Mappings or Clear Data Mappings).',
		);
	}
	return body;
}

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<ItemResult> {
	const triggerId = locatorValueOf(
		this,
		itemIndex,
		'triggerId',
		'Trigger',
		'Pick a trigger From List (choose its automation first), or enter its ID By ID (e.g. trig_1234abcd).',
	);
	const body = buildTriggerUpdateBody(
		this.getNodeParameter('activation', itemIndex, 'unchanged') as string,
		this.getNodeParameter('updateFields', itemIndex, {}) as IDataObject,
	);
	const response = await peachApiRequest.call(this, {
		method: 'PATCH',
		path: apiPath`/triggers/${segment('Trigger', triggerId)}`,
		body,
		itemIndex,
		notFound: { label: 'Trigger', id: triggerId },
	});
	return outputOf(response);
}

/** Changes to one record go one after another, in input order. */
export const recordOf = recordIn('triggerId');
