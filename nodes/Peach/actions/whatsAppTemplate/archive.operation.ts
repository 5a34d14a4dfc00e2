import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import type { ItemResult, OperationOption } from '../operation/node.type';
import { changeTemplate, templateLocator } from './shared';
import { recordIn } from '../item/itemParameters';

export const option: OperationOption = {
	name: 'Archive',
	value: 'archive',
	action: 'Archive a template',
	description: 'Archive a template (Peach allows it for approved, rejected and draft templates)',
};

export const properties: INodeProperties[] = [templateLocator];

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<ItemResult> {
	return await changeTemplate(this, itemIndex, 'archive');
}

/** Changes to one record go one after another, in input order. */
export const recordOf = recordIn('templateId');
