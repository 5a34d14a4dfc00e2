import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { locator } from '../../descriptions/locator';
import { outputOf } from '../../helpers/payload';
import { apiPath, segment } from '../../transport/path';
import { peachApiRequest } from '../../transport/request';
import type { ItemResult, OperationOption } from '../operation/node.type';
import { automationIdOf } from './shared';

export const option: OperationOption = {
	name: 'Get',
	value: 'get',
	action: 'Get an automation',
	description: 'Read an automation (stream) with its step definition',
};

export const properties: INodeProperties[] = [locator('automation', { required: true })];

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<ItemResult> {
	const id = automationIdOf(this, itemIndex);
	return outputOf(
		await peachApiRequest.call(this, {
			method: 'GET',
			path: apiPath`/streams/${segment('Automation', id)}`,
			itemIndex,
			notFound: { label: 'Automation', id },
		}),
	);
}
