import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import type { ItemResult, OperationOption } from '../operation/node.type';
import { extraFieldsJson, guestLinkRequest } from './shared';

export const option: OperationOption = {
	name: 'Create Setup Guest Link',
	value: 'createGuestLink',
	action: 'Create a setup guest link',
	description:
		'Create a setup guest link (Peach documents only the path: extra fields go in as JSON)',
};

export const properties: INodeProperties[] = [extraFieldsJson];

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<ItemResult> {
	return await guestLinkRequest(this, itemIndex, 'create');
}
