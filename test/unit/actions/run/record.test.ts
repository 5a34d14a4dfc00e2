import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { BUCKETS, GROUP } from '../../../../nodes/Peach/actions/run/record/chain';
import { DeliveryRecord } from '../../../../nodes/Peach/actions/run/record/record';
import {
	crashRetry,
	FakeDeduplicationStore,
	type Lineage,
	newExecution,
} from '../../support/n8nRecovery';
import {
	answersFor,
	crashingTry,
	messagesPerPhone,
	phoneOf,
	phones,
	runTry,
	send,
	type TryResult,
	twice,
} from '../../support/recoveryRuns';

/**
 * The delivery record at the size the package is for (issue "What a send did is remembered at any
 * size"): n8n's deduplication store modelled as n8n 2.40 keeps it (one row per node, rewritten whole
 * on every call, trimmed to `maxEntries` when a call gives one), with Loop Over Items, other
 * executions in between, inputs that changed, another process writing the same row, and what it costs.
 */

const concurrency = (items: Array<Record<string, unknown>>, width: number) =>
	items.map((item) => ({ ...item, requestOptions: { concurrency: width } }));

/** What the outputs of a run say of each recipient: sent now, sent before, unknown. */
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

/** The phones Peach accepted (answered 201) in these tries. */
function acceptedPhones(...tries: TryResult[]): Set<string> {
	const accepted = new Set<string>();
	for (const result of tries)
		for (const request of result.requests)
			if (request.answeredAt !== undefined)
				accepted.add((request.body as { contact: { phone_number: string } }).contact.phone_number);
	return accepted;
}

describe('Loop Over Items: every batch is a run of the node in one execution', () => {
	it('3,000 contacts in batches of 100, the process dies at 2,900 sends, the Retry runs every batch again: nobody gets a message twice', async () => {
		const store = new FakeDeduplicationStore();
		const execution = newExecution(store);
		const all = phones(3000);
		const batch = (index: number) =>
			concurrency(
				all.slice(index * 100, index * 100 + 100).map((phone) => send(phone)),
				5,
			);
		const tries: TryResult[] = [];
		for (let index = 0; index < 29; index++)
			tries.push(await runTry({ ...execution, runIndex: index }, batch(index), answersFor(100)));
		tries.push(await crashingTry({ ...execution, runIndex: 29 }, batch(29), 50, 5));
		expect(store.trims).toEqual([]);

		const retry = crashRetry(execution);
		const retried: TryResult[] = [];
		for (let index = 0; index < 30; index++)
			retried.push(
				await runTry({ ...retry, runIndex: index }, batch(index), answersFor(100), {
					continueOnFail: true,
				}),
			);

		const counts = messagesPerPhone(...tries, ...retried);
		expect(twice(counts)).toEqual([]);
		expect(counts.size).toBe(3000);
		const outcomes = retried.map(outcomesOf);
		expect(outcomes.slice(0, 29).every((run) => run.alreadySent.length === 100)).toBe(true);
		expect(outcomes[29].alreadySent).toHaveLength(50);
		expect(outcomes[29].unknown).toHaveLength(5);
		expect(outcomes[29].sentNow).toHaveLength(45);
		expect(store.trims).toEqual([]);
	}, 120_000);
});

describe('other executions write the same row before the Retry', () => {
	it('a 3,000-contact send dies near its end, one small execution of the workflow runs, then the Retry: nothing twice', async () => {
		const store = new FakeDeduplicationStore();
		const execution = newExecution(store);
		const params = concurrency(
			phones(3000).map((phone) => send(phone)),
			5,
		);
		const crashed = await crashingTry(execution, params, 2990, 5);
		const small = await runTry(newExecution(store), [send(phones(1, 5000)[0])], answersFor(1));
		expect(small.requests).toHaveLength(1);

		const retry = await runTry(crashRetry(execution), params, answersFor(3000), {
			continueOnFail: true,
		});
		expect(twice(messagesPerPhone(crashed, retry))).toEqual([]);
		const outcomes = outcomesOf(retry);
		expect(outcomes.alreadySent).toHaveLength(2990);
		expect(outcomes.unknown).toHaveLength(5);
		expect(outcomes.sentNow).toHaveLength(5);
		expect(store.trims).toEqual([]);
	}, 60_000);
});

