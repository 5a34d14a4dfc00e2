import type { IDataObject } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { NEVER_ANSWERED, type RecordedRequest } from '../../../support/harness';
import {
	crashRetry,
	editorRetry,
	FakeDeduplicationStore,
	type Lineage,
	newExecution,
} from '../../../support/n8nRecovery';
import {
	type Answer,
	type Answers,
	ledgerCrash,
	ledgerTry,
	minutesLater,
	type OrderShape,
	PeachLedger,
} from '../../../support/peachLedger';
import { refund, serverError } from '../../../support/recoveryRuns';

/**
 * Attacks on issue 50's three changes (51442a9 madeOnEvidence, 3673ddf no summary for a single send,
 * 3c49f9c removing a finished record again without looking): each test states the promise (never
 * twice; nothing called sent that Peach never accepted; nothing never made left unnamed) and fails
 * where it is broken.
 */

const fifty = (orderId: string) => refund(orderId, 5000);

/** The refunds Peach made, per order (what reached it, answered or not). */
const refundsMade = (ledger: PeachLedger) =>
	Object.fromEntries(
		ledger.orders.map((order) => [order.id, (order.refunds as IDataObject[]).length]),
	);

/** Peach as the ledger, except that the refund requests in `lost` never reach it (a proxy's 500). */
function withLost(ledger: PeachLedger, lost: Set<string>): Answers {
	return {
		answer(request: RecordedRequest): Answer {
			const path = new URL(request.url).pathname;
			const match = /\/orders\/([^/]+)\/refunds$/.exec(path);
			if (request.options.method === 'POST' && match && lost.has(match[1])) {
				lost.delete(match[1]);
				return serverError;
			}
			return ledger.answer(request);
		},
	};
}

/** Until the row of the workflow's node holds at most `size` entries (a process removed them). */
async function untilRowAtMost(store: FakeDeduplicationStore, size: number): Promise<void> {
	for (let tries = 0; tries < 4000 && store.size() > size; tries++) await sleep(1);
	expect(store.size()).toBeLessThanOrEqual(size);
}

/**
 * A failed execution in process A: wa_ord_1 refunded, wa_ord_2's refund lost before Peach (a 500:
 * outcome unknown). n8n saves it failed at once.
 */
async function failedRefunds(shape: OrderShape) {
	const ledger = new PeachLedger(shape);
	for (const id of ['wa_ord_1', 'wa_ord_2']) ledger.order(id);
	const store = new FakeDeduplicationStore();
	const original = newExecution(store, { process: 'A' });
	const params = [fifty('wa_ord_1'), fifty('wa_ord_2')];
	const first = await ledgerTry(original, params, withLost(ledger, new Set(['wa_ord_2'])));
	expect(first.error?.httpCode).toBe('500');
	original.executions.ended(original.executionId, 1, 'failed');
	return { ledger, store, original, params, first };
}

describe("a Retry of a failed execution whose process has not yet let the execution's record go", () => {
	/**
	 * A Retry of a failed execution writes the failed try's names again (the same lineage); the
	 * process that ran the failed try removes those names once n8n saved it, whoever wrote them last.
	 * Interleaving: A runs E (refund 1 made, refund 2 lost: unknown), n8n saves E failed; the Retry R
	 * is pressed before A's look (1.5 s after the run, later under load) and runs on B: refund 2 is
	 * claimed, proven and requested; B is killed; A removes E's record: claim 1, its sent fact, the
	 * bucket's mark and claim 2, now R's. The crash's Retry finds nothing of the run in the store, but
	 * n8n created R with E's data, its node context included, and hands that back to the Retry of R's
	 * crash: refund 1 is known made, refund 2 unknown, and Peach shows R's refund of it.
	 */
	it('its worker is killed with a refund under way, then the record goes: the Retry of that crash refunds nothing twice', async () => {
		const { ledger, store, original, params } = await failedRefunds('refunds');
		// Pressed at once (an error workflow that retries through n8n's API), on another worker: the
		// failed try's refund of wa_ord_2 is unknown, 10 minutes old, and Peach shows no refund of it.
		const retry: Lineage = { ...editorRetry(minutesLater(original)), process: 'B' };
		ledger.next.push(NEVER_ANSWERED);
		await ledgerCrash(retry, params, ledger, 2);
		store.killed.add('B');
		expect(refundsMade(ledger)).toEqual({ wa_ord_1: 1, wa_ord_2: 1 });
		// Process A lets the failed execution's record go (n8n saved it failed): the entries it
		// removes by name are also the Retry's, which wrote the same names.
		await untilRowAtMost(store, 0);
		await ledgerTry({ ...crashRetry(retry), process: 'C' }, params, ledger);
		expect(refundsMade(ledger)).toEqual({ wa_ord_1: 1, wa_ord_2: 1 });
	}, 30_000);
});

