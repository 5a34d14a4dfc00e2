import type { IDataObject, INodeExecutionData, NodeApiError } from 'n8n-workflow';
import { describe, expect, it, vi } from 'vitest';

import { locator } from '../../../support/harness';
import {
	crashRetry,
	editorRetry,
	FakeDeduplicationStore,
	type Lineage,
	newExecution,
} from '../../../support/n8nRecovery';
import { FakePeachList } from '../../../support/peachList';
import { afterProofs } from '../../../support/proofWaitMs';
import {
	accepted,
	answersFor,
	crashingTry,
	messagesPerPhone,
	phoneOf,
	phones,
	refund,
	refused,
	runTry,
	send,
	sends,
	serverError,
	twice,
} from '../../../support/recoveryRuns';
import { throwingRunner } from '../../../support/resourceRun';
import { approvalRequest, springSale } from '../../../support/templates';

/**
 * n8n's ways of recovering from a failure run the node again on all its input items: Retry On Fail
 * (a fresh execute context per try, the same node context), the editor's Retry of a failed execution
 * (its saved node context handed back, mode "retry"; "with the original workflow" or "with the
 * currently saved workflow") and the Retry of a crashed execution (the node context lost, n8n's
 * deduplication store kept). A message or a refund Peach accepted is never made again by any of them.
 */

/**
 * A send of `count` items, `concurrency` at a time, whose process dies after `answered` answers;
 * `reachPeach`: whether the requests under way then reached Peach (then Peach lists them).
 */
async function crashingRun(
	count: number,
	answered: number,
	concurrency: number,
	reachPeach = true,
) {
	const execution = newExecution(new FakeDeduplicationStore());
	execution.peach.unansweredReachPeach = reachPeach;
	const params = sends(count, concurrency);
	const crashed = await crashingTry(execution, params, answered, concurrency);
	return { execution, params, crashed };
}

describe('Retry On Fail: a fresh try of the node with the same node context', () => {
	it('item 3 refused in each of 3 tries: items 1 and 2 are sent once; the error lists them', async () => {
		const execution = newExecution();
		const params = sends(3);
		const tries = [
			await runTry(execution, params, answersFor(3, { 2: refused })),
			await runTry(execution, params, [refused]),
			await runTry(execution, params, [refused]),
		];
		expect(tries.map((result) => result.requests.map(phoneOf))).toEqual([
			phones(3),
			[phones(3)[2]],
			[phones(3)[2]],
		]);
		expect(twice(messagesPerPhone(...tries.slice(0, 1)))).toEqual([]);
		const last = tries[2].error as NodeApiError;
		expect(last.message).toBe('Phone Number: is blocked');
		expect(last.description).toContain(
			'Already sent: item 0 (event_id evt_1), item 1 (event_id evt_2).',
		);
		expect(last.description).toContain(
			'A Retry of this execution (or Retry On Fail) sends item 2, never what was sent.',
		);
		expect(last.context.alreadySent).toEqual([
			{ item: 0, event_id: 'evt_1' },
			{ item: 1, event_id: 'evt_2' },
		]);
	});

	it('a later try that succeeds outputs the earlier sends with their answer, marked as already sent', async () => {
		const execution = newExecution();
		const params = sends(3);
		await runTry(execution, params, answersFor(3, { 2: refused }));
		const second = await runTry(execution, params, [accepted('evt_3')]);
		expect(second.requests.map(phoneOf)).toEqual([phones(3)[2]]);
		const [items] = second.output as INodeExecutionData[][];
		expect(items.map((item) => [item.json.event_id, item.pairedItem])).toEqual([
			['evt_1', { item: 0 }],
			['evt_2', { item: 1 }],
			['evt_3', { item: 2 }],
		]);
		expect(items[0].json.alreadySent).toEqual({
			at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
			recipient: phones(3)[0],
			note: 'Sent by an earlier try of this node (Retry On Fail, or the execution this one retries); not sent again.',
		});
		expect(items[2].json).not.toHaveProperty('alreadySent');
	});

	it('with Continue On Fail, n8n runs the node again when item 1 is an error: only item 1 is sent again', async () => {
		const execution = newExecution();
		const params = sends(3);
		const first = await runTry(execution, params, answersFor(3, { 0: refused }), {
			continueOnFail: true,
		});
		const [firstItems] = first.output as INodeExecutionData[][];
		// n8n re-runs the node because output[0][0].json.error is set (workflow-execute.ts).
		expect(firstItems[0].json.error).toBe('Phone Number: is blocked');
		const second = await runTry(execution, params, [refused], { continueOnFail: true });
		expect(second.requests.map(phoneOf)).toEqual([phones(3)[0]]);
		const [items] = second.output as INodeExecutionData[][];
		expect(items.map((item) => item.json.event_id ?? item.json.error)).toEqual([
			'Phone Number: is blocked',
			'evt_2',
			'evt_3',
		]);
	});
});

