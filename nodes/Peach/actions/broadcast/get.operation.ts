import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { locator } from '../../descriptions/locator';
import { outputOf } from '../../helpers/payload';
import { apiPath, segment } from '../../transport/path';
import { peachApiRequest } from '../../transport/request';
import type { ItemResult, OperationOption } from '../operation/node.type';
import { broadcastIdOf } from './shared';

export const option: OperationOption = {
	name: 'Get',
	value: 'get',
	action: 'Get a broadcast',
	description: "Read a broadcast's details by ID",
};

export const properties: INodeProperties[] = [locator('broadcast', { required: true })];

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<ItemResult> {
	const id = broadcastIdOf(this, itemIndex);
	return outputOf(
		await peachApiRequest.call(this, {
			method: 'GET',
			path: apiPath`/broadcasts/${segment('Broadcast', id)}`,
			itemIndex,
			notFound: { label: 'Broadcast', id },
		}),
	);
}
