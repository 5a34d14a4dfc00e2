import type { IDataObject, INodeExecutionData } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { isThisRefund, refundsShown } from '../../../../nodes/Peach/actions/order/refund.witness';
import { NEVER_ANSWERED, type RecordedRequest } from '../../support/harness';
import { crashRetry, editorRetry, newExecution } from '../../support/n8nRecovery';
import {
	asked,
	minutesLater,
	crashedExecution,
	ledgerTry,
	type OrderShape,
	PeachLedger,
	unknownThenRetry,
} from '../../support/peachLedger';
import { refund, serverError } from '../../support/recoveryRuns';

/**
 * Order → Refund with Peach as witness: before a Retry refunds an order whose earlier refund's
 * outcome is unknown, the order is read once and Peach decides where it can tell.
 */

/** A refund of ₹50.00 of order `orderId`. */
const fifty = (orderId: string) => refund(orderId, 5000);

const SINCE = Date.parse('2026-03-01T10:00:00Z');
const plan = (amount?: number) => ({
	orderId: 'wa_ord_1',
	body: amount === undefined ? {} : { amount: { currency: 'INR', value: amount } },
});

/** A first try whose refund of wa_ord_1 Peach made but answered with a 500, then the editor's Retry. */
async function refundUnknownThenRetry(shape: OrderShape) {
	const ledger = new PeachLedger(shape);
	ledger.order('wa_ord_1');
	return { ledger, ...(await unknownThenRetry(ledger, [fifty('wa_ord_1')])) };
}

// 7.2: the section of Peach's API reference (docs/peach-api.md) on reading an order; it is cut off before
// it says how an order shows its refunds, so every shape Peach may answer with is read.
describe('the shapes of an order Peach may show (7.2 is cut off): each read, none invented', () => {
	it.each<[string, IDataObject, string]>([
		[
			'a list of refunds with {currency, value} amounts',
			{
				refunds: [
					{
						id: 'r1',
						amount: { currency: 'INR', value: 5000 },
						created_at: '2026-03-01T10:05:00Z',
					},
				],
			},
			'shown',
		],
		[
			'a list of refunds with a number amount',
			{ refunds: [{ id: 'r1', amount: 5000, createdAt: '2026-03-01T10:05:00Z' }] },
			'shown',
		],
		[
			'a list of refunds with value',
			{ refunds: [{ id: 'r1', value: 5000, initiated_at: '2026-03-01T10:05:00Z' }] },
			'shown',
		],
		[
			'refunds under payment.refunds',
			{
				payment: {
					refunds: [{ id: 'r1', refund_amount: '5000', created_at: '2026-03-01T10:05:00Z' }],
				},
			},
			'shown',
		],
		['an empty list of refunds', { refunds: [] }, 'absent'],
		[
			'a refund of another amount',
			{ refunds: [{ id: 'r1', value: 7000, created_at: '2026-03-01T10:05:00Z' }] },
			'absent',
		],
		[
			'a refund of this amount made before the execution began',
			{ refunds: [{ id: 'r1', value: 5000, created_at: '2026-02-01T10:05:00Z' }] },
			'absent',
		],
		[
			'a refund of this amount without a date',
			{ refunds: [{ id: 'r1', value: 5000 }] },
			'cannotTell',
		],
		[
			'a refund whose amount is unreadable',
			{ refunds: [{ id: 'r1', amount: 'fifty', created_at: '2026-03-01T10:05:00Z' }] },
			'cannotTell',
		],
		['refunded_amount 0', { refunded_amount: 0 }, 'absent'],
		['amount_refunded {value: 0}', { amount_refunded: { value: 0 } }, 'absent'],
		['refunded_amount above 0', { refunded_amount: 5000 }, 'cannotTell'],
		['status partially_refunded', { status: 'partially_refunded' }, 'cannotTell'],
		['status refunded (a partial refund asked)', { status: 'refunded' }, 'cannotTell'],
		['the documented {id, status} alone', { status: 'completed' }, 'cannotTell'],
	])('%s', (_, fields, verdict) => {
		const seen = refundsShown(
			'wa_ord_1',
			{ id: 'wa_ord_1', status: 'completed', ...fields },
			SINCE,
		);
		if (!Array.isArray(seen)) return expect(verdict).toBe('cannotTell');
		const verdicts = seen.map((item) => isThisRefund(plan(5000), item));
		if (verdicts.some((item) => typeof item === 'string'))
			return expect(verdict).toBe('cannotTell');
		expect(verdicts.includes(true) ? 'shown' : 'absent').toBe(verdict);
	});

	it('a whole-order refund: status refunded shows it; any refund since the execution began is it', () => {
		const [whole] = refundsShown(
			'wa_ord_1',
			{ id: 'wa_ord_1', status: 'refunded' },
			SINCE,
		) as never[];
		expect(isThisRefund(plan(), whole)).toBe(true);
		const [since] = refundsShown(
			'wa_ord_1',
			{ refunds: [{ id: 'r1', value: 30000, created_at: '2026-03-01T10:05:00Z' }] },
			SINCE,
		) as never[];
		expect(isThisRefund(plan(), since)).toBe(true);
	});
});

