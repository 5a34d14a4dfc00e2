import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { locator } from '../../descriptions/locator';
import type { ItemResult, OperationOption } from '../operation/node.type';
import { changeBroadcast } from './shared';
import { recordIn } from '../item/itemParameters';

export const option: OperationOption = {
	name: 'Cancel',
	value: 'cancel',
	action: 'Cancel a broadcast',
	description: 'Cancel a scheduled or sending broadcast: Peach stops sending what is not sent yet',
};

export const properties: INodeProperties[] = [locator('broadcast', { required: true })];

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<ItemResult> {
	return await changeBroadcast(this, itemIndex, 'cancel');
}

/** Changes to one record go one after another, in input order. */
export const recordOf = recordIn('broadcastId');
