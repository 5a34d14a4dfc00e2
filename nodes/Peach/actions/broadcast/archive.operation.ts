import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { locator } from '../../descriptions/locator';
import type { ItemResult, OperationOption } from '../operation/node.type';
import { changeBroadcast } from './shared';
import { recordIn } from '../item/itemParameters';

export const option: OperationOption = {
	name: 'Archive',
	value: 'archive',
	action: 'Archive a broadcast',
	description: 'Archive a broadcast that has finished sending',
};

export const properties: INodeProperties[] = [locator('broadcast', { required: true })];

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<ItemResult> {
	return await changeBroadcast(this, itemIndex, 'archive');
}

/** Changes to one record go one after another, in input order. */
export const recordOf = recordIn('broadcastId');