describe("a Retry of a failed execution right after its process let the record go (3c49f9c's removals again)", () => {
	// The Retry writes the failed try's names again at once, on another worker, while A removes them
	// again for three proof waits; its worker is killed with wa_ord_2's refund under way. Where Peach
	// cannot tell, the Retry was told to send an unknown outcome again (the saved workflow's Retry);
	// the Retry of the crash is not.
	it.each(['documented', 'refunds'] as const)(
		'the Retry of the killed Retry refunds nothing twice and names what it cannot tell (Peach shows %s)',
		async (shape) => {
			const { ledger, store, original, params } = await failedRefunds(shape);
			await untilRowAtMost(store, 0);
			const retry: Lineage = { ...editorRetry(minutesLater(original)), process: 'B' };
			const resend = params.map((item) => ({ ...item, requestOptions: { resendUnknown: true } }));
			ledger.next.push(NEVER_ANSWERED);
			const killed = await ledgerCrash(retry, shape === 'refunds' ? params : resend, ledger, 2);
			expect(killed.requests.at(-1)?.options.method).toBe('POST');
			store.killed.add('B');
			await sleep(200);
			const again = await ledgerTry({ ...crashRetry(retry), process: 'C' }, params, ledger, true);
			expect(refundsMade(ledger)).toEqual({ wa_ord_1: 1, wa_ord_2: 1 });
			expect(again.output?.[0]).toHaveLength(2);
			for (const item of again.output?.[0] ?? [])
				expect(item.json.alreadySent ?? item.json.outcomeUnknown).toBeDefined();
		},
		30_000,
	);
});

/** A single refund of wa_ord_1 in a new execution, Peach answering `peach` (the ledger by default). */
async function singleRefund(
	shape: OrderShape,
	answers?: (ledger: PeachLedger) => Answers,
	store = new FakeDeduplicationStore(),
) {
	const ledger = new PeachLedger(shape);
	ledger.order('wa_ord_1');
	const original = newExecution(store);
	const params = [fifty('wa_ord_1')];
	const first = await ledgerTry(original, params, answers?.(ledger) ?? ledger);
	expect(first.error).toBeUndefined();
	return { ledger, store, original, params };
}

