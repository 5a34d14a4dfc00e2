import type { IDataObject, INodeExecutionData } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';
import { describe, expect, it, vi } from 'vitest';

import {
	crashRetry,
	FakeDeduplicationStore,
	type Lineage,
	newExecution,
} from '../../../support/n8nRecovery';
import { FakePeachList } from '../../../support/peachList';
import { afterProofs } from '../../../support/proofWaitMs';
import {
	answersFor,
	crashingTry,
	messagesPerPhone,
	phoneOf,
	phones,
	refused,
	runTry,
	send,
	refundsInTurn,
	sends,
	type TryResult,
	twice,
} from '../../../support/recoveryRuns';

/**
 * Never twice, by design (issue 43): n8n's deduplication store modelled as n8n 2.40 keeps it (one row
 * per node, rewritten whole on every call, with no lock; another worker's older copy; a process that
 * dies without cleaning up; n8n saving and letting an execution go), Peach's own list of what it
 * queued, and the cases that sent messages twice or lost them before: each test failed on the
 * design it replaces (5eda9e9 … 7534eb7).
 */

const concurrency = (items: Array<Record<string, unknown>>, width: number) =>
	items.map((item) => ({ ...item, requestOptions: { concurrency: width } }));

/** What the outputs of a run say of each item: sent now, sent before, unknown. */
function outcomesOf(result: TryResult) {
	const items = (result.output?.[0] ?? []) as INodeExecutionData[];
	const of = (test: (json: IDataObject) => boolean) =>
		items.filter((item) => test(item.json)).map((item) => item.json);
	return {
		sentNow: of((json) => json.event_id !== undefined && json.alreadySent === undefined),
		alreadySent: of((json) => json.alreadySent !== undefined),
		unknown: of((json) => json.outcomeUnknown !== undefined),
	};
}

const recipientOf = (json: IDataObject) =>
	((json.alreadySent ?? json.outcomeUnknown) as IDataObject).recipient as string;

/** Per phone, the messages Peach queued (accepted, or received before the process died). */
function queuedPerPhone(lineage: Lineage): Map<string, number> {
	const counts = new Map<string, number>();
	for (const message of lineage.peach.messages) {
		const phone = String(message.phone_number);
		counts.set(phone, (counts.get(phone) ?? 0) + 1);
	}
	return counts;
}

/**
 * Another run of the node in this process (in another workflow): the moment the process looks at
 * the executions whose records it holds (lifetime.ts).
 */
async function anotherRun(): Promise<void> {
	await runTry(
		newExecution(new FakeDeduplicationStore(), { workflowId: 'wf-elsewhere' }),
		[send('+10000000000')],
		answersFor(1),
	);
}

/** Runs of the node elsewhere, until the process has looked at these executions `times` more. */
async function looked(lineage: Lineage, executionIds: string[]): Promise<void> {
	const { reads } = lineage.executions;
	const before = executionIds.map((id) => reads.get(id) ?? 0);
	const seen = () => executionIds.every((id, index) => (reads.get(id) ?? 0) > before[index]);
	for (let tries = 0; tries < 700 && !seen(); tries++) {
		await sleep(100);
		await anotherRun();
	}
	expect(seen()).toBe(true);
	// What it decided is written in its turn on the store.
	await sleep(50);
}

/** n8n saved these executions (they ended); the process then looked at them. */
async function saved(
	lineage: Lineage,
	executionIds: string[],
	runs = 1,
	how: 'succeeded' | 'failed' = 'succeeded',
) {
	for (const id of executionIds) lineage.executions.ended(id, runs, how);
	await looked(lineage, executionIds);
}

