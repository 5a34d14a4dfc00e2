import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import type { ItemResult, OperationOption } from '../node.type';
import { changeTemplate, templateLocator } from './shared';

export const option: OperationOption = {
	name: 'Submit',
	value: 'submit',
	action: 'Submit a template',
	description: 'Submit a draft template to Meta for review',
};

const properties: INodeProperties[] = [templateLocator];

export const description = updateDisplayOptions(
	{ show: { resource: ['whatsAppTemplate'], operation: ['submit'] } },
	properties,
);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<ItemResult> {
	return await changeTemplate(this, itemIndex, 'submit');
}
