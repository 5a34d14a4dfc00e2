import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { locator } from '../../descriptions/locator';
import { locatorValueOf } from '../item/itemParameters';
import { listFields, readList } from '../operation/list';
import type { ItemResult, OperationOption } from '../operation/node.type';
import { apiPath, segment } from '../../transport/path';

export const option: OperationOption = {
	name: 'Get Many',
	value: 'getMany',
	action: 'Get many triggers',
	description: 'List the triggers of an automation with their conditions and status',
};

export const properties: INodeProperties[] = [
	locator('automation', { required: true, description: 'The automation whose triggers to list' }),
	...listFields(),
];

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<ItemResult> {
	const automationId = locatorValueOf(
		this,
		itemIndex,
		'automationId',
		'Automation',
		'Pick an automation From List, or enter its ID (e.g. strm_1234abcd).',
	);
	return await readList(
		this,
		itemIndex,
		{
			path: apiPath`/streams/${segment('Automation', automationId)}/triggers`,
			notFound: { label: 'Automation', id: automationId },
		},
		{ itemsKey: ['triggers'] },
	);
}