describe('Loop Over Items: every batch is a run of the node in one execution', () => {
	const all = phones(3000);
	const batch = (index: number) =>
		concurrency(
			all.slice(index * 100, index * 100 + 100).map((phone) => send(phone)),
			5,
		);

	/** 3,000 contacts in batches of 100; the process dies with 5 sends under way in batch 29. */
	async function crashedLoop(execution: Lineage): Promise<TryResult[]> {
		const tries: TryResult[] = [];
		for (let index = 0; index < 29; index++)
			tries.push(await runTry({ ...execution, runIndex: index }, batch(index), answersFor(100)));
		tries.push(await crashingTry({ ...execution, runIndex: 29 }, batch(29), 0, 5));
		return tries;
	}

	/** A Retry of the crashed execution: every batch again, in one execution. */
	async function retryLoop(
		retry: Lineage,
		options: { continueOnFail?: boolean } = {},
	): Promise<TryResult[]> {
		const retried: TryResult[] = [];
		for (let index = 0; index < 30; index++) {
			const result = await runTry(
				{ ...retry, runIndex: index },
				batch(index),
				answersFor(100),
				options,
			);
			retried.push(result);
			// Without Continue On Fail, the loop stops at the batch whose run failed.
			if (result.error) break;
		}
		return retried;
	}

	it('a crash at 2,900 sends, an ordinary run, a failed Retry let go: a second Retry sends nothing twice', async () => {
		// The Retry fails on what was under way, n8n saves it and lets it go; README's way on sends the rest
		// once.
		const store = new FakeDeduplicationStore();
		const execution = newExecution(store);
		// What was under way never reached Peach: the Retry cannot resolve it and fails there.
		execution.peach.unansweredReachPeach = false;
		const crashed = await crashedLoop(execution);
		const other = newExecution(store, { executions: execution.executions });
		await runTry(other, [send(phones(1, 9000)[0])], answersFor(1));

		const first = crashRetry(execution);
		const firstRuns = await retryLoop(first);
		expect(firstRuns[29].error?.message).toMatch(/^The outcome of item 0 \(.+\) is unknown/);
		// n8n saves the failed Retry and the ordinary execution; the process looks and lets them go.
		await saved(execution, [other.executionId]);
		await saved(execution, [first.executionId], 30, 'failed');

		const second = crashRetry(execution);
		const secondRuns = await retryLoop(second);
		expect(twice(messagesPerPhone(...crashed, ...firstRuns, ...secondRuns))).toEqual([]);
		expect(secondRuns.slice(0, 29).every((run) => outcomesOf(run).alreadySent.length === 100)).toBe(
			true,
		);
		expect(secondRuns[29].error?.message).toMatch(/is unknown/);

		// README's way on: On Error → Continue (using error output), then Retry again.
		const third = await retryLoop(crashRetry(execution), { continueOnFail: true });
		const counts = messagesPerPhone(...crashed, ...firstRuns, ...secondRuns, ...third);
		expect(twice(counts)).toEqual([]);
		expect(counts.size).toBe(3000);
		// The first Retry sent the rest of the batch before it failed on what was under way.
		expect(outcomesOf(third[29]).unknown).toHaveLength(5);
		expect(outcomesOf(third[29]).alreadySent).toHaveLength(95);
		expect(store.trimmed).toBe(0);
	}, 120_000);

	it("what was under way reached Peach: the Retry finds it in Peach's list, resolves it as sent, and ends in success", async () => {
		const execution = newExecution(new FakeDeduplicationStore());
		const crashed = await crashedLoop(execution);
		const retried = await retryLoop(crashRetry(execution));
		expect(retried.every((run) => run.error === undefined)).toBe(true);
		expect(twice(messagesPerPhone(...crashed, ...retried))).toEqual([]);
		expect([...queuedPerPhone(execution).values()].every((count) => count === 1)).toBe(true);
		expect(queuedPerPhone(execution).size).toBe(3000);
		const last = outcomesOf(retried[29]);
		expect(last.alreadySent).toHaveLength(5);
		expect(last.sentNow).toHaveLength(95);
		// Peach was read once for the whole Retry (its 30 runs), not per batch.
		expect(execution.peach.reads.length).toBeLessThanOrEqual(4);
	}, 120_000);
});