describe('a single refund, no run summary (3673ddf): the process killed after the node ran, before n8n saved', () => {
	it.each(['documented', 'refunds'] as const)(
		'its crash Retry and a Retry of that Retry refund nothing again (Peach shows %s)',
		async (shape) => {
			const { ledger, original, params } = await singleRefund(shape);
			const retry = crashRetry(original);
			const second = await ledgerTry(retry, params, ledger);
			expect(second.error).toBeUndefined();
			expect(second.output?.[0][0].json.alreadySent).toBeDefined();
			// That Retry's process dies too before n8n saved it.
			const third = await ledgerTry(crashRetry(retry), params, ledger);
			expect(third.error).toBeUndefined();
			expect(third.output?.[0][0].json.alreadySent).toBeDefined();
			expect(refundsMade(ledger)).toEqual({ wa_ord_1: 1 });
		},
		30_000,
	);

	it('with a row gained before the crash Retry: the refund made is not made again, the new one made or named unknown', async () => {
		const { ledger, original } = await singleRefund('documented');
		ledger.order('wa_ord_2');
		const retry = await ledgerTry(
			crashRetry(original),
			[fifty('wa_ord_1'), fifty('wa_ord_2')],
			ledger,
			true,
		);
		const [items] = retry.output ?? [[]];
		expect(items[0].json.alreadySent).toBeDefined();
		const made = refundsMade(ledger);
		expect(made.wa_ord_1).toBe(1);
		if (made.wa_ord_2 === 0) expect(items[1].json.outcomeUnknown).toBeDefined();
		else expect(made.wa_ord_2).toBe(1);
	}, 30_000);

	it("another worker's older copy drops the sent fact (no summary proves it): the crash Retry does not refund again", async () => {
		let copies = 0;
		const store = new FakeDeduplicationStore();
		const answers = (peach: PeachLedger): Answers => ({
			answer(request) {
				// Right after the refund, the next write (its sent fact) is undone by an older copy.
				if (request.options.method === 'POST') {
					copies++;
					store.rewritesFromOlderCopies = 1;
				}
				return peach.answer(request);
			},
		});
		const { ledger, original, params } = await singleRefund('documented', answers, store);
		expect(copies).toBe(1);
		expect(store.rewritesFromOlderCopies).toBe(0);
		const retry = await ledgerTry(crashRetry(original), params, ledger, true);
		// The claim without its outcome: Peach shows only {id, status}, so it cannot tell.
		expect(retry.output?.[0][0].json.outcomeUnknown).toBeDefined();
		expect(refundsMade(ledger)).toEqual({ wa_ord_1: 1 });
	}, 30_000);

	it('killed with the refund under way: its crash Retry and a Retry of that Retry name it unknown, never refund it', async () => {
		const ledger = new PeachLedger('documented');
		ledger.order('wa_ord_1');
		const original = newExecution(new FakeDeduplicationStore());
		const params = [fifty('wa_ord_1')];
		ledger.next.push(NEVER_ANSWERED);
		await ledgerCrash(original, params, ledger, 1);
		const retry = crashRetry(original);
		const second = await ledgerTry(retry, params, ledger, true);
		expect(second.output?.[0][0].json.outcomeUnknown).toBeDefined();
		const third = await ledgerTry(crashRetry(retry), params, ledger, true);
		expect(third.output?.[0][0].json.outcomeUnknown).toBeDefined();
		expect(refundsMade(ledger)).toEqual({ wa_ord_1: 1 });
	}, 30_000);
});

describe("n8n 1.x: a crash's Retry cannot find the record (a new execution and context), madeOnEvidence", () => {
	it.each(['documented', 'refunds'] as const)(
		'refunds made and under way are not refunded again (Peach shows %s)',
		async (shape) => {
			const ledger = new PeachLedger(shape);
			for (const id of ['wa_ord_1', 'wa_ord_2']) ledger.order(id);
			ledger.next.push({ statusCode: 201, body: { id: 'rfnd_1' } }, NEVER_ANSWERED);
			const original = newExecution(new FakeDeduplicationStore(), { n8nLine: 1 });
			const params = [fifty('wa_ord_1'), fifty('wa_ord_2')];
			await ledgerCrash(original, params, ledger, 2);
			const retry = await ledgerTry(
				{
					...crashRetry({ ...original, n8nLine: 1 }),
					establishedAt: (original.establishedAt ?? 0) + 60_000,
				},
				params,
				ledger,
				true,
			);
			expect(refundsMade(ledger)).toEqual({ wa_ord_1: 1, wa_ord_2: 1 });
			// Each is either shown by Peach (alreadySent) or named unknown: none silently skipped.
			for (const item of retry.output?.[0] ?? [])
				expect(item.json.alreadySent ?? item.json.outcomeUnknown).toBeDefined();
			expect(retry.output?.[0]).toHaveLength(2);
		},
		30_000,
	);
});