describe("the editor's Retry of a failed execution", () => {
	it('"with the original workflow": the sent items are not sent again; the rest are; a retry of the retry sends nothing twice', async () => {
		const count = 8;
		// Five at a time: the 6th to 8th are not started when the 4th fails.
		const params = sends(count, 5);
		const original = newExecution();
		// Peach has a server error from the 4th send on: the run stops (unknown outcome of the 4th).
		const first = await runTry(original, params, answersFor(count, { 3: serverError }), {});
		expect((first.error as NodeApiError).httpCode).toBe('500');
		expect(first.error?.description).toContain(
			'Item 3 may have reached Peach, so a Retry of this execution (or Retry On Fail) does not send it again; it sends the items not sent, and never what was sent.',
		);
		const sentFirst = first.requests.length;

		// Retry: Peach still fails on the first new send.
		const retry = editorRetry(original);
		const second = await runTry(retry, params, [serverError, ...answersFor(count)]);
		expect(second.error?.description).toMatch(
			/Outcome unknown since an earlier try, not sent again: item 3\./,
		);

		// Retry of the retry: Peach works again. The two outcomes left unknown are not sent again, and
		// are no success: the run fails naming them (with Continue On Fail they are error items).
		const third = await runTry(editorRetry(retry), params, answersFor(count), {
			continueOnFail: true,
		});
		expect(twice(messagesPerPhone(first, second, third))).toEqual([]);
		const [items] = third.output as INodeExecutionData[][];
		expect(items).toHaveLength(count);
		const unknown = items.filter((item) => item.json.outcomeUnknown);
		expect(unknown.map((item) => item.pairedItem)).toEqual([{ item: 3 }, { item: sentFirst }]);
		expect(unknown.every((item) => item.error !== undefined)).toBe(true);
		expect(unknown[0].json.outcomeUnknown).toMatchObject({
			recipient: phones(count)[3],
			reason: 'Peach had a server error (500): Internal error',
		});
		// Every item not sent before was sent once.
		const phonesSent = [first, second, third].flatMap((result) => result.requests.map(phoneOf));
		expect(new Set(phonesSent)).toEqual(new Set(phones(count)));
	});

	it('"with the currently saved workflow": a fixed item is sent as it is now; a changed sent one not again', async () => {
		// An item sent before whose content changed is not sent again (the same contact and template).
		const params = sends(3);
		const original = newExecution();
		await runTry(original, params, answersFor(3, { 2: refused }));
		// The user changes the mapping (every item's first_name) and fixes item 3's number.
		const fixed = [
			send(phones(3)[0], 'Ana'),
			send(phones(3)[1], 'Ana'),
			send('+919900099999', 'Ana'),
		];
		const retry = await runTry(editorRetry(original), fixed, [accepted('evt_9')]);
		expect(retry.requests.map((request) => request.body)).toEqual([
			{
				event_type: 'send_template_message',
				contact: { phone_number: '+919900099999' },
				template_message: {
					whats_app_template_id: 'wat_welcome',
					liquid_values: { first_name: 'Ana' },
				},
			},
		]);
		const [items] = retry.output as INodeExecutionData[][];
		expect(items.map((item) => item.json.event_id)).toEqual(['evt_1', 'evt_2', 'evt_9']);
		expect(items[0].json.alreadySent).toMatchObject({
			peach: { id: 'cmsg_1', status: 'queued' },
			note: 'Sent by an earlier try of this node to this contact with this template, as the item was then (it has changed since); not sent again. Peach lists it as cmsg_1 (queued).',
		});
	});

	it('"Send Again If Outcome Unknown" sends the unknown ones again, only when asked', async () => {
		const params = sends(3);
		const original = newExecution();
		const oneByOne = params.map((item) => ({ ...item, requestOptions: { concurrency: 1 } }));
		await runTry(original, oneByOne, answersFor(3, { 1: serverError }));
		const asked = params.map((item) => ({
			...item,
			requestOptions: { concurrency: 1, resendUnknown: true },
		}));
		const retry = await runTry(editorRetry(original), asked, answersFor(2));
		expect(retry.requests.map(phoneOf)).toEqual([phones(3)[1], phones(3)[2]]);
	});

	it('a later node failed: the Peach node is not run again by n8n, and no delivery of it stays in the saved execution', async () => {
		const execution = newExecution();
		const params = sends(2);
		await runTry(execution, params, answersFor(2));
		const record = execution.nodeContext.peachDeliveries as Record<string, unknown>;
		expect(record).toEqual({
			ordinals: { 0: 0 },
			runs: { 0: {} },
			planned: { 0: {} },
			tries: { 0: 1 },
			startedAt: expect.any(Number),
		});
	});
});