describe('a retired record answers every later Retry', () => {
	const batch = (index: number) =>
		concurrency(
			phones(40, index * 40 + 1).map((phone) => send(phone)),
			5,
		);

	async function loop(lineage: Lineage, runs: number, responses = answersFor(40)) {
		const results: TryResult[] = [];
		for (let index = 0; index < runs; index++)
			results.push(await runTry({ ...lineage, runIndex: index }, batch(index), responses));
		return results;
	}

	it('a Retry that succeeded is let go (retired); the next Retry of the crashed loop sends none of its batches', async () => {
		// None of its 4 batches again, nor the one after it.
		const store = new FakeDeduplicationStore();
		const execution = newExecution(store);
		const crashed = [
			...(await loop(execution, 3)),
			await crashingTry({ ...execution, runIndex: 3 }, batch(3), 0, 5),
		];
		const first = crashRetry(execution);
		const firstRuns = await loop(first, 4);
		expect(firstRuns.every((run) => run.error === undefined)).toBe(true);
		await saved(execution, [first.executionId], 4);

		// The first batch of this Retry finds `retired` and sends everything: later batches still find it.
		const second = crashRetry(execution);
		const secondRuns = await loop(second, 4, []);
		await saved(execution, [second.executionId], 4);
		const third = await loop(crashRetry(execution), 4, []);
		const all = [...crashed, ...firstRuns, ...secondRuns, ...third];
		expect(twice(messagesPerPhone(...all))).toEqual([]);
		expect([...secondRuns, ...third].flatMap((run) => run.requests)).toEqual([]);
		expect([...secondRuns, ...third].map((run) => outcomesOf(run).alreadySent.length)).toEqual(
			Array.from({ length: 8 }, () => 40),
		);
	}, 60_000);
});

