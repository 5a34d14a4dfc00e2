import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { isPlainObject } from '../../helpers/json';
import type { PeachWitness } from '../operation/node.type';
import { createdAtOf, nearStart } from '../../helpers/time';
import { amountOf, findOrder, refundAsked, type RefundPlan, rupees } from './shared';

/**
 * Order → Refund's witness: before a later try refunds an order whose earlier refund the record
 * cannot tell, the order is read (`GET /orders/{orderId}`, docs/peach-api.md 7.2, whose answer is cut off
 * after `id` and `status`), once per order. Every shape a careful reading allows is read, none
 * invented as the one:
 * 1. a list of refunds (`refunds`, `payment.refunds`, `order_refunds`, `refund_details`), each with
 *    its amount (`amount` as a number or `{currency, value}` as the refund request has it, `value`,
 *    `amount_value`, `refund_amount`), status and date (`created_at`, `createdAt`, `initiated_at`,
 *    `inserted_at`): a refund of this amount made since the execution began is this one; one
 *    without a readable amount or date that could be it leaves Peach unable to tell;
 * 2. a refunded amount (`refunded_amount`, `amount_refunded`, `refunded`, `total_refunded`,
 *    `refunded_total`): 0 clearly shows none; more does not say which refunds or when;
 * 3. a status: `refunded` (or `fully_refunded`) shows a whole-order refund; any other refund status
 *    (`partially_refunded`, `refund_pending` …) does not say which;
 * anything else (the documented `{id, status}` alone): Peach cannot tell.
 */

/** A refund Peach shows on an order, or (`wholeOrder`) the order shown refunded in full. */
interface SeenRefund {
	json: IDataObject;
	/** Its amount in minor units; undefined where the node cannot read it. */
	amount?: number;
	/** When it was made (ms); undefined where Peach does not say. */
	at?: number;
	wholeOrder?: true;
	/** Dated so near the execution's start that it may be an earlier execution's refund. */
	nearStart?: true;
}

const REFUND_LISTS = [['refunds'], ['payment', 'refunds'], ['order_refunds'], ['refund_details']];
const REFUND_AMOUNTS = ['amount', 'value', 'amount_value', 'refund_amount'];
const REFUNDED_TOTALS = [
	'refunded_amount',
	'amount_refunded',
	'refunded',
	'total_refunded',
	'refunded_total',
];
const FULLY_REFUNDED = ['refunded', 'fully_refunded'];

function refundListOf(order: IDataObject): IDataObject[] | undefined {
	for (const path of REFUND_LISTS) {
		let value: unknown = order;
		for (const key of path) value = isPlainObject(value) ? value[key] : undefined;
		if (Array.isArray(value)) return value.filter(isPlainObject);
	}
	return undefined;
}

function seenRefund(entry: IDataObject): SeenRefund {
	const field = REFUND_AMOUNTS.find((key) => entry[key] !== undefined && entry[key] !== null);
	return {
		json: entry,
		amount: field === undefined ? undefined : amountOf(entry[field]),
		at: createdAtOf(entry),
	};
}

/** What the order shows of its refunds since `since`, or why it cannot tell. Pure. */
export function refundsShown(
	orderId: string,
	order: IDataObject,
	since: number,
): SeenRefund[] | { cannotTell: string } {
	const list = refundListOf(order);
	if (list)
		return list
			.map(seenRefund)
			.filter((refund) => refund.at === undefined || refund.at >= since)
			.map((refund) =>
				refund.at !== undefined && nearStart(refund.at, since)
					? { ...refund, nearStart: true as const }
					: refund,
			);
	const total = REFUNDED_TOTALS.find((key) => order[key] !== undefined && order[key] !== null);
	if (total !== undefined) {
		const refunded = amountOf(order[total]);
		if (refunded === 0) return [];
		return {
			cannotTell: `Peach shows ${refunded === undefined ? `"${String(order[total])}"` : rupees(refunded)} refunded on order ${orderId} in all (${total}), not each refund and when it was made.`,
		};
	}
	const status = typeof order.status === 'string' ? order.status.toLowerCase() : '';
	if (FULLY_REFUNDED.includes(status))
		return [{ json: { id: order.id ?? orderId, status: order.status }, wholeOrder: true }];
	if (status.includes('refund'))
		return {
			cannotTell: `Peach shows order ${orderId} as ${String(order.status)}, not its refunds.`,
		};
	return {
		cannotTell: `Peach's order ${orderId} shows no refunds, refunded amount or refund status the node can read (Peach documents only its id and status).`,
	};
}

/** Whether a refund Peach shows is this one: true, false, or why it cannot tell. Pure. */
export function isThisRefund(plan: RefundPlan, seen: SeenRefund): boolean | string {
	const asked = amountOf(plan.body.amount);
	if (seen.wholeOrder)
		return asked === undefined
			? true
			: `Peach shows order ${plan.orderId} as refunded in full, not its refunds.`;
	if (asked !== undefined) {
		if (seen.amount === undefined)
			return `Peach shows a refund on order ${plan.orderId} whose amount the node cannot read.`;
		if (seen.amount !== asked) return false;
	}
	if (seen.nearStart)
		return `Peach shows a refund${seen.amount === undefined ? '' : ` of ${rupees(seen.amount)}`} on order ${plan.orderId} made within a minute of when this execution began: it may be an earlier execution's.`;
	if (seen.at === undefined)
		return `Peach does not say when its refund${seen.amount === undefined ? '' : ` of ${rupees(seen.amount)}`} on order ${plan.orderId} was made.`;
	return true;
}

export const refundWitness: PeachWitness<RefundPlan, SeenRefund> = {
	sourceOf: (plan) => ({ source: plan.orderId }),
	async read(this: IExecuteFunctions, orderId: string, since: number) {
		const order = await findOrder(this, orderId);
		if (!order) return { cannotTell: `Peach has no order ${orderId}.` };
		return refundsShown(orderId, order, since);
	},
	matches: isThisRefund,
	shown(plan, seen) {
		const what = seen.wholeOrder
			? 'the order as refunded in full'
			: `a refund${seen.amount === undefined ? '' : ` of ${rupees(seen.amount)}`}`;
		const { id, status } = seen.json;
		const ids =
			typeof id === 'string' || typeof id === 'number'
				? ` (${id}${typeof status === 'string' ? `, ${status}` : ''})`
				: '';
		return {
			json: { ...refundAsked(plan.body), ...seen.json, order: plan.orderId },
			note: `Not refunded again: Peach shows ${what} on order ${plan.orderId}${seen.wholeOrder ? '' : ' since the execution began'}${ids}, and n8n's record did not show this refund's outcome.`,
		};
	},
};
