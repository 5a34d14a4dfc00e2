import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { returnAllAndLimit } from '../../descriptions/fields';
import { isSet } from '../../helpers/fields';
import { peachApiRequestAllItems } from '../../transport/paginate';
import { limitOfItem } from '../itemParameters';
import type { ItemResult, OperationOption } from '../node.type';

export const option: OperationOption = {
	name: 'Get Many',
	value: 'getMany',
	action: 'Get many automations',
	description:
		'List automations (streams), optionally only backend-driven or definition-driven ones',
};

const properties: INodeProperties[] = [
	...returnAllAndLimit(),
	{
		displayName: 'Filters',
		name: 'filters',
		type: 'collection',
		placeholder: 'Add Filter',
		default: {},
		options: [
			{
				displayName: 'Execution Mode',
				name: 'executionMode',
				type: 'options',
				options: [
					{ name: 'Backend Driven', value: 'backend_driven' },
					{ name: 'Definition Driven', value: 'definition_driven' },
				],
				default: 'definition_driven',
			},
		],
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['automation'], operation: ['getMany'] } },
	properties,
);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<ItemResult> {
	const filters = this.getNodeParameter('filters', itemIndex, {}) as IDataObject;
	const qs: IDataObject = {};
	if (isSet(filters.executionMode)) qs.execution_mode = String(filters.executionMode);
	return await peachApiRequestAllItems.call(
		this,
		{ method: 'GET', path: '/streams', qs, itemIndex },
		{ itemsKey: ['streams', 'automations'], limit: limitOfItem(this, itemIndex) },
	);
}