describe('a delivery is named by what it sends', () => {
	async function crashThenRetry(
		before: Array<Record<string, unknown>>,
		after: Array<Record<string, unknown>>,
		answered: number,
		peach: FakePeachList = new FakePeachList(),
	) {
		const execution = newExecution(new FakeDeduplicationStore());
		execution.peach = peach;
		peach.unansweredReachPeach = false;
		const crashed = await crashingTry(execution, concurrency(before, 5), answered, 5);
		const retry = await runTry(
			crashRetry(execution),
			concurrency(after, 5),
			answersFor(after.length),
			{
				continueOnFail: true,
			},
		);
		return { execution, crashed, retry };
	}

	it('the query gained a row at the front and lost one in the middle: the new row sent once, the lost one not', async () => {
		// Nothing twice, nothing said sent that was not.
		const before = sends(100);
		const gained = send('+447700900123');
		const after = [gained, ...before.slice(0, 50), ...before.slice(51)];
		for (const peach of [new FakePeachList(), new FakePeachList('documented')]) {
			const { execution, crashed, retry } = await crashThenRetry(before, after, 60, peach);
			const counts = messagesPerPhone(crashed, retry);
			expect(twice(counts)).toEqual([]);
			expect(counts.get('+447700900123')).toBe(1);
			const outcomes = outcomesOf(retry);
			const accepted = new Set(crashed.requests.filter((r) => r.answeredAt).map(phoneOf));
			expect(outcomes.alreadySent.every((json) => accepted.has(recipientOf(json)))).toBe(true);
			expect(outcomes.sentNow.length + outcomes.alreadySent.length + outcomes.unknown.length).toBe(
				after.length,
			);
			if (peach.shows === 'contact and template') {
				// Peach tells what the record cannot: every contact exactly once but those under way.
				expect(outcomes.unknown).toHaveLength(5);
				expect(outcomes.alreadySent).toHaveLength(59);
			}
			expect(execution.store.trimmed).toBe(0);
		}
	});

	it("one contact's messages (one per order), rows gained and reordered on the Retry: each once, the new one sent", async () => {
		// Also where Peach's list cannot tell.
		const contact = '+919900000007';
		const order = (id: string) => send(contact, `order ${id}`);
		const before = ['A-1', 'A-2', 'A-3', 'A-4', 'A-5', 'A-6'].map(order);
		const after = [order('A-0'), ...before.slice().reverse()];
		const execution = newExecution(new FakeDeduplicationStore());
		execution.peach = new FakePeachList('documented');
		const crashed = await crashingTry(execution, concurrency(before, 5), 4, 1);
		const retry = await runTry(crashRetry(execution), concurrency(after, 5), answersFor(7), {
			continueOnFail: true,
		});
		const orderOf = (request: TryResult['requests'][number]) =>
			(request.body as { template_message: { liquid_values: { first_name: string } } })
				.template_message.liquid_values.first_name;
		// were sent, A-5 was under way (unknown), A-6 never started, A-0 is new.
		expect(crashed.requests.map(orderOf)).toEqual([
			'order A-1',
			'order A-2',
			'order A-3',
			'order A-4',
			'order A-5',
		]);
		expect(retry.requests.map(orderOf)).toEqual(['order A-0', 'order A-6']);
		const outcomes = outcomesOf(retry);
		expect(outcomes.alreadySent).toHaveLength(4);
		expect(outcomes.unknown).toHaveLength(1);
	});

	it('refunds of one order, the rows reordered on the Retry: no refund moves money twice, none on the absence of evidence', async () => {
		const before = refundsInTurn('wa_ord_7', [1000, 2000, 3000]);
		const execution = newExecution(new FakeDeduplicationStore());
		const crashed = await crashingTry(execution, before, 1, 1);
		const retry = await runTry(
			crashRetry(execution),
			refundsInTurn('wa_ord_7', [3000, 2000, 1000]),
			// The order is read once first (its refunds, docs/peach-api.md 7.2: as documented, id and status).
			[{ statusCode: 200, body: { id: 'wa_ord_7', status: 'completed' } }],
			{ continueOnFail: true },
		);
		expect(retry.requests.filter((request) => request.options.method === 'GET')).toHaveLength(1);
		const amounts = [...crashed.requests, ...retry.requests]
			.filter((request) => request.options.method === 'POST')
			.map((request) => (request.body as { amount: { value: number } }).amount.value);
		expect(amounts.sort()).toEqual([1000, 2000]);
		// 2,000 was under way; 3,000, never claimed, is in a run the record shows: where Peach's order
		// cannot show its refunds, neither is made on the absence of evidence (madeOnEvidence).
		const outcomes = outcomesOf(retry);
		expect(outcomes.alreadySent).toHaveLength(1);
		expect(outcomes.unknown).toHaveLength(2);
	});

	it("Delivery Key names a delivery as the user's data does: a changed message is not sent again for the same key", async () => {
		// Request Options → Delivery Key.
		const item = (phone: string, order: string, name: string) => ({
			...send(phone, name),
			requestOptions: { deliveryKey: order },
		});
		const execution = newExecution(new FakeDeduplicationStore());
		execution.peach = new FakePeachList('documented');
		const crashed = await crashingTry(
			execution,
			[item(phones(1)[0], 'A-1', 'Asha'), item(phones(2)[1], 'A-2', 'Ravi')],
			2,
			0,
		);
		expect(crashed.requests).toHaveLength(2);
		// The Retry's data has the names fixed; same orders, same contacts.
		const retry = await runTry(
			crashRetry(execution),
			[item(phones(1)[0], 'A-1', 'Asha K'), item(phones(2)[1], 'A-2', 'Ravi M')],
			answersFor(2),
		);
		expect(retry.requests).toEqual([]);
		expect(outcomesOf(retry).alreadySent).toHaveLength(2);
	});
});

describe('an execution is named by itself', () => {
	it('a Retry of a run that never reached Peach, started the same millisecond as one that did: its message is sent', async () => {
		// Sent, not reported already sent.
		const store = new FakeDeduplicationStore();
		const at = 1_700_000_123_000;
		const other = newExecution(store, { establishedAt: at });
		await runTry(other, [send(phones(1)[0], 'A-1')], answersFor(1));
		// The second execution's process died before the Peach node ran.
		const execution = newExecution(store, { establishedAt: at, executions: other.executions });
		execution.peach = other.peach;
		const retry = await runTry(crashRetry(execution), [send(phones(2)[1], 'A-2')], answersFor(1));
		expect(retry.requests.map(phoneOf)).toEqual([phones(2)[1]]);
		expect(outcomesOf(retry).sentNow).toHaveLength(1);
	});
});

