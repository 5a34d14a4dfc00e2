import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import type { ItemResult, OperationOption } from '../operation/node.type';
import { changeTemplate, templateLocator } from './shared';
import { recordIn } from '../item/itemParameters';

export const option: OperationOption = {
	name: 'Pause',
	value: 'pause',
	action: 'Pause a template',
	description: 'Pause an approved template so it can no longer be sent',
};

export const properties: INodeProperties[] = [templateLocator];

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<ItemResult> {
	return await changeTemplate(this, itemIndex, 'pause');
}

/** Changes to one record go one after another, in input order. */
export const recordOf = recordIn('templateId');
