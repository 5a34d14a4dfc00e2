import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { outputOf } from '../../helpers/payload';
import { apiPath, segment } from '../../transport/path';
import { peachApiRequest } from '../../transport/request';
import type { ItemResult, OperationOption } from '../operation/node.type';
import { orderIdField, orderIdOf } from './shared';

export const option: OperationOption = {
	name: 'Get',
	value: 'get',
	action: 'Get an order',
	description: "Read an order and its status by Peach's order ID",
};

export const properties: INodeProperties[] = [orderIdField];

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<ItemResult> {
	const id = orderIdOf(this, itemIndex);
	return outputOf(
		await peachApiRequest.call(this, {
			method: 'GET',
			path: apiPath`/orders/${segment('Order ID', id)}`,
			itemIndex,
			notFound: { label: 'Order', id },
		}),
	);
}
