import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { returnAllAndLimit } from '../../descriptions/fields';
import { peachApiRequestAllItems } from '../../transport/paginate';
import { limitOfItem } from '../itemParameters';
import type { ItemResult, OperationOption } from '../node.type';

export const option: OperationOption = {
	name: 'Get Many',
	value: 'getMany',
	action: 'Get many media files',
	description: 'List uploaded media files with their media:// URLs',
};

const properties: INodeProperties[] = [...returnAllAndLimit()];

export const description = updateDisplayOptions(
	{ show: { resource: ['media'], operation: ['getMany'] } },
	properties,
);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<ItemResult> {
	return await peachApiRequestAllItems.call(
		this,
		{ method: 'GET', path: '/medias', itemIndex },
		{ itemsKey: ['medias'], limit: limitOfItem(this, itemIndex) },
	);
}