describe('the Retry of a crashed execution (the process running it was killed)', () => {
	it('nothing Peach accepted before the crash is sent again; what was under way and Peach lists is sent', async () => {
		// Resolved as sent, with Peach's ID.
		const { execution, params, crashed } = await crashingRun(40, 17, 5);
		const retry = crashRetry(execution);
		const result = await runTry(retry, params, answersFor(40), { continueOnFail: true });
		const counts = messagesPerPhone(crashed, result);
		expect(twice(counts)).toEqual([]);
		const [items] = result.output as INodeExecutionData[][];
		const sentBefore = items.filter((item) => item.json.alreadySent);
		expect(sentBefore).toHaveLength(17 + 5);
		expect(items.filter((item) => item.json.outcomeUnknown)).toHaveLength(0);
		// The person's view shows what Peach lists of it: its ID and status.
		expect(sentBefore[0].json).toEqual({
			to: expect.any(String),
			outcome: 'already sent (queued)',
			peachId: 'cmsg_1',
			alreadySent: {
				at: null,
				recipient: phones(40)[0],
				peach: { id: expect.stringMatching(/^cmsg_/), status: 'queued' },
				note: expect.stringMatching(
					/^Sent before the n8n process running the retried execution stopped; not sent again\. Peach lists it as cmsg_\d+ \(queued\)\.$/,
				),
			},
		});
		// Under way when the process stopped: the record had its claim, Peach lists it.
		const underWay = items.find(
			(item) =>
				item.json.alreadySent &&
				(item.json.alreadySent as IDataObject).note
					?.toString()
					.startsWith('Not sent again: Peach lists'),
		);
		expect(underWay).toBeDefined();
		expect(result.requests).toHaveLength(40 - 17 - 5);
		expect(counts.size).toBe(40);
		// Peach was asked once, from when the execution began.
		expect(execution.peach.reads).toEqual([
			{
				updated_since: new Date((execution.establishedAt ?? 0) - 60_000).toISOString(),
				page: 1,
				per: 1000,
			},
		]);
	});

	it.each<[string, (execution: Lineage) => void]>([
		[
			'what was under way and Peach does not list stays unknown (at most Max Concurrent Requests): never sent again by itself',
			(execution) => {
				execution.peach.unansweredReachPeach = false;
			},
		],
		[
			"where Peach's list is as documented, the record decides alone: sent ones skipped, those under way unknown",
			// As documented: no contact, no template.
			(execution) => {
				execution.peach = new FakePeachList('documented');
			},
		],
	])('%s', async (_name, peachOf) => {
		const execution = newExecution(new FakeDeduplicationStore());
		peachOf(execution);
		const params = sends(40, 5);
		const crashed = await crashingTry(execution, params, 17, 5);
		const result = await runTry(crashRetry(execution), params, answersFor(40), {
			continueOnFail: true,
		});
		expect(twice(messagesPerPhone(crashed, result))).toEqual([]);
		const [items] = result.output as INodeExecutionData[][];
		expect(items.filter((item) => item.json.alreadySent)).toHaveLength(17);
		expect(items.filter((item) => item.json.outcomeUnknown)).toHaveLength(5);
		expect(result.requests).toHaveLength(40 - 17 - 5);
	});

	it('also when n8n runs the Peach node at another run index (a node before it counted a run more)', async () => {
		const { execution, params, crashed } = await crashingRun(10, 4, 2);
		const result = await runTry({ ...crashRetry(execution), runIndex: 1 }, params, answersFor(10));
		expect(twice(messagesPerPhone(crashed, result))).toEqual([]);
	});

	it('a new execution with the same input sends everything again: only retries are matched', async () => {
		const store = new FakeDeduplicationStore();
		const params = sends(3);
		const first = await runTry(newExecution(store), params, answersFor(3));
		const second = await runTry(newExecution(store), params, answersFor(3));
		expect(first.requests).toHaveLength(3);
		expect(second.requests).toHaveLength(3);
	});

	it('n8n 1.x: a stalled job run again in the same execution sends nothing twice', async () => {
		// 1.x makes its execution context when the execution runs; running a stalled job again in the same
		// execution is 1.x's default.
		const store = new FakeDeduplicationStore();
		const execution = newExecution(store, { n8nLine: 1 });
		const params = sends(6, 1);
		await crashingTry(execution, params, 3, 1);
		// Bull runs the stalled job again: the same execution, its node context lost, a new context.
		const again = await runTry(
			{ ...execution, nodeContext: {}, establishedAt: (execution.establishedAt ?? 0) + 60_000 },
			params,
			answersFor(6),
		);
		expect(again.requests.map(phoneOf)).toEqual(phones(6).slice(4));
	});

	it("n8n 1.x: a crash's Retry (a new execution and context) asks Peach over 24 hours; nothing is sent twice", async () => {
		// The record cannot find the crashed execution; Peach is asked over its own 24 hours.
		const { execution, params, crashed } = await crashingRun(10, 4, 2);
		const result = await runTry(
			{
				...crashRetry({ ...execution, n8nLine: 1 }),
				establishedAt: (execution.establishedAt ?? 0) + 60_000,
			},
			params,
			answersFor(10),
		);
		expect(twice(messagesPerPhone(crashed, result))).toEqual([]);
		expect(result.requests).toHaveLength(4);
		const since = Date.parse(String(execution.peach.reads[0].updated_since));
		expect(Date.now() - since).toBeGreaterThan(24 * 3600_000);
	});

	it("n8n 1.x, Peach's list naming neither contact nor template: a crash's Retry sends again what was sent", async () => {
		// README says so.
		const execution = newExecution(new FakeDeduplicationStore());
		execution.peach = new FakePeachList('documented');
		const params = sends(10, 2);
		const crashed = await crashingTry(execution, params, 4, 2);
		const result = await runTry(
			{
				...crashRetry({ ...execution, n8nLine: 1 }),
				establishedAt: (execution.establishedAt ?? 0) + 60_000,
			},
			params,
			answersFor(10),
		);
		expect(twice(messagesPerPhone(crashed, result)).length).toBe(6);
	});
});

