import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import type { ItemResult, OperationOption } from '../operation/node.type';
import { guestLinkIdField, guestLinkRequest } from './shared';
import { recordIn } from '../item/itemParameters';

export const option: OperationOption = {
	name: 'Expire Setup Guest Link',
	value: 'expireGuestLink',
	action: 'Expire a setup guest link',
	description: 'Make a setup guest link stop working',
};

export const properties: INodeProperties[] = [guestLinkIdField];

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<ItemResult> {
	return await guestLinkRequest(this, itemIndex, 'expire');
}

/** Changes to one record go one after another, in input order. */
export const recordOf = recordIn('guestLinkId');
