import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { requireText } from '../../helpers/fields';
import { outputOf } from '../../helpers/payload';
import { peachApiRequest } from '../../transport/request';
import type { ItemResult, OperationOption } from '../node.type';

export const option: OperationOption = {
	name: 'Get',
	value: 'get',
	action: 'Get an order',
	description: "Read an order and its status by Peach's order ID",
};

/** Peach lists no orders, so the ID is typed or mapped (e.g. from an order webhook). */
export const orderIdField: INodeProperties = {
	displayName: 'Order ID',
	name: 'orderId',
	type: 'string',
	required: true,
	default: '={{ $json.id }}',
	placeholder: 'e.g. wa_ord_1234abcd',
	description:
		"Peach's order ID (wa_ord_...). By default the ID in the input item, as a Create or an order webhook gives it.",
};

const properties: INodeProperties[] = [orderIdField];

export const description = updateDisplayOptions(
	{ show: { resource: ['order'], operation: ['get'] } },
	properties,
);

export function orderIdOf(context: IExecuteFunctions, itemIndex: number): string {
	return requireText(
		'Order ID',
		context.getNodeParameter('orderId', itemIndex),
		"Use Peach's order ID (wa_ord_...), e.g. {{ $json.id }} after a Create.",
	);
}

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<ItemResult> {
	const id = orderIdOf(this, itemIndex);
	return outputOf(
		await peachApiRequest.call(this, {
			method: 'GET',
			path: `/orders/${encodeURIComponent(id)}`,
			itemIndex,
			notFound: { label: 'Order', id },
		}),
	);
}