describe("n8n's deduplication store is written in turns", () => {
	it('50 sends at 20 at a time over a slow database: no claim or outcome lost, far fewer writes than deliveries', async () => {
		// The Retry of a crash finds all 50.
		const store = new FakeDeduplicationStore(20);
		const params = sends(50, 20);
		const execution = newExecution(store);
		const result = await runTry(execution, params, answersFor(50));
		expect(result.output?.[0]).toHaveLength(50);
		expect(store.calls).toBeLessThan(50);
		// The process dies after the node (in a later node): its Retry runs the node again.
		const retry = await runTry(crashRetry(execution), params, []);
		expect(retry.requests).toHaveLength(0);
		const [items] = retry.output as INodeExecutionData[][];
		expect(items.filter((item) => item.json.alreadySent)).toHaveLength(50);
	});

	it("one contact's items in turn: a write and a read-back per delivery and folded group; one summary at the end", async () => {
		// A delivery's outcome rides with the next claim.
		const store = new FakeDeduplicationStore();
		const params = Array.from({ length: 10 }, () => send('+919900000001'));
		const result = await runTry(newExecution(store), params, answersFor(10));
		expect(result.requests).toHaveLength(10);
		await afterProofs();
		// 10 carry the claims (each with the outcome before it), each proven by a read-back; each
		// folded group of 4 (and the short last one) is written, proven, then removes what it
		// replaces (its write and read shared with a claim's where they fall together); the run's
		// summary too.
		expect(store.calls).toBeGreaterThanOrEqual(10 * 2);
		expect(store.calls).toBeLessThanOrEqual(10 * 2 + 4 * 3);
		// The run sent everything: its summary is all that stays (2 facts of 2 entries).
		expect(store.size()).toBe(4);
	});

	it('two executions of the node at once in one process: their writes to the one list take turns, none is lost', async () => {
		const store = new FakeDeduplicationStore(20);
		const params = sends(20);
		const executions = [newExecution(store), newExecution(store)];
		const runs = await Promise.all(
			executions.map(async (execution) => await runTry(execution, params, answersFor(20))),
		);
		expect(runs.map((run) => run.output?.[0]?.length)).toEqual([20, 20]);
		const retries = await Promise.all(
			executions.map(async (execution) => await runTry(crashRetry(execution), params, [])),
		);
		expect(retries.map((retry) => retry.requests.length)).toEqual([0, 0]);
	});

	it('a claim n8n cannot record: that item is not sent, and the error says so', async () => {
		const store = new FakeDeduplicationStore();
		const execution = newExecution(store);
		const helpers = store.helpersFor('wf-1', 'node-1');
		vi.spyOn(store, 'helpersFor').mockReturnValue({
			...helpers,
			checkProcessedAndRecord: async () => {
				throw new Error('SQLITE_BUSY: database is locked');
			},
		});
		const result = await runTry(execution, [send(phones(1)[0])], answersFor(1));
		expect(result.requests).toHaveLength(0);
		expect(result.error?.message).toBe(
			'n8n could not record the delivery before making it, so it was not made: SQLITE_BUSY: database is locked',
		);
	});

	it('a store that refuses the row as a duplicate every time: the call is made three times, then the item is not sent', async () => {
		const store = new FakeDeduplicationStore();
		// A workflow of its own: the process now knows another process writes this node's list.
		const execution = newExecution(store, { workflowId: 'wf-duplicate-rows' });
		const helpers = store.helpersFor('wf-1', 'node-1');
		let calls = 0;
		vi.spyOn(store, 'helpersFor').mockReturnValue({
			...helpers,
			checkProcessedAndRecord: async () => {
				calls++;
				throw Object.assign(
					new Error('SQLITE_CONSTRAINT: UNIQUE constraint failed: processed_data'),
					{
						code: 'SQLITE_CONSTRAINT',
					},
				);
			},
		});
		const result = await runTry(execution, [send(phones(1)[0])], answersFor(1));
		expect(result.requests).toHaveLength(0);
		expect(calls).toBe(3);
		expect(result.error?.message).toBe(
			'n8n could not record the delivery before making it, so it was not made: SQLITE_CONSTRAINT: UNIQUE constraint failed: processed_data',
		);
	});
});

