import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { filtersOfItem, listFields, readList, textQuery } from '../operation/list';
import type { ItemResult, OperationOption } from '../operation/node.type';
import { apiPath } from '../../transport/path';

export const option: OperationOption = {
	name: 'Get Many',
	value: 'getMany',
	action: 'Get many broadcasts',
	description: 'List broadcasts, optionally only those in one status',
};

export const properties: INodeProperties[] = listFields([
	{
		displayName: 'Status',
		name: 'status',
		type: 'options',
		// Peach documents no status list; these are the values its own n8n node offers.
		options: [
			{ name: 'Archived', value: 'archived' },
			{ name: 'Draft', value: 'draft' },
			{ name: 'Queued', value: 'queued' },
			{ name: 'Sending', value: 'sending' },
			{ name: 'Sent', value: 'sent' },
		],
		default: 'sent',
		description:
			'Only broadcasts in this status. An expression may give any other status Peach uses.',
	},
]);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<ItemResult> {
	return await readList(
		this,
		itemIndex,
		{
			path: apiPath`/broadcasts`,
			qs: textQuery(filtersOfItem(this, itemIndex), { status: 'status' }),
		},
		{ itemsKey: ['broadcasts', 'campaigns'] },
	);
}