describe('a delivery is matched by what it is, not where it sits', () => {
	async function crashThenRetry(
		before: string[],
		after: string[],
		answered: number,
	): Promise<{ crashed: TryResult; retry: TryResult }> {
		const store = new FakeDeduplicationStore();
		const execution = newExecution(store);
		const crashed = await crashingTry(
			execution,
			concurrency(
				before.map((phone) => send(phone)),
				5,
			),
			answered,
			5,
		);
		const retry = await runTry(
			crashRetry(execution),
			concurrency(
				after.map((phone) => send(phone)),
				5,
			),
			answersFor(after.length),
			// Outcomes left unknown are error items then (else the Retry fails naming them).
			{ continueOnFail: true },
		);
		return { crashed, retry };
	}

	it('the query gained a row at the front: the new row is sent once, every earlier send is matched, nobody twice', async () => {
		const before = phones(100);
		const gained = '+447700900123';
		const { crashed, retry } = await crashThenRetry(before, [gained, ...before], 60);
		expect(twice(messagesPerPhone(crashed, retry))).toEqual([]);
		expect(messagesPerPhone(crashed, retry).get(gained)).toBe(1);
		const outcomes = outcomesOf(retry);
		// Nothing is said to be sent that was not.
		const accepted = acceptedPhones(crashed);
		expect(outcomes.alreadySent.every((json) => accepted.has(recipientOf(json)))).toBe(true);
		expect(outcomes.alreadySent).toHaveLength(60);
		expect(outcomes.unknown).toHaveLength(5);
		expect(outcomes.sentNow).toHaveLength(36);
		// The new row's output is its own send.
		const [items] = retry.output as INodeExecutionData[][];
		expect(items[0].json.event_id).toBeDefined();
		expect(items[0].json.alreadySent).toBeUndefined();
	});

	it('a row gained in the middle, and a contact with a second message: each sent once', async () => {
		const before = phones(40);
		const after = [...before.slice(0, 20), '+447700900123', ...before.slice(20), before[3]];
		const { crashed, retry } = await crashThenRetry(before, after, 30);
		const counts = messagesPerPhone(crashed, retry);
		expect(twice(counts).map(([phone]) => phone)).toEqual([before[3]]);
		expect(counts.get(before[3])).toBe(2);
		expect(counts.get('+447700900123')).toBe(1);
	});

	it('rows lost or reordered: nobody gets a message twice, and nothing is said to be sent that was not', async () => {
		const before = phones(120);
		const after = [...before.slice(0, 10), ...before.slice(12, 70).reverse(), ...before.slice(70)];
		const { crashed, retry } = await crashThenRetry(before, after, 80);
		expect(twice(messagesPerPhone(crashed, retry))).toEqual([]);
		const accepted = acceptedPhones(crashed);
		const outcomes = outcomesOf(retry);
		expect(outcomes.alreadySent.every((json) => accepted.has(recipientOf(json)))).toBe(true);
		// Every item of the retry is accounted for: sent now, sent before, or unknown.
		expect(outcomes.sentNow.length + outcomes.alreadySent.length + outcomes.unknown.length).toBe(
			after.length,
		);
	});
});

describe('an execution is named by itself', () => {
	it('two executions established in the same millisecond, to the same contacts: the Retry of one does not take the other’s sends for its own', async () => {
		const store = new FakeDeduplicationStore();
		// The same ten contacts, told of two different orders.
		const params = (order: string) =>
			concurrency(
				phones(10).map((phone) => send(phone, order)),
				1,
			);
		const inputs = (order: string) => phones(10).map((phone) => ({ phone, order }));
		const at = 1_700_000_123_000;
		const other = newExecution(store, { establishedAt: at });
		await runTry(other, params('A-1'), answersFor(10), { inputs: inputs('A-1') });
		const execution = newExecution(store, { establishedAt: at });
		const crashed = await crashingTry(execution, params('A-2'), 3, 1, inputs('A-2'));
		const retry = await runTry(crashRetry(execution), params('A-2'), answersFor(10), {
			inputs: inputs('A-2'),
			continueOnFail: true,
		});
		expect(outcomesOf(retry).alreadySent).toHaveLength(3);
		expect(outcomesOf(retry).unknown).toHaveLength(1);
		expect(retry.requests).toHaveLength(6);
		expect(twice(messagesPerPhone(crashed, retry))).toEqual([]);
	});
});

/**
 * A first execution of the workflow, one send, whose first call races another worker's insert of the
 * node's row (both found none; n8n's second insert fails): the process has seen another process.
 */
async function afterInsertRace(store: FakeDeduplicationStore, workflowId: string) {
	store.insertedMeanwhile.push(['other worker 0']);
	return await runTry(newExecution(store, { workflowId }), [send('+919800000001')], answersFor(1));
}

