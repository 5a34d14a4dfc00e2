import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { isSet, oneOf } from '../../helpers/fields';
import { PeachInputError } from '../../helpers/inputError';
import { outputOf } from '../../helpers/payload';
import { peachApiRequest } from '../../transport/request';
import type { ItemResult, OperationOption } from '../node.type';
import { minorUnits } from './create.operation';
import { orderIdField, orderIdOf } from './get.operation';

export const option: OperationOption = {
	name: 'Refund',
	value: 'refund',
	action: 'Refund an order',
	description:
		'Refund a paid order in full or in part (INR, minor units). A refund moves money: it is never repeated automatically, and a failed one must be checked in Peach before trying again.',
};

const properties: INodeProperties[] = [
	orderIdField,
	{
		displayName: 'Amount (Minor Units)',
		name: 'amount',
		type: 'number',
		default: 0,
		description:
			'How much to refund, in paise: 12000 = ₹120.00. 0 leaves the amount out (Peach refunds the order).',
	},
	{
		displayName: 'Currency',
		name: 'currency',
		type: 'string',
		default: 'INR',
		description: 'Peach supports only INR',
	},
	{
		displayName: 'Speed',
		name: 'speed',
		type: 'options',
		options: [
			{ name: 'Instant', value: 'instant' },
			{ name: 'Normal', value: 'normal' },
		],
		default: 'normal',
		description: 'The refund speed asked for; the payment gateway decides the actual one',
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['order'], operation: ['refund'] } },
	properties,
);

/** The body of `POST /api/v1/orders/{id}/refunds`: speed and, when given, an INR amount. Pure. */
export function buildRefundBody(input: {
	amount: unknown;
	currency: unknown;
	speed: unknown;
}): IDataObject {
	const body: IDataObject = {};
	const speed = oneOf('Speed', input.speed, ['normal', 'instant']);
	if (speed) body.speed = speed;
	if (isSet(input.amount) && input.amount !== 0) {
		const currency = String(input.currency ?? 'INR')
			.trim()
			.toUpperCase();
		if (currency !== 'INR') {
			throw new PeachInputError(
				'Currency',
				input.currency,
				'is not supported',
				'Peach refunds only in INR: use INR.',
			);
		}
		body.amount = { currency, value: minorUnits('Amount', input.amount) };
	}
	return body;
}

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<ItemResult> {
	const id = orderIdOf(this, itemIndex);
	const body = buildRefundBody({
		amount: this.getNodeParameter('amount', itemIndex, 0),
		currency: this.getNodeParameter('currency', itemIndex, 'INR'),
		speed: this.getNodeParameter('speed', itemIndex, 'normal'),
	});
	return outputOf(
		await peachApiRequest.call(this, {
			method: 'POST',
			path: `/orders/${encodeURIComponent(id)}/refunds`,
			body,
			itemIndex,
			notFound: { label: 'Order', id },
			delivers: true,
		}),
	);
}
