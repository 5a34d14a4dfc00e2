import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { filtersOfItem, listFields, readList, textQuery } from '../operation/list';
import type { ItemResult, OperationOption } from '../operation/node.type';
import { apiPath } from '../../transport/path';

export const option: OperationOption = {
	name: 'Get Many',
	value: 'getMany',
	action: 'Get many conditions',
	description:
		'List the conditions a trigger can use (e.g. Order Paid), with their topic and the variables each needs',
};

export const properties: INodeProperties[] = listFields([
	{
		displayName: 'Source',
		name: 'source',
		type: 'options',
		// The values Peach's MCP server names; an expression may give any other.
		options: [
			{ name: 'Peach', value: 'Peach' },
			{ name: 'Shopify', value: 'peach_shopify', description: 'Source peach_shopify' },
			{ name: 'Stripe', value: 'stripe' },
		],
		default: 'peach_shopify',
		description: 'Only the conditions of this integration',
	},
]);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<ItemResult> {
	return await readList(
		this,
		itemIndex,
		{
			path: apiPath`/expressions`,
			qs: textQuery(filtersOfItem(this, itemIndex), { source: 'source' }),
		},
		{ itemsKey: ['expressions'] },
	);
}
