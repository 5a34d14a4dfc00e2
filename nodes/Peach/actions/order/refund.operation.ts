import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { isSet, oneOf } from '../../helpers/fields';
import { omitEmpty } from '../../helpers/payload';
import { PeachInputError } from '../../helpers/inputError';
import { postDelivery } from '../../transport/request';
import type { DeliveringOperation, OperationOption } from '../operation/node.type';
import { refundWitness } from './refund.witness';
import { minorUnits, orderIdField, orderIdOf, refundAsked, type RefundPlan } from './shared';
import { apiPath, segment } from '../../transport/path';

const option: OperationOption = {
	name: 'Refund',
	value: 'refund',
	action: 'Refund an order',
	description:
		'Refund a paid order: part of it (an amount in INR minor units, required) or, only when chosen explicitly, the whole order. A refund moves money: it is never repeated automatically, and a failed one must be checked in Peach before trying again.',
};

/**
 * A refund moves money, so its target is never guessed: the Order ID starts empty (no
 * `{{ $json.id }}`, which after an If or a Merge names whatever item came in).
 */
const refundOrderIdField: INodeProperties = {
	...orderIdField,
	default: '',
	description:
		"Peach's order ID (wa_ord_...) to refund. Map it from the node that knows the order, e.g. {{ $json.order_id }} from an order webhook.",
};

const properties: INodeProperties[] = [
	refundOrderIdField,
	{
		displayName: 'Refund',
		name: 'refundType',
		type: 'options',
		options: [
			{
				name: 'Part of the Order',
				value: 'partial',
				description: 'The amount below, in minor units',
			},
			{
				name: 'The Whole Order',
				value: 'full',
				description: 'Peach refunds the order in full; no amount is sent',
			},
		],
		default: 'partial',
		description:
			'How much to refund. A whole-order refund must be chosen here: an empty amount never means "everything".',
	},
	{
		displayName: 'Amount (Minor Units)',
		name: 'amount',
		type: 'number',
		required: true,
		typeOptions: { minValue: 1 },
		default: 0,
		description:
			'How much to refund, in paise: 12000 = ₹120.00. A whole number above 0; an empty or zero amount is refused.',
		displayOptions: { show: { refundType: ['partial'] } },
	},
	{
		displayName: 'Currency',
		name: 'currency',
		type: 'string',
		default: 'INR',
		description: 'Peach supports only INR',
		displayOptions: { show: { refundType: ['partial'] } },
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

export const REFUND_TYPES = ['partial', 'full'];

/**
 * The body of `POST /api/v1/orders/{id}/refunds`. A whole-order refund is only ever the explicit
 * choice `full` (then no amount is sent); a partial refund needs a whole amount above 0 in INR minor
 * units: an empty, zero or missing amount is refused, never read as "refund everything". Pure.
 */
export function buildRefundBody(input: {
	refundType: unknown;
	amount: unknown;
	currency: unknown;
	speed: unknown;
}): IDataObject {
	const body: IDataObject = {};
	const speed = oneOf('Speed', input.speed, ['normal', 'instant']);
	if (speed) body.speed = speed;
	const refundType = oneOf('Refund', input.refundType, REFUND_TYPES);
	if (refundType === 'full') return body;
	if (refundType !== 'partial') {
		throw new PeachInputError(
			'Refund',
			input.refundType,
			'is empty',
			'Choose Part of the Order (with an amount) or The Whole Order.',
		);
	}
	const empty = () =>
		new PeachInputError(
			'Amount (Minor Units)',
			input.amount,
			'is empty or zero',
			'Give the amount to refund in paise (12000 = ₹120.00), or choose Refund → The Whole Order to refund everything.',
		);
	if (!isSet(input.amount)) throw empty();
	const value = minorUnits('Amount (Minor Units)', input.amount);
	// "0.00", "00", "-0", " 0 ": zero in other words is zero too, never a refund of 0 on the wire.
	if (value <= 0) throw empty();
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
	body.amount = { currency, value };
	return body;
}

async function prepare(this: IExecuteFunctions, itemIndex: number): Promise<RefundPlan> {
	const refundType = this.getNodeParameter('refundType', itemIndex, 'partial');
	const partial = refundType === 'partial';
	return {
		orderId: orderIdOf(this, itemIndex),
		body: buildRefundBody({
			refundType,
			amount: partial ? this.getNodeParameter('amount', itemIndex, undefined) : undefined,
			currency: partial ? this.getNodeParameter('currency', itemIndex, 'INR') : undefined,
			speed: this.getNodeParameter('speed', itemIndex, 'normal'),
		}),
	};
}

/** Refunds of the same order go one after another, in input order. */
function recipientOf(plan: RefundPlan): string {
	return plan.orderId;
}

const post = postDelivery((plan: RefundPlan) => ({
	path: apiPath`/orders/${segment('Order ID', plan.orderId)}/refunds`,
	body: plan.body,
	notFound: { label: 'Order', id: plan.orderId },
}));

/**
 * Dry Run: the refund's exact request and, as a person checks it, the order and what would be
 * asked (`amount` in paise beside `amountRupees`, or `wholeOrder`). Nothing is read or refunded.
 */
async function preview(this: IExecuteFunctions, plan: RefundPlan): Promise<IDataObject> {
	return {
		wouldSend: post.wouldSend(plan),
		preview: omitEmpty({ order: plan.orderId, ...refundAsked(plan.body), speed: plan.body.speed }),
	};
}

async function deliver(
	this: IExecuteFunctions,
	plan: RefundPlan,
	itemIndex: number,
	permit: Parameters<typeof post>[2],
): Promise<IDataObject> {
	// Peach's answer last: a key it has too stays Peach's.
	return { ...refundAsked(plan.body), ...(await post.call(this, plan, itemIndex, permit)) };
}

/**
 * Order → Refund. Before a later try refunds again what the record cannot tell, the order's refunds
 * are asked, as Peach shows them (`peachWitness`). The refund names its order, not a `to`: the
 * output's first field is `order`. Peach refunds at once: a refund it took is `accepted` (not
 * `queued`, as a message is).
 */
export const refund: DeliveringOperation<RefundPlan> = {
	option,
	properties,
	delivers: true,
	prepare,
	recipientOf,
	preview,
	peachWitness: refundWitness,
	madeOnEvidence: true,
	deliver,
	recipientField: 'order',
	doneOutcome: 'accepted',
};