describe('another worker writes the same row from an older copy (queue mode)', () => {
	it('a dropped claim is written again and proven before its request; the worker dies: the Retry sends nothing', async () => {
		// The claim was dropped by the other worker's older copy; the worker dies right after the request. The
		// Retry finds the claim and Peach's list.
		const store = new FakeDeduplicationStore();
		// The node's row exists (an earlier execution); the other worker read it before the claim.
		await runTry(newExecution(store), [send('+919800000001')], answersFor(1));
		await afterProofs();
		const before = store.size();
		const crashed = newExecution(store);
		store.rewritesFromOlderCopies = 1;
		const dying = await crashingTry(crashed, [send('+919800000002')], 0, 1);
		// The other worker's own entry, and the claim the read-back wrote again (its bucket's mark,
		// which needs no proof, is gone).
		expect(store.size()).toBe(before + 2);
		const retry = await runTry(crashRetry(crashed), [send('+919800000002')], answersFor(1));
		expect(retry.requests).toEqual([]);
		expect(retry.error).toBeUndefined();
		expect(outcomesOf(retry).alreadySent[0].alreadySent).toMatchObject({
			peach: { id: 'cmsg_1', status: 'queued' },
		});
		expect(twice(messagesPerPhone(dying, retry))).toEqual([]);
	});

	it("a bucket's first entries dropped by an older copy: the Retry sends none of that bucket's messages again", async () => {
		// The older copy is the other worker's; none of the bucket's sent messages is sent again.
		const store = new FakeDeduplicationStore();
		const execution = newExecution(store);
		const contact = '+919800000003';
		const params = concurrency(
			Array.from({ length: 12 }, (_, index) => send(contact, `order ${index}`)),
			1,
		);
		store.rewritesFromOlderCopies = 1;
		const crashed = await crashingTry(execution, params, 10, 1);
		const retry = await runTry(crashRetry(execution), params, answersFor(12), {
			continueOnFail: true,
		});
		// One message per order: 10 sent before, 1 under way (Peach lists it), 1 sent now.
		expect(crashed.requests).toHaveLength(11);
		expect(retry.requests).toHaveLength(1);
		expect(execution.peach.messages).toHaveLength(12);
	});

	it("a look of the first Retry put back by the other worker's older copy never reads as sent in the next Retry", async () => {
		const store = new FakeDeduplicationStore();
		const execution = newExecution(store);
		// Peach's list names no contact: only the record speaks.
		execution.peach = new FakePeachList('documented');
		const params = concurrency(sends(8), 4);
		const crashed = await crashingTry(execution, params, 4, 4);
		// Every removal of the first Retry's looks is undone by the other worker's older copy.
		store.removalsUndoneByOlderCopies = 1000;
		const first = await runTry(crashRetry(execution), params, [], { continueOnFail: true });
		store.removalsUndoneByOlderCopies = 0;
		expect(outcomesOf(first).unknown).toHaveLength(4);
		const second = await runTry(crashRetry(execution), params, [], { continueOnFail: true });
		expect(outcomesOf(second).alreadySent).toHaveLength(4);
		expect(outcomesOf(second).unknown).toHaveLength(4);
		expect(twice(messagesPerPhone(crashed, first, second))).toEqual([]);
	});

	it('1,000 single-send executions, 20 at a time, under stale rewrites of the row: none fails, no Retry resends', async () => {
		// Another worker rewrites the row from stale reads: its copy, read before every third call of theirs,
		// written right after it (over a thousand such writes, each dropping what that call wrote).
		const store = new FakeDeduplicationStore();
		const executions = phones(1000).map(() => newExecution(store));
		const peach = executions[0].peach;
		for (const execution of executions) execution.peach = peach;
		const params = (index: number) => [send(phones(1, index + 1)[0])];
		store.olderCopyEvery = 3;
		const tries: TryResult[] = [];
		for (let start = 0; start < 1000; start += 20)
			tries.push(
				...(await Promise.all(
					executions
						.slice(start, start + 20)
						.map(async (execution, offset) =>
							runTry(execution, params(start + offset), answersFor(1)),
						),
				)),
			);
		const written = store.olderCopiesWritten;
		store.olderCopyEvery = 0;
		// It contends: its writes interleave with the executions' and drop what they wrote.
		expect(written).toBeGreaterThanOrEqual(1000);
		expect(tries.filter((result) => result.error)).toEqual([]);
		// The Retries run once the last executions' summaries are proven. A Retry of the same
		// execution racing its original's unproven summary (not a path n8n offers: a finished
		// execution is not retried) was seen to find nothing of it and send again (issue 50 report).
		await afterProofs();
		const retries = await Promise.all(
			executions.map(async (execution, index) =>
				runTry(crashRetry(execution), params(index), answersFor(1)),
			),
		);
		expect(twice(messagesPerPhone(...tries, ...retries))).toEqual([]);
		expect(retries.every((retry) => outcomesOf(retry).alreadySent.length === 1)).toBe(true);
	}, 150_000);

	it("after another worker inserted the row: a claim and a read-back per message; the proof's reads counted", async () => {
		// One contact's messages; three calls per folded group.
		const store = new FakeDeduplicationStore();
		store.insertedMeanwhile.push(['other worker 0']);
		const first = await runTry(newExecution(store), [send('+919800000001')], answersFor(1));
		expect(first.error).toBeUndefined();
		expect(store.has('other worker 0')).toBe(true);
		const calls = store.calls;
		const contact = Array.from({ length: 20 }, (_, index) => send('+919800000004', `n ${index}`));
		const result = await runTry(newExecution(store), concurrency(contact, 1), answersFor(20));
		expect(result.requests).toHaveLength(20);
		await afterProofs();
		// 20 claims and their read-backs; 5 folded groups and the summary: written, read back, and
		// what each replaces removed (a write or read shared with a claim's where they fall together;
		// on a loaded machine they fall apart, each a call of its own: at most one more per delivery).
		expect(store.calls - calls).toBeGreaterThanOrEqual(20 * 2);
		expect(store.calls - calls).toBeLessThanOrEqual(20 * 3 + 6 * 3);
	}, 30_000);
});