describe('every delivering operation keeps the record', () => {
	it('Order → Refund: a retried refund moves money once', async () => {
		const params = [refund('wa_ord_1', 12000), refund('wa_ord_2', 12000)];
		const original = newExecution();
		const first = await runTry(original, params, [
			{ statusCode: 201, body: { id: 'rfnd_1', status: 'pending' } },
			serverError,
		]);
		expect(first.error?.httpCode).toBe('500');
		// Peach is asked about the unknown one only, and its order (as documented: id and status) cannot tell.
		const retry = await runTry(
			editorRetry(original),
			params,
			[{ statusCode: 200, body: { id: 'wa_ord_2', status: 'completed' } }],
			{ continueOnFail: true },
		);
		expect(retry.requests.map((request) => `${request.options.method} ${request.url}`)).toEqual([
			'GET https://peach.test/api/v1/orders/wa_ord_2',
		]);
		const [items] = retry.output as INodeExecutionData[][];
		expect(items[0].json).toMatchObject({ id: 'rfnd_1', alreadySent: { recipient: 'wa_ord_1' } });
		expect(items[1].json.outcomeUnknown).toMatchObject({ recipient: 'wa_ord_2' });
	});

	it('Broadcast → Launch from all items: a retry does not launch the broadcast again', async () => {
		const params = phones(3).map((phone) => springSale(phone));
		const original = newExecution();
		await runTry(original, params, [{ statusCode: 200, body: { event_id: 'evt_b' } }]);
		// The workflow failed in a later node and was retried from the start (a crash, say).
		const retry = await runTry(crashRetry(original), params, []);
		expect(retry.error).toBeUndefined();
		expect(retry.requests).toHaveLength(0);
		expect((retry.output as INodeExecutionData[][])[0][0].pairedItem).toEqual([
			{ item: 0 },
			{ item: 1 },
			{ item: 2 },
		]);
	});

	it('Send and Wait: a question an earlier try sent is not sent again, and this run does not wait for it', async () => {
		const params = [
			{
				resource: 'templateMessage',
				operation: 'sendAndWait',
				phoneNumber: '+919988776655',
				templateId: locator('wat_approval'),
				message: 'Refund order A-7?',
				messageVariable: 'message',
				linkVariable: 'approval_link',
			},
		];
		const ask = throwingRunner({ templates: { wat_approval: approvalRequest } });
		const original = newExecution();
		const first = await ask(params, [accepted('evt_q')], { lineage: original });
		expect(first.putExecutionToWait).toHaveBeenCalledTimes(1);
		const retry = await ask(params, [], { lineage: crashRetry(original) });
		const [[item]] = retry.output;
		// The template is read again (for the link's place), nothing is sent.
		expect(retry.templateReads).toEqual(['wat_approval']);
		expect(retry.requests).toEqual([]);
		expect(retry.putExecutionToWait).not.toHaveBeenCalled();
		expect((item.json as IDataObject).waitError).toBe(
			'The question was already sent by the execution this one retries, and its link answers that execution, so this one does not wait. Nothing was sent again: to ask again, start a new execution.',
		);
	});
});

