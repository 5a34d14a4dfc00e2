import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { listFields, readList } from '../operation/list';
import type { ItemResult, OperationOption } from '../operation/node.type';
import { apiPath } from '../../transport/path';

export const option: OperationOption = {
	name: 'Get Many',
	value: 'getMany',
	action: 'Get many media files',
	description: 'List uploaded media files with their media:// URLs',
};

export const properties: INodeProperties[] = listFields();

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<ItemResult> {
	return await readList(this, itemIndex, { path: apiPath`/medias` }, { itemsKey: ['medias'] });
}