describe('what the record keeps, and for how long', () => {
	it('one contact, one message of 1,000 refused: the record keeps folding, its row stays as small as a few groups', async () => {
		const store = new FakeDeduplicationStore();
		const params = concurrency(
			Array.from({ length: 1000 }, (_, index) => send('+919900000001', `n ${index}`)),
			1,
		);
		const result = await runTry(newExecution(store), params, answersFor(1000, { 2: refused }), {
			continueOnFail: true,
		});
		expect(result.requests).toHaveLength(1000);
		await afterProofs();
		// Folded groups replace the entries of about 40 deliveries at a time (one removal call).
		expect(store.largestRow).toBeLessThan(150);
		expect(store.size()).toBeLessThan(20);
	}, 30_000);

	it("an execution's record leaves the store once n8n has saved the execution with the node's run, not before", async () => {
		const store = new FakeDeduplicationStore();
		const execution = newExecution(store);
		await runTry(execution, sends(20), answersFor(20));
		// The process looks at its next run: n8n has not saved the execution yet.
		await looked(execution, [execution.executionId]);
		expect(store.size()).toBeGreaterThan(0);
		await saved(execution, [execution.executionId]);
		expect(store.size()).toBe(0);
	}, 30_000);

	it('executions that end together leave the store in one removal, not one each', async () => {
		const store = new FakeDeduplicationStore();
		const first = newExecution(store);
		const all = [
			first,
			...Array.from({ length: 9 }, () => newExecution(store, { executions: first.executions })),
		];
		const numbers = phones(10);
		await Promise.all(
			all.map(async (execution, index) => {
				await runTry(execution, [send(numbers[index])], answersFor(1));
			}),
		);
		await afterProofs();
		const before = store.calls;
		expect(store.size()).toBeGreaterThan(0);
		await saved(
			first,
			all.map((execution) => execution.executionId),
		);
		expect(store.size()).toBe(0);
		// Each call rewrites the whole row: ten executions' records go in one call, then are removed
		// three more times a proof's wait apart (removal.ts; one more where a look fell between their
		// registrations).
		expect(store.calls - before).toBeLessThanOrEqual(6);
	}, 30_000);

	it("a finished execution's record put back by another worker's older copy is removed again", async () => {
		const store = new FakeDeduplicationStore();
		const execution = newExecution(store);
		await runTry(execution, [send('+919900000311')], answersFor(1));
		await afterProofs();
		// Another worker read the row before the removal and writes its copy right after it.
		store.removalsUndoneByOlderCopies = 1;
		await saved(execution, [execution.executionId]);
		await afterProofs();
		// Only the other worker's own entry is left.
		expect(store.size()).toBe(1);
	}, 30_000);

	it("a finished execution's record put back twice in a row is removed again, without a look that adds it back", async () => {
		const store = new FakeDeduplicationStore();
		const execution = newExecution(store);
		await runTry(execution, [send('+919900000312')], answersFor(1));
		await afterProofs();
		store.removalsUndoneByOlderCopies = 2;
		const before = { calls: store.calls, checks: store.checkCalls };
		await saved(execution, [execution.executionId]);
		// The other worker's own two entries are left (the wait follows the slowest recent store call).
		await vi.waitFor(() => expect(store.size()).toBe(2), { timeout: 10_000 });
		await sleep(200);
		// The removal and three more, each a proof's wait after the last; no look (the old code's looks
		// recorded the entries for a moment, and a copy read then put them back).
		expect(store.calls - before.calls).toBeGreaterThanOrEqual(4);
		expect(store.checkCalls - before.checks).toBe(0);
	}, 30_000);

	it('an execution n8n saves only after the looks that follow its run still leaves the row, with no run after it', async () => {
		const store = new FakeDeduplicationStore();
		const execution = newExecution(store);
		await runTry(execution, [send('+919900000313')], answersFor(1));
		// n8n saves it late (a loaded database), after the looks 1.5 s and 10 s after the run's record
		// settled; no run comes after.
		await sleep(14_000);
		expect(store.size()).toBeGreaterThan(0);
		execution.executions.ended(execution.executionId, 1);
		// The process looks again on its own, less and less often (1, 3, 7, 15 s after, then 31 s).
		await sleep(5_000);
		expect(store.size()).toBe(0);
	}, 30_000);

	it('an execution that ends while the process is looking at others is looked at after that look', async () => {
		const store = new FakeDeduplicationStore();
		const first = newExecution(store);
		let answer = () => {};
		first.executions.readsWait = new Promise((resolve) => (answer = resolve));
		await runTry(first, [send('+919900000301')], answersFor(1));
		first.executions.ended(first.executionId, 1);
		// The look a moment after the first run waits for the database.
		await sleep(1700);
		const second = newExecution(store, { executions: first.executions });
		await runTry(second, [send('+919900000302')], answersFor(1));
		second.executions.ended(second.executionId, 1);
		// The moments after the second run (its first look at 1.5 s) come while the look waits.
		await sleep(1700);
		answer();
		// No run of the node comes, and the next moment after the run is 10 s away: the look asked for
		// meanwhile removes the second execution's record.
		await sleep(500);
		expect(store.size()).toBe(0);
	}, 30_000);

	it("a crash's record stays through a failed Retry (saved, let go); after a successful one, one fact replaces it", async () => {
		const store = new FakeDeduplicationStore();
		const execution = newExecution(store);
		execution.peach.unansweredReachPeach = false;
		const params = concurrency(sends(30), 3);
		const crashed = await crashingTry(execution, params, 20, 3);
		const first = crashRetry(execution);
		const failedRetry = await runTry(first, params, answersFor(30));
		expect(failedRetry.error?.message).toMatch(/is unknown/);
		await saved(execution, [first.executionId], 1, 'failed');
		const sizeAfterFailed = store.size();
		expect(sizeAfterFailed).toBeGreaterThan(4);

		const second = crashRetry(execution);
		const succeeded = await runTry(
			second,
			params.map((item) => ({
				...item,
				requestOptions: { concurrency: 3, resendUnknown: true },
			})),
			answersFor(30),
		);
		expect(succeeded.error).toBeUndefined();
		// The 3 under way never reached Peach: sent again as asked, each contact queued once.
		expect(crashed.requests).toHaveLength(23);
		expect([...queuedPerPhone(execution).values()]).toEqual(Array.from({ length: 30 }, () => 1));
		await saved(execution, [second.executionId]);
		expect(store.size()).toBe(2);

		// Retried again through n8n's API: the record is retired, so Peach is asked and decides.
		const third = await runTry(crashRetry(execution), params, []);
		expect(third.requests).toEqual([]);
		expect(outcomesOf(third).alreadySent).toHaveLength(30);
	});

	it('with 20,000 deliveries before, saved and let go: the row is what a fresh one is', async () => {
		// Executions n8n saved as they ended; the process looked and let them go.
		const store = new FakeDeduplicationStore();
		const first = newExecution(store);
		const ids: string[] = [];
		for (let execution = 0; execution < 20; execution++) {
			const lineage = newExecution(store, { executions: first.executions });
			lineage.peach = first.peach;
			await runTry(
				lineage,
				phones(1000, execution * 1000 + 1).map((phone) => send(phone)),
				answersFor(1000),
			);
			first.executions.ended(lineage.executionId, 1);
			ids.push(lineage.executionId);
		}
		// Each run looked at the executions before it; the last one is looked at by a later run.
		for (let tries = 0; tries < 50 && store.size() > 0; tries++) {
			await sleep(200);
			await anotherRun();
		}
		expect(store.size()).toBe(0);
		expect(store.trimmed).toBe(0);
		expect(ids.every((id) => (first.executions.reads.get(id) ?? 0) >= 1)).toBe(true);
	}, 120_000);

	it('processes killed after their execution ended: a moment later, the record let go; at once, the claim and outcome kept', async () => {
		// Killed a moment later, each has let its record go (the row is what a fresh one is); killed at once,
		// each leaves its single send's claim and outcome (4 entries: no summary, which would be no
		// smaller), dropped at the cap.
		const killedAfter = async (waitMs: number) => {
			const store = new FakeDeduplicationStore();
			const executions = newExecution(store).executions;
			for (let process = 0; process < 10; process++) {
				const lineage = newExecution(store, { executions, process: `p${process}-${waitMs}` });
				await runTry(lineage, [send(phones(1, process + 1)[0])], answersFor(1));
				// n8n saves the execution as it ends; the process is killed `waitMs` later.
				executions.ended(lineage.executionId, 1);
				await sleep(waitMs);
				store.killed.add(`p${process}-${waitMs}`);
			}
			return store.size();
		};
		expect(await killedAfter(1700)).toBe(0);
		// The claim, its bucket's mark and the sent fact (two entries).
		expect(await killedAfter(0)).toBe(10 * 4);
	}, 60_000);

	it('a crash before the node ran: its Retry sends all, fails later, is saved; a second Retry sends nothing again', async () => {
		// Also where Peach's list cannot tell.
		const store = new FakeDeduplicationStore();
		const execution = newExecution(store);
		execution.peach = new FakePeachList('documented');
		const params = sends(6);
		// The first Retry: everything is new; a later node fails, n8n saves the Retry as failed.
		const first = crashRetry(execution);
		const sent = await runTry(first, params, answersFor(6));
		expect(sent.requests).toHaveLength(6);
		await saved(execution, [first.executionId], 1, 'failed');
		expect(store.size()).toBeGreaterThan(0);
		// The second Retry of the crashed execution gets that execution's data, not the first Retry's.
		const second = await runTry(crashRetry(execution), params, []);
		expect(second.requests).toEqual([]);
		expect(outcomesOf(second).alreadySent).toHaveLength(6);
	});
});