describe('an unknown outcome is never a success', () => {
	it('the Retry of a crashed execution sends the rest, then fails naming the unknown deliveries and the sent ones', async () => {
		// Unknown: Peach does not list them.
		const { execution, params, crashed } = await crashingRun(12, 5, 2, false);
		const retry = await runTry(crashRetry(execution), params, answersFor(12));
		expect(twice(messagesPerPhone(crashed, retry))).toEqual([]);
		expect(retry.requests).toHaveLength(12 - 5 - 2);
		expect(retry.output).toBeUndefined();
		expect(retry.error?.message).toBe(
			`The outcome of item 5 (${phones(12)[5]}) is unknown: an earlier try's request may have reached Peach`,
		);
		expect(retry.error?.description).toContain(
			'Outcome unknown since an earlier try, not sent again: items 5 and 6.',
		);
		expect(retry.error?.description).toContain('Check it in the Peach web app');
		// What was sent, by this try and before the crash, is listed with the error; and what is unknown.
		expect(retry.error?.context.alreadySent).toHaveLength(12 - 2);
		expect(retry.error?.context.outcomeUnknown).toEqual([
			{ item: 5, recipient: phones(12)[5] },
			{ item: 6, recipient: phones(12)[6] },
		]);
	});

	it('Retry On Fail: a server error leaves item 2 unknown; every later try sends the rest once, never item 2', async () => {
		// Each later try fails again.
		const execution = newExecution();
		const params = sends(4, 1);
		const first = await runTry(execution, params, answersFor(4, { 1: serverError }));
		const second = await runTry(execution, params, answersFor(4).slice(2));
		const third = await runTry(execution, params, []);
		expect(
			[first, second, third].map((result) => result.error?.httpCode ?? result.error?.message),
		).toEqual([
			'500',
			`The outcome of item 1 (${phones(4)[1]}) is unknown: an earlier try's request may have reached Peach`,
			`The outcome of item 1 (${phones(4)[1]}) is unknown: an earlier try's request may have reached Peach`,
		]);
		expect(twice(messagesPerPhone(first, second, third))).toEqual([]);
		expect(messagesPerPhone(first, second, third).size).toBe(4);
	});

	it('with Continue On Fail, an unknown outcome is an error item (for the error output), the others are sent', async () => {
		const { execution, params } = await crashingRun(6, 2, 1, false);
		const retry = await runTry(crashRetry(execution), params, answersFor(6), {
			continueOnFail: true,
		});
		const [items] = retry.output as INodeExecutionData[][];
		expect(items.map((item) => [item.pairedItem, item.error !== undefined])).toEqual([
			[{ item: 0 }, false],
			[{ item: 1 }, false],
			[{ item: 2 }, true],
			[{ item: 3 }, false],
			[{ item: 4 }, false],
			[{ item: 5 }, false],
		]);
		expect(items[2].json).toMatchObject({
			error: `The outcome of item 2 (${phones(6)[2]}) is unknown: an earlier try's request may have reached Peach`,
			outcomeUnknown: { recipient: phones(6)[2] },
		});
	});
});
