import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import type { ItemResult, OperationOption } from '../operation/node.type';
import { guestLinkIdField, guestLinkRequest } from './shared';
import { recordIn } from '../item/itemParameters';

export const option: OperationOption = {
	name: 'Regenerate Setup Guest Link',
	value: 'regenerateGuestLink',
	action: 'Regenerate a setup guest link',
	description: 'Replace a setup guest link with a new one',
};

export const properties: INodeProperties[] = [guestLinkIdField];

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<ItemResult> {
	return await guestLinkRequest(this, itemIndex, 'regenerate');
}

/** Changes to one record go one after another, in input order. */
export const recordOf = recordIn('guestLinkId');