describe('another process writes the same row (queue mode: two workers)', () => {
	it("the node's first write races another worker's (both found no row; n8n's insert of the second fails): the claim is written again, the message sent once", async () => {
		const store = new FakeDeduplicationStore();
		const workflowId = 'wf-first-write';
		const first = await afterInsertRace(store, workflowId);
		expect(first.error).toBeUndefined();
		expect(first.requests.map(phoneOf)).toEqual(['+919800000001']);
		expect(outcomesOf(first).sentNow).toHaveLength(1);
		// The other worker's entry is kept beside the run's.
		expect(store.has('other worker 0', workflowId)).toBe(true);
	});

	it('a worker dies right after its request, its claim dropped by another worker that wrote the list from an older copy: once the process has seen another process write the list, the claim is found again before the request, and the Retry sends nothing again', async () => {
		const store = new FakeDeduplicationStore();
		const workflowId = 'wf-two-workers';
		const first = await afterInsertRace(store, workflowId);
		expect(first.error).toBeUndefined();
		// The next execution's slot and claim are both written over by the other worker's older copy;
		// its request is under way when the process dies.
		const crashed = newExecution(store, { workflowId });
		store.rewritesFromOlderCopies = 2;
		const dying = await crashingTry(crashed, [send('+919800000002')], 0, 1);
		const retry = await runTry(crashRetry(crashed), [send('+919800000002')], answersFor(1));
		expect(retry.requests).toEqual([]);
		expect(retry.error?.message).toBe(
			"The outcome of item 0 (+919800000002) is unknown: an earlier try's request may have reached Peach",
		);
		expect(twice(messagesPerPhone(first, dying, retry))).toEqual([]);
	});

	it('another worker drops the claim on every call: the delivery is not made, and the error says why', async () => {
		const store = new FakeDeduplicationStore();
		const workflowId = 'wf-always-rewritten';
		await afterInsertRace(store, workflowId);
		store.rewritesFromOlderCopies = 100;
		const result = await runTry(
			newExecution(store, { workflowId }),
			[send('+919800000002')],
			answersFor(1),
		);
		expect(result.requests).toEqual([]);
		expect(result.error?.message).toBe(
			"n8n could not record the delivery before making it, so it was not made: another n8n process rewrote the node's record from an older copy 5 times in a row",
		);
	});

	it('1,000 single-send executions, 20 at a time, while another worker rewrites the row from stale reads: the Retry of any of them sends nothing again', async () => {
		const store = new FakeDeduplicationStore();
		const workflowId = 'wf-stale-reads';
		const executions = phones(1000).map(() => newExecution(store, { workflowId }));
		const params = (index: number) => [send(phones(1, index + 1)[0])];
		let running = true;
		// The other worker: reads the row, and writes it back a few turns later with its own entry; it
		// lets timers run between its writes (the record waits before it looks for a claim).
		const other = (async () => {
			for (let write = 0; running; write++) {
				await store.staleWrite([`other worker ${write}`], 4, workflowId);
				if (write % 8 === 7) await sleep(0);
				else await Promise.resolve();
			}
		})();
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
		running = false;
		await other;
		// A run's last entries are checked again a moment after it ends.
		await sleep(1500);
		const retries = await Promise.all(
			executions.map(async (execution, index) =>
				runTry(crashRetry(execution), params(index), answersFor(1)),
			),
		);
		expect(twice(messagesPerPhone(...tries, ...retries))).toEqual([]);
		expect(retries.every((retry) => outcomesOf(retry).alreadySent.length === 1)).toBe(true);
	}, 60_000);
});

/** Node's garbage collector (the unit tests run with --expose-gc). */
declare const gc: () => void;

/** n8n has saved the executions that ended and let them go: garbage is collected. */
async function letGo(store: FakeDeduplicationStore) {
	for (let round = 0; round < 10; round++) {
		gc();
		await sleep(5);
		if (store.size() === 0) return;
	}
}

/** A node context, execution context and store for the record alone (no requests). */
function recordContext(execution: Lineage, workflowId = 'wf-1'): IExecuteFunctions {
	return {
		getInputData: () => [{ json: {} }],
		getContext: () => execution.nodeContext,
		getWorkflowDataProxy: () => ({
			$runIndex: execution.runIndex,
			$: () => ({ all: () => execution.trigger.map((json) => ({ json })) }),
		}),
		getExecutionContext: () => ({
			version: 1,
			establishedAt: execution.establishedAt,
			source: 'webhook',
			triggerNode: { name: 'Webhook', type: 'n8n-nodes-base.webhook' },
		}),
		getExecutionId: () => execution.executionId,
		getMode: () => execution.mode,
		getNode: () => ({ id: 'node-1', name: 'Peach' }),
		getWorkflow: () => ({ id: workflowId }),
		helpers: execution.store.helpersFor(workflowId, 'node-1'),
	} as unknown as IExecuteFunctions;
}

/**
 * A run's record as the delivering runner keeps it: `width` deliveries under way at a time, each
 * claimed before its request, sent after. The store's bytes and calls it cost.
 */
