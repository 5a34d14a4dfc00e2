import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { additionalFieldsCollection, keyValueCollection } from '../../descriptions/fields';
import { locator } from '../../descriptions/locator';
import { isSet } from '../../helpers/fields';
import { isPlainObject } from '../../helpers/json';
import { omitEmpty, outputOf, pairsToStringMap, rowsOf } from '../../helpers/payload';
import { apiPath, segment } from '../../transport/path';
import { peachApiRequest } from '../../transport/request';
import { locatorValueOf } from '../item/itemParameters';
import type { ItemResult, OperationOption } from '../operation/node.type';
import { dataMappingsField, dataMappingsFrom } from './shared';

export const option: OperationOption = {
	name: 'Create',
	value: 'create',
	action: 'Create a trigger',
	description:
		'Add a trigger to an automation: a condition from the condition library (e.g. Order Paid), its variables and data mappings; optionally activate it',
};

export const properties: INodeProperties[] = [
	locator('automation', { required: true, description: 'The automation the trigger starts' }),
	locator('condition', {
		required: true,
		description:
			"The condition from the condition library. From List sends its exact ID; By ID takes an ID (exp_...) or the condition's name (e.g. Order Paid).",
	}),
	{
		displayName: 'Activate',
		name: 'activate',
		type: 'boolean',
		default: false,
		description:
			'Whether to activate the trigger now (Peach registers the integration webhook); otherwise it is created as a draft',
	},
	additionalFieldsCollection([
		dataMappingsField,
		{
			displayName: 'Description',
			name: 'description',
			type: 'string',
			default: '',
			placeholder: 'e.g. Paid orders from the web shop',
		},
		{
			displayName: 'Source',
			name: 'source',
			type: 'string',
			default: '',
			placeholder: 'e.g. peach_shopify',
			description: 'Only to tell apart conditions of the same name from different integrations',
		},
		keyValueCollection('variables', 'Variables', {
			description: "Values for the condition's variables (text), e.g. key_path = $.source_name",
			keyPlaceholder: 'e.g. key_path',
			valuePlaceholder: 'e.g. $.source_name',
		}),
	]),
];

/**
 * The body of `POST /streams/{id}/triggers`. A condition picked From List (or an `exp_` ID) is sent
 * as `expression_id`; anything else is the condition's friendly name, sent as `condition`. Pure.
 */
export function buildCreateTriggerBody(
	condition: string,
	activate: boolean,
	fields: IDataObject,
): IDataObject {
	const byId = /^exp_\S+$/.test(condition);
	const variables = pairsToStringMap('Variables', rowsOf(fields.variables));
	const body: IDataObject = omitEmpty({
		[byId ? 'expression_id' : 'condition']: condition,
		source: typeof fields.source === 'string' ? fields.source.trim() : undefined,
		description: typeof fields.description === 'string' ? fields.description.trim() : undefined,
		variables,
	});
	if (isPlainObject(fields.dataMappings) && 'mappings' in fields.dataMappings) {
		body.data_mappings = dataMappingsFrom(fields.dataMappings);
	}
	body.activate = activate;
	return body;
}

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<ItemResult> {
	const automationId = locatorValueOf(
		this,
		itemIndex,
		'automationId',
		'Automation',
		'Pick an automation From List, or enter its ID (e.g. strm_1234abcd).',
	);
	const condition = locatorValueOf(
		this,
		itemIndex,
		'conditionId',
		'Condition',
		'Pick a condition From List (the condition library), or enter its ID or name.',
	);
	const fields = this.getNodeParameter('additionalFields', itemIndex, {}) as IDataObject;
	const body = buildCreateTriggerBody(
		condition,
		this.getNodeParameter('activate', itemIndex, false) as boolean,
		isSet(fields) ? fields : {},
	);
	return outputOf(
		await peachApiRequest.call(this, {
			method: 'POST',
			path: apiPath`/streams/${segment('Automation', automationId)}/triggers`,
			body,
			itemIndex,
			notFound: { label: 'Automation', id: automationId },
		}),
	);
}
