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
	action: 'Get many broadcasts',
	description: 'List broadcasts, optionally only those in one status',
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
		],
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['broadcast'], operation: ['getMany'] } },
	properties,
);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<ItemResult> {
	const filters = this.getNodeParameter('filters', itemIndex, {}) as IDataObject;
	const qs: IDataObject = {};
	if (isSet(filters.status)) qs.status = String(filters.status);
	return await peachApiRequestAllItems.call(
		this,
		{ method: 'GET', path: '/broadcasts', qs, itemIndex },
		{
			itemsKey: ['broadcasts', 'campaigns'],
			limit: limitOfItem(this, itemIndex),
		},
	);
}