async function recordRun(execution: Lineage, recipients: string[], width: number) {
	const { store } = execution;
	const [bytes, calls] = [store.bytesWritten, store.calls];
	const record = await DeliveryRecord.open(
		recordContext(execution),
		'templateMessage.send',
		recipients,
	);
	let next = 0;
	const lanes = new Map<string, Promise<void>>();
	await Promise.all(
		Array.from({ length: Math.min(width, recipients.length) }, async () => {
			while (next < recipients.length) {
				const index = next++;
				const before = lanes.get(recipients[index]) ?? Promise.resolve();
				const done = before.then(async () => {
					await record.claim(index);
					await Promise.resolve();
					record.sent(index, { event_id: `evt_${index}` });
				});
				lanes.set(recipients[index], done);
				await done;
			}
		}),
	);
	await record.close(true);
	return {
		bytesPerDelivery: (store.bytesWritten - bytes) / recipients.length,
		callsPerDelivery: (store.calls - calls) / recipients.length,
		rowSize: store.size(),
		largestRow: store.largestRow,
	};
}

describe('what the record costs does not grow with the run or with what came before', () => {
	it("one contact's messages (one after another): the same bytes per delivery at 5,000 as at 1,000, one call each", async () => {
		const contact = (count: number) => Array.from({ length: count }, () => '+919900000001');
		const small = await recordRun(newExecution(), contact(1000), 1);
		const large = await recordRun(newExecution(), contact(5000), 1);
		expect(large.bytesPerDelivery / small.bytesPerDelivery).toBeLessThan(1.1);
		expect(large.callsPerDelivery).toBeLessThan(1.1);
		expect(large.rowSize).toBeLessThan(40);
	}, 60_000);

	it('many contacts, 200 at a time: the record stops growing (the same bytes per delivery at 20,000 as at 5,000), its size bounded by the buckets', async () => {
		const medium = await recordRun(newExecution(), phones(5000), 200);
		const large = await recordRun(newExecution(), phones(20_000), 200);
		expect(large.bytesPerDelivery / medium.bytesPerDelivery).toBeLessThan(1.1);
		// Per bucket: an open group and its fold, plus the deliveries under way.
		expect(large.largestRow).toBeLessThan(BUCKETS * (3 * GROUP + 3) + 3 * 200);
	}, 60_000);

	it('with 100,000 deliveries recorded before (by executions n8n has let go): within 10 % of the bytes with none', async () => {
		const store = new FakeDeduplicationStore();
		const fresh = await recordRun(newExecution(new FakeDeduplicationStore()), phones(1000), 200);
		for (let execution = 0; execution < 100; execution++) {
			await recordRun(newExecution(store), phones(1000, execution * 1000 + 1), 200);
			// n8n saved the executions and let them go: their records leave the store.
			if (execution % 10 === 9) await letGo(store);
		}
		expect(store.size()).toBe(0);
		const after = await recordRun(newExecution(store), phones(1000, 200_001), 200);
		expect(Math.abs(after.bytesPerDelivery / fresh.bytesPerDelivery - 1)).toBeLessThan(0.1);
	}, 120_000);
});

describe('what the record keeps, and for how long', () => {
	it("an execution's record leaves the store once n8n lets the execution go, though n8n's helpers hold its run data", async () => {
		const store = new FakeDeduplicationStore();
		const run = async () => {
			const execution = newExecution(store);
			const context = recordContext(execution);
			// As n8n-core's helpers: the request functions close over the execution's run data.
			const runData = { nodeContext: execution.nodeContext };
			context.helpers.httpRequest = async () => runData;
			const record = await DeliveryRecord.open(context, 'templateMessage.send', phones(20));
			for (let index = 0; index < 20; index++) {
				await record.claim(index);
				record.sent(index, { event_id: `evt_${index}` });
			}
			await record.close(true);
		};
		await run();
		expect(store.size()).toBeGreaterThan(0);
		await letGo(store);
		expect(store.size()).toBe(0);
	});

	it('nothing is trimmed and nothing of another execution is removed: a crashed execution’s record waits for its Retry', async () => {
		const store = new FakeDeduplicationStore();
		const execution = newExecution(store);
		const params = concurrency(
			phones(300).map((phone) => send(phone)),
			5,
		);
		const crashed = await crashingTry(execution, params, 200, 5);
		// 50 other executions of the workflow run, finish, and are let go by n8n.
		for (let other = 0; other < 50; other++)
			await runTry(newExecution(store), [send(phones(1, 1000 + other)[0])], answersFor(1));
		await sleep(1100);
		await letGo(store);
		const retry = await runTry(crashRetry(execution), params, answersFor(300), {
			continueOnFail: true,
		});
		expect(twice(messagesPerPhone(crashed, retry))).toEqual([]);
		expect(outcomesOf(retry).alreadySent).toHaveLength(200);
		expect(store.trims).toEqual([]);
	}, 20_000);
});