describe('a Retry of a refund whose outcome is unknown', () => {
	it('Peach shows a refund of this amount: alreadySent with what Peach shows; the order read once, nothing refunded again', async () => {
		const { ledger, retry, items } = await refundUnknownThenRetry('refunds');
		expect(asked(retry)).toEqual(['GET /orders/wa_ord_1']);
		expect(ledger.orders[0].refunds).toHaveLength(1);
		expect(items[0].json).toMatchObject({
			id: 'rfnd_1',
			value: 5000,
			status: 'processing',
			order: 'wa_ord_1',
			amount: 5000,
			amountRupees: '₹50.00',
			currency: 'INR',
			alreadySent: {
				recipient: 'wa_ord_1',
				peach: { id: 'rfnd_1', status: 'processing' },
				note: "Not refunded again: Peach shows a refund of ₹50.00 on order wa_ord_1 since the execution began (rfnd_1, processing), and n8n's record did not show this refund's outcome.",
			},
		});
		expect(items[0].error).toBeUndefined();
	});

	it('Peach clearly shows none (refunded amount 0): the refund is made, once', async () => {
		const ledger = new PeachLedger('refunded amount');
		ledger.order('wa_ord_1');
		// Peach did not make it: a 500 before it did anything.
		const original = newExecution();
		const first = await ledgerTry(original, [fifty('wa_ord_1')], {
			answer: (request: RecordedRequest) =>
				request.options.method === 'POST' ? serverError : ledger.answer(request),
		});
		expect(first.error?.httpCode).toBe('500');
		const retry = await ledgerTry(editorRetry(minutesLater(original)), [fifty('wa_ord_1')], ledger);
		expect(asked(retry)).toEqual(['GET /orders/wa_ord_1', 'POST /orders/wa_ord_1/refunds']);
		expect(retry.error).toBeUndefined();
		expect((retry.output as INodeExecutionData[][])[0][0].json).toMatchObject({ id: 'rfnd_1' });
	});

	it('Peach shows none yet, the earlier request ended just now (Retry On Fail): not refunded again', async () => {
		const ledger = new PeachLedger('refunded amount');
		ledger.order('wa_ord_1');
		const original = newExecution();
		await ledgerTry(original, [fifty('wa_ord_1')], { answer: () => serverError });
		const retry = await ledgerTry(editorRetry(original), [fifty('wa_ord_1')], ledger, true);
		expect(asked(retry)).toEqual(['GET /orders/wa_ord_1']);
		const [[item]] = retry.output as INodeExecutionData[][];
		expect(String((item.json.outcomeUnknown as IDataObject).reason)).toContain(
			'Peach may still be processing it',
		);
	});

	it.each<[string, OrderShape]>([
		['the documented {id, status}', 'documented'],
		['a refunded amount above 0', 'refunded amount'],
		['a status "refunded"', 'status'],
	])('Peach cannot tell (%s): outcomeUnknown, named, nothing refunded again', async (_, shape) => {
		const { ledger, retry, items } = await refundUnknownThenRetry(shape);
		expect(asked(retry)).toEqual(['GET /orders/wa_ord_1']);
		expect(ledger.orders[0].refunds).toHaveLength(1);
		expect(items[0].json.outcomeUnknown).toMatchObject({ recipient: 'wa_ord_1' });
		expect(String((items[0].json.outcomeUnknown as IDataObject).reason)).toMatch(
			/Peach('s order| shows)/,
		);
	});

	it('two refunds of one order, one unknown: one read; the one the record knows takes its refund first', async () => {
		const params = [fifty('wa_ord_1'), fifty('wa_ord_1')];
		const ledger = new PeachLedger('refunds');
		ledger.order('wa_ord_1');
		ledger.next.push({ statusCode: 201, body: { id: 'rfnd_1' } }, serverError);
		const original = newExecution();
		await ledgerTry(original, params, ledger);
		expect(ledger.orders[0].refunds).toHaveLength(2);
		const retry = await ledgerTry(editorRetry(original), params, ledger, true);
		expect(asked(retry)).toEqual(['GET /orders/wa_ord_1']);
		const [items] = retry.output as INodeExecutionData[][];
		expect(items.map((item) => (item.json.alreadySent as IDataObject)?.peach)).toEqual([
			undefined,
			{ id: 'rfnd_2', status: 'processing' },
		]);
		expect(ledger.orders[0].refunds).toHaveLength(2);
	});

	it('a refund the record knows made that Peach does not show: the unknown one cannot be told', async () => {
		const params = [fifty('wa_ord_1'), fifty('wa_ord_1')];
		const ledger = new PeachLedger((order) => ({ ...order, refunds: [] }));
		ledger.order('wa_ord_1');
		ledger.next.push({ statusCode: 201, body: { id: 'rfnd_1' } }, serverError);
		const original = newExecution();
		await ledgerTry(original, params, ledger);
		const retry = await ledgerTry(editorRetry(original), params, ledger, true);
		const [items] = retry.output as INodeExecutionData[][];
		expect(String((items[1].json.outcomeUnknown as IDataObject).reason)).toContain(
			"Peach does not show one that n8n's record says was made",
		);
	});

	it('the order cannot be read: outcomeUnknown, not made again even when asked to resend unknowns', async () => {
		const ledger = new PeachLedger('refunds');
		ledger.order('wa_ord_1');
		ledger.next.push(serverError);
		const original = newExecution();
		await ledgerTry(original, [fifty('wa_ord_1')], ledger);
		const params = [{ ...fifty('wa_ord_1'), requestOptions: { resendUnknown: true } }];
		const retry = await ledgerTry(
			editorRetry(original),
			params,
			{
				answer: () => serverError,
			},
			true,
		);
		expect(asked(retry)).toEqual(['GET /orders/wa_ord_1']);
		const [items] = retry.output as INodeExecutionData[][];
		expect(String((items[0].json.outcomeUnknown as IDataObject).reason)).toContain(
			'Peach could not be read',
		);
	});
});

describe('the Retry of a crashed execution (the refund under way when the worker died)', () => {
	it('Peach shows it: alreadySent, never refunded twice; a second Retry asks again and refunds nothing', async () => {
		const ledger = new PeachLedger('refunds');
		ledger.order('wa_ord_1');
		ledger.order('wa_ord_2');
		ledger.next.push({ statusCode: 201, body: { id: 'rfnd_1' } }, NEVER_ANSWERED);
		const params = [fifty('wa_ord_1'), fifty('wa_ord_2')];
		const original = await crashedExecution(ledger, params, 2);
		const retry = await ledgerTry(crashRetry(original), params, ledger);
		expect(asked(retry)).toEqual(['GET /orders/wa_ord_2']);
		expect(retry.error).toBeUndefined();
		const [items] = retry.output as INodeExecutionData[][];
		expect((items[1].json.alreadySent as IDataObject).peach).toEqual({
			id: 'rfnd_1',
			status: 'processing',
		});
		const again = await ledgerTry(crashRetry(original), params, ledger);
		expect(asked(again).filter((request) => request.startsWith('POST'))).toEqual([]);
		expect(ledger.orders.map((order) => (order.refunds as IDataObject[]).length)).toEqual([1, 1]);
	});

	it('Peach shows none of it yet: outcomeUnknown, not refunded again (nothing says when the request was made)', async () => {
		const ledger = new PeachLedger('refunds');
		ledger.order('wa_ord_1');
		ledger.next.push(NEVER_ANSWERED);
		const params = [fifty('wa_ord_1')];
		const original = await crashedExecution(ledger, params, 1);
		// Peach has not processed the request under way when the worker died (or never got it).
		(ledger.orders[0].refunds as IDataObject[]).length = 0;
		const retry = await ledgerTry(crashRetry(original), params, ledger);
		expect(asked(retry)).toEqual(['GET /orders/wa_ord_1']);
		const unknown = (retry.error?.context?.outcomeUnknown ?? []) as IDataObject[];
		expect(unknown).toEqual([{ item: 0, recipient: 'wa_ord_1' }]);
		expect(retry.error?.description).toContain(
			'Peach shows none of it yet, but nothing says when the request was made',
		);
		expect(ledger.orders[0].refunds).toEqual([]);
	});
});
