import type { IDataObject, INodeExecutionData } from 'n8n-workflow';
import { describe, expect, it, vi } from 'vitest';

import { locator, NEVER_ANSWERED, type RecordedRequest } from '../../../support/harness';
import {
	crashRetry,
	editorRetry,
	FakeDeduplicationStore,
	newExecution,
} from '../../../support/n8nRecovery';
import {
	asked,
	crashedExecution,
	ledgerTry,
	type OrderShape,
	PeachLedger,
} from '../../../support/peachLedger';
import { refund, refused } from '../../../support/recoveryRuns';

/**
 * What moves money or launches is never made on the absence of evidence (madeOnEvidence): in a
 * crash's Retry, a delivery the record shows nothing of, in a run it shows other entries of (another
 * process's older copy may have cut it), is made only where Peach clearly shows none.
 */

const fifty = (orderId: string) => refund(orderId, 5000);
const trigger = (phoneNumber: string) => ({
	resource: 'automation',
	operation: 'trigger',
	automationId: locator('strm_1'),
	phoneNumber,
	payloadInput: 'fields',
	payload: { values: [] },
});

const posts = (result: Awaited<ReturnType<typeof ledgerTry>>) =>
	asked(result).filter((request) => request.startsWith('POST'));
const unknownOf = (result: Awaited<ReturnType<typeof ledgerTry>>) =>
	(result.error?.context?.outcomeUnknown ?? []) as IDataObject[];

/**
 * A crashed execution that refunded wa_ord_1 and had wa_ord_2's refund under way, retried with
 * wa_ord_3 in wa_ord_2's place: the store shows the run, and nothing of wa_ord_3.
 */
async function refundNotShown(shape: OrderShape) {
	const ledger = new PeachLedger(shape);
	for (const id of ['wa_ord_1', 'wa_ord_2', 'wa_ord_3']) ledger.order(id);
	ledger.next.push({ statusCode: 201, body: { id: 'rfnd_1' } }, NEVER_ANSWERED);
	const original = await crashedExecution(ledger, [fifty('wa_ord_1'), fifty('wa_ord_2')], 2);
	const retry = await ledgerTry(
		crashRetry(original),
		[fifty('wa_ord_1'), fifty('wa_ord_3')],
		ledger,
	);
	return { ledger, retry };
}

describe('a crash Retry of a refund the record shows nothing of, in a run it shows', () => {
	it('Peach shows only the documented id and status: outcomeUnknown, not refunded', async () => {
		const { ledger, retry } = await refundNotShown('documented');
		expect(posts(retry)).toEqual([]);
		expect(unknownOf(retry)).toEqual([{ item: 1, recipient: 'wa_ord_3' }]);
		expect(retry.error?.description).toContain(
			"n8n's record of this execution shows nothing of it",
		);
		expect(ledger.orders.map((order) => (order.refunds as IDataObject[]).length)).toEqual([
			1, 1, 0,
		]);
	});

	it("Peach clearly shows the order's refunds, none of this one: refunded once", async () => {
		const { ledger, retry } = await refundNotShown('refunds');
		expect(posts(retry)).toEqual(['POST /orders/wa_ord_3/refunds']);
		expect(retry.error).toBeUndefined();
		expect(ledger.orders.map((order) => (order.refunds as IDataObject[]).length)).toEqual([
			1, 1, 1,
		]);
	});

	/** A failed execution: wa_ord_1 refunded, wa_ord_2's refund refused by Peach (a 422). */
	async function refusedRefund(shape: OrderShape) {
		const ledger = new PeachLedger(shape);
		for (const id of ['wa_ord_1', 'wa_ord_2']) ledger.order(id);
		const params = [fifty('wa_ord_1'), fifty('wa_ord_2')];
		const original = newExecution();
		// Peach refuses the refund of wa_ord_2 (it makes none).
		const refusing = {
			answer: (request: RecordedRequest) =>
				request.options.method === 'POST' && request.url.endsWith('/orders/wa_ord_2/refunds')
					? refused
					: ledger.answer(request),
		};
		const first = await ledgerTry(original, params, refusing);
		expect(first.error?.httpCode).toBe('422');
		return { ledger, params, original };
	}

	it('the Retry of a failed execution whose record n8n let go: the refused refund is refunded', async () => {
		const { ledger, params, original } = await refusedRefund('documented');
		original.executions.ended(original.executionId, 1, 'failed');
		await vi.waitFor(() => expect(original.store.size()).toBe(0), { timeout: 10_000 });
		const retry = await ledgerTry(editorRetry(original), params, ledger);
		expect(posts(retry)).toEqual(['POST /orders/wa_ord_2/refunds']);
		expect(retry.error).toBeUndefined();
		const [items] = retry.output as INodeExecutionData[][];
		expect(items[0].json.alreadySent).toBeDefined();
	});

	it("the Retry of a failed execution whose record is still in n8n's store: the refused refund needs Peach's evidence", async () => {
		// The failed try's context knows it was refused, but a crashed Retry of it (whose own context n8n
		// does not keep) may have refunded it since: Peach decides, else outcomeUnknown.
		const documented = await refusedRefund('documented');
		const unsure = await ledgerTry(
			editorRetry(documented.original),
			documented.params,
			documented.ledger,
		);
		expect(posts(unsure)).toEqual([]);
		expect(unknownOf(unsure)).toEqual([{ item: 1, recipient: 'wa_ord_2' }]);
		const shown = await refusedRefund('refunds');
		const clear = await ledgerTry(editorRetry(shown.original), shown.params, shown.ledger);
		expect(posts(clear)).toEqual(['POST /orders/wa_ord_2/refunds']);
		expect(clear.error).toBeUndefined();
	});
});

describe('a crash Retry of an automation run the record shows nothing of (Peach lists no runs)', () => {
	it('outcomeUnknown, not triggered; the run the record shows is not triggered again either', async () => {
		const ledger = new PeachLedger();
		ledger.next.push(
			{ statusCode: 200, body: { status: 'success', event_id: 'evt_t1' } },
			NEVER_ANSWERED,
		);
		const original = await crashedExecution(
			ledger,
			[trigger('+919900000001'), trigger('+919900000002')],
			2,
		);
		const retry = await ledgerTry(
			crashRetry(original),
			[trigger('+919900000001'), trigger('+919900000003')],
			ledger,
		);
		expect(posts(retry)).toEqual([]);
		expect(unknownOf(retry)).toEqual([{ item: 1, recipient: '+919900000003' }]);
		expect(retry.error?.description).toContain('Peach lists nothing of such deliveries');
	});

	it('a crash Retry whose store shows nothing of the run: the run was never claimed, so it is triggered', async () => {
		const ledger = new PeachLedger();
		// The process died before the node ran.
		const original = newExecution(new FakeDeduplicationStore());
		const retry = await ledgerTry(crashRetry(original), [trigger('+919900000001')], ledger);
		expect(posts(retry)).toEqual(['POST /streams/strm_1/events']);
		expect(retry.error).toBeUndefined();
	});
});
