import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { filtersOfItem, listFields, readList, textQuery } from '../operation/list';
import type { ItemResult, OperationOption } from '../operation/node.type';
import { apiPath } from '../../transport/path';

export const option: OperationOption = {
	name: 'Get Many',
	value: 'getMany',
	action: 'Get many automations',
	description:
		'List automations (streams), optionally only backend-driven or definition-driven ones',
};

export const properties: INodeProperties[] = listFields([
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
]);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<ItemResult> {
	return await readList(
		this,
		itemIndex,
		{
			path: apiPath`/streams`,
			qs: textQuery(filtersOfItem(this, itemIndex), { executionMode: 'execution_mode' }),
		},
		{ itemsKey: ['streams', 'automations'] },
	);
}
