import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { returnAllAndLimit } from '../../descriptions/fields';
import { locator } from '../../descriptions/locator';
import { requireText } from '../../helpers/fields';
import { peachApiRequestAllItems } from '../../transport/paginate';
import { limitOfItem } from '../itemParameters';
import type { ItemResult, OperationOption } from '../node.type';

export const option: OperationOption = {
	name: 'Get Many',
	value: 'getMany',
	action: 'Get many triggers',
	description: 'List the triggers of an automation with their conditions and status',
};

const properties: INodeProperties[] = [
	locator('automation', { required: true, description: 'The automation whose triggers to list' }),
	...returnAllAndLimit(),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['trigger'], operation: ['getMany'] } },
	properties,
);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<ItemResult> {
	const automationId = requireText(
		'Automation',
		this.getNodeParameter('automationId', itemIndex, '', { extractValue: true }),
		'Pick an automation From List, or enter its ID (e.g. strm_1234abcd).',
	);
	return await peachApiRequestAllItems.call(
		this,
		{
			method: 'GET',
			path: `/streams/${encodeURIComponent(automationId)}/triggers`,
			itemIndex,
			notFound: { label: 'Automation', id: automationId },
		},
		{ itemsKey: ['triggers'], limit: limitOfItem(this, itemIndex) },
	);
}
