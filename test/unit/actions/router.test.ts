import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeApiError, sleep } from 'n8n-workflow';
import { describe, expect, it, vi } from 'vitest';

import type {
	BatchOperation,
	DeliveringBatchOperation,
	DeliveringOperation,
	ItemOperation,
	PeachOperation,
	ResourceDefinition,
} from '../../../nodes/Peach/actions/node.type';
import { router as runRouter } from '../../../nodes/Peach/actions/router';
import { PeachInputError } from '../../../nodes/Peach/helpers/inputError';
import { Width, WIDTH } from '../../../nodes/Peach/transport/width';
import { createExecuteContext, node } from '../support/harness';

const option = { name: 'X', value: 'x', action: 'Do a thing', description: 'Does a thing' };

/** The registry the router reads: one resource whose one operation is the one under test. */
const registered = vi.hoisted(() => ({ resources: {} as Record<string, unknown> }));
vi.mock('../../../nodes/Peach/actions/registry', async (importOriginal) => ({
	...(await importOriginal<object>()),
	get registry() {
		return registered.resources;
	},
}));

const registryWith = (operation: PeachOperation): Record<string, ResourceDefinition> => ({
	thing: { displayName: 'Thing', defaultOperation: 'x', operations: { x: operation } },
});

/** Runs the router over the items of `context` with `resources` as the node's registry. */
const router = {
	call: (context: IExecuteFunctions, resources: Record<string, ResourceDefinition>) => {
		registered.resources = resources;
		return runRouter.call(context, context.continueOnFail());
	},
};

/** The node's properties for that registry, so the harness resolves parameters as n8n would. */
const properties: INodeProperties[] = [
	{
		displayName: 'Resource',
		name: 'resource',
		type: 'options',
		options: [{ name: 'Thing', value: 'thing' }],
		default: 'thing',
	},
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		options: [option],
		default: 'x',
	},
	{
		displayName: 'Request Options',
		name: 'requestOptions',
		type: 'collection',
		default: {},
		options: [
			{ displayName: 'Max Concurrent Requests', name: 'concurrency', type: 'number', default: 5 },
		],
	},
];

function context(
	items: number,
	continueOnFail = false,
	requestOptions: Record<string, unknown> = {},
) {
	return createExecuteContext({
		params: { resource: 'thing', operation: 'x', requestOptions },
		items,
		continueOnFail,
		properties,
	}).context as IExecuteFunctions;
}

const failure = (itemIndex: number, status = '503') =>
	new NodeApiError(
		node,
		{ message: 'down' },
		{
			message: `Peach had a server error (${status})`,
			description: "This is on Peach's side.",
			httpCode: status,
			itemIndex,
		},
	);

describe('router: the operation contract', () => {
	it('pairs one output per record of a per-item operation', async () => {
		const operation: ItemOperation = {
			option,
			properties: [],
			execute: async (itemIndex) => (itemIndex === 0 ? [{ id: 'a' }, { id: 'b' }] : { id: 'c' }),
		};
		const [output] = await router.call(context(2), registryWith(operation));
		expect(output).toEqual([
			{ json: { id: 'a' }, pairedItem: { item: 0 } },
			{ json: { id: 'b' }, pairedItem: { item: 0 } },
			{ json: { id: 'c' }, pairedItem: { item: 1 } },
		]);
	});

	it('a batch operation gets every item index at once; each output is paired to all its inputs', async () => {
		const seen: number[][] = [];
		const operation: BatchOperation = {
			option,
			properties: [],
			batch: true,
			executeBatch: async (indexes) => {
				seen.push(indexes);
				return [
					{ json: { broadcast: 'cmp_1' }, inputs: [0, 1, 3] },
					{ error: new PeachInputError('Phone Number', 'x', 'is bad', 'Fix it.'), inputs: [2] },
				];
			},
		};
		const [output] = await router.call(context(4, true), registryWith(operation));
		expect(seen).toEqual([[0, 1, 2, 3]]);
		expect(output).toEqual([
			{ json: { broadcast: 'cmp_1' }, pairedItem: [{ item: 0 }, { item: 1 }, { item: 3 }] },
			{
				json: { error: 'Phone Number "x" is bad', description: 'Fix it.' },
				// On the item itself: n8n's error output takes it from there.
				error: expect.objectContaining({ message: 'Phone Number "x" is bad' }),
				pairedItem: { item: 2 },
			},
		]);
	});

	it('a failed batch: an error item per input item under Continue On Fail, else the error', async () => {
		const error = failure(0);
		const operation: BatchOperation = {
			option,
			properties: [],
			batch: true,
			executeBatch: async () => {
				throw error;
			},
		};
		const [output] = await router.call(context(2, true), registryWith(operation));
		expect(output.map((item) => [item.json.error, item.json.httpCode, item.pairedItem])).toEqual([
			['Peach had a server error (503)', '503', { item: 0 }],
			['Peach had a server error (503)', '503', { item: 1 }],
		]);
		await expect(router.call(context(2), registryWith(operation))).rejects.toBe(error);
	});

	it('an error item of a batch stops the node without Continue On Fail, naming its first input', async () => {
		const operation: BatchOperation = {
			option,
			properties: [],
			batch: true,
			executeBatch: async () => [
				{ error: new PeachInputError('Phone Number', 'x', 'is bad', 'Fix it.'), inputs: [5, 6] },
			],
		};
		const error = await router.call(context(7), registryWith(operation)).catch((e: unknown) => e);
		expect((error as NodeApiError).message).toBe('Phone Number "x" is bad');
		expect((error as NodeApiError).context.itemIndex).toBe(5);
	});
});

describe('router: Max Concurrent Requests', () => {
	/** An operation whose items take different times; it records how many run at once. */
	function timedOperation(durations: number[], fail: number[] = []) {
		const state = { running: 0, most: 0, started: [] as number[] };
		const operation: ItemOperation = {
			option,
			properties: [],
			execute: async (itemIndex) => {
				state.started.push(itemIndex);
				state.running++;
				state.most = Math.max(state.most, state.running);
				await sleep(durations[itemIndex] ?? 1);
				state.running--;
				if (fail.includes(itemIndex))
					throw new PeachInputError('Item', itemIndex, 'failed', 'Fix it.');
				return { itemIndex };
			},
		};
		return { operation, state };
	}

	it('runs up to N items at once and keeps the outputs in input order, each paired', async () => {
		const { operation, state } = timedOperation([40, 5, 25, 1, 10, 1]);
		const [output] = await router.call(
			context(6, false, { concurrency: 3 }),
			registryWith(operation),
		);
		expect(state.most).toBe(3);
		expect(output.map((item) => [item.json.itemIndex, item.pairedItem])).toEqual(
			[0, 1, 2, 3, 4, 5].map((index) => [index, { item: index }]),
		);
	});

	it('by default every item at once when fewer than the ceiling (200) and nothing held the process back; 32 to start with after a 429 in it lately; one at a time when set to 1', async () => {
		const quiet = timedOperation(Array.from({ length: 40 }, () => 5));
		await router.call(context(40), registryWith(quiet.operation));
		expect(quiet.state.most).toBe(40);
		// Another execution of this process is refused (429): the next ones start narrow.
		new Width(200).answered(100, true);
		const heldBack = timedOperation(Array.from({ length: 40 }, () => 5));
		await router.call(context(40), registryWith(heldBack.operation));
		expect(heldBack.state.most).toBe(WIDTH.start);
		const one = timedOperation([5, 5, 5]);
		await router.call(context(3, false, { concurrency: 1 }), registryWith(one.operation));
		expect(one.state.most).toBe(1);
	});

	it('Continue On Fail keeps every item in order; without it, the first failure in input order is the error and no new item starts', async () => {
		const cof = timedOperation([20, 1, 1, 1], [1]);
		const [output] = await router.call(
			context(4, true, { concurrency: 2 }),
			registryWith(cof.operation),
		);
		expect(output.map((item) => item.json.itemIndex ?? item.json.error)).toEqual([
			0,
			'Item 1 failed',
			2,
			3,
		]);
		const stop = timedOperation([20, 1, 1, 1, 1, 1], [1]);
		const error = await router
			.call(context(6, false, { concurrency: 2 }), registryWith(stop.operation))
			.catch((e: unknown) => e);
		expect((error as Error).message).toBe('Item 1 failed');
		expect(stop.state.started).toEqual([0, 1]);
	});
});

/**
 * A delivering operation over items whose input is a phone number and a flag: `bad` fails its check,
 * `refuse` fails its delivery (as Peach's 503 would), `slow` takes time. It records every call.
 */
function deliveringOperation(
	inputs: Array<{ phone: string; bad?: boolean; refuse?: boolean; slow?: number }>,
) {
	const log: string[] = [];
	const state = { running: 0, most: 0 };
	const runningFor = new Set<string>();
	let overlapSameRecipient = false;
	const operation: DeliveringOperation<{ phone: string }> = {
		option,
		properties: [],
		delivers: true,
		prepare: async (itemIndex) => {
			log.push(`prepare ${itemIndex}`);
			if (inputs[itemIndex].bad) {
				throw new PeachInputError(
					'Phone Number',
					inputs[itemIndex].phone,
					'has no + and country code',
					'Write it as +919988776655.',
				);
			}
			return { phone: inputs[itemIndex].phone };
		},
		recipientOf: (prepared) => prepared.phone,
		deliver: async (prepared, itemIndex, permit) => {
			expect(permit).toBeDefined();
			log.push(`deliver ${itemIndex}`);
			if (runningFor.has(prepared.phone)) overlapSameRecipient = true;
			runningFor.add(prepared.phone);
			state.running++;
			state.most = Math.max(state.most, state.running);
			await sleep(inputs[itemIndex].slow ?? 1);
			state.running--;
			runningFor.delete(prepared.phone);
			if (inputs[itemIndex].refuse) throw failure(itemIndex);
			return { status: 'success', event_id: `evt_${itemIndex + 1}` };
		},
	};
	return { operation, log, state, overlapped: () => overlapSameRecipient };
}

describe('router: operations that deliver', () => {
	it('checks every item before the first delivery: one bad item sends nothing and says so', async () => {
		const { operation, log } = deliveringOperation([
			{ phone: '+911' },
			{ phone: '+912' },
			{ phone: '9988776655', bad: true },
		]);
		const error = (await router
			.call(context(3), registryWith(operation))
			.catch((e: unknown) => e)) as NodeApiError;
		expect(log).toEqual(['prepare 0', 'prepare 1', 'prepare 2']);
		expect(error.message).toBe('Phone Number "9988776655" has no + and country code');
		expect(error.context.itemIndex).toBe(2);
		expect(error.description).toBe(
			'Write it as +919988776655. Nothing was sent: every item is checked before the first one is sent.',
		);
	});

	it('names every bad item at once', async () => {
		const { operation } = deliveringOperation([
			{ phone: '1', bad: true },
			{ phone: '+912' },
			{ phone: '3', bad: true },
		]);
		const error = (await router
			.call(context(3), registryWith(operation))
			.catch((e: unknown) => e)) as NodeApiError;
		expect(error.context.itemIndex).toBe(0);
		expect(error.description).toContain(
			'Also to fix: item 2: Phone Number "3" has no + and country code.',
		);
	});

	it('with Continue On Fail, a bad item is an error item and the good ones are delivered', async () => {
		const { operation, log } = deliveringOperation([
			{ phone: '+911' },
			{ phone: '2', bad: true },
			{ phone: '+913' },
		]);
		const [output] = await router.call(context(3, true), registryWith(operation));
		expect(log.filter((line) => line.startsWith('deliver'))).toEqual(['deliver 0', 'deliver 2']);
		expect(output.map((item) => [item.json.event_id ?? item.json.error, item.pairedItem])).toEqual([
			['evt_1', { item: 0 }],
			['Phone Number "2" has no + and country code', { item: 1 }],
			['evt_3', { item: 2 }],
		]);
	});

	it("a refused delivery ends the run: the error lists what was sent with Peach's IDs, and what was not", async () => {
		const { operation, log } = deliveringOperation([
			{ phone: '+911' },
			{ phone: '+912' },
			{ phone: '+913', refuse: true },
			{ phone: '+914' },
			{ phone: '+915' },
		]);
		const error = (await router
			.call(context(5, false, { concurrency: 1 }), registryWith(operation))
			.catch((e: unknown) => e)) as NodeApiError;
		expect(log.filter((line) => line.startsWith('deliver'))).toEqual([
			'deliver 0',
			'deliver 1',
			'deliver 2',
		]);
		expect(error.message).toBe('Peach had a server error (503)');
		expect(error.context.itemIndex).toBe(2);
		expect(error.description).toBe(
			"This is on Peach's side. Already sent: item 0 (event_id evt_1), item 1 (event_id evt_2). Not sent: items 3 and 4. Item 2 may have reached Peach, so a Retry of this execution (or Retry On Fail) does not send it again; it sends the items not sent, and never what was sent.",
		);
		expect(error.description).not.toMatch(/run the workflow again|try again/i);
		expect(error.context.alreadySent).toEqual([
			{ item: 0, event_id: 'evt_1' },
			{ item: 1, event_id: 'evt_2' },
		]);
	});

	it('a long list of items not sent is named in ranges, never item by item', async () => {
		const inputs = Array.from({ length: 40 }, (_, index) => ({
			phone: `+91${index}`,
			refuse: index === 2,
		}));
		const { operation } = deliveringOperation(inputs);
		const error = (await router
			.call(context(40, false, { concurrency: 1 }), registryWith(operation))
			.catch((e: unknown) => e)) as NodeApiError;
		expect(error.description).toContain('Not sent: items 3 to 39.');
	});

	it('with Continue On Fail, a refused delivery is an error item; the others are delivered', async () => {
		const { operation } = deliveringOperation([
			{ phone: '+911' },
			{ phone: '+912', refuse: true },
			{ phone: '+913' },
		]);
		const [output] = await router.call(context(3, true), registryWith(operation));
		expect(output.map((item) => item.json.event_id ?? item.json.httpCode)).toEqual([
			'evt_1',
			'503',
			'evt_3',
		]);
	});

	it("different recipients at the same time, one recipient's items one after another in input order", async () => {
		const inputs = [
			{ phone: '+91A', slow: 30 },
			{ phone: '+91B', slow: 5 },
			{ phone: '+91A', slow: 5 },
			{ phone: '+91C', slow: 5 },
			{ phone: '+91A', slow: 1 },
			{ phone: '+91B', slow: 1 },
		];
		const { operation, log, state, overlapped } = deliveringOperation(inputs);
		const [output] = await router.call(
			context(6, false, { concurrency: 3 }),
			registryWith(operation),
		);
		const order = log
			.filter((line) => line.startsWith('deliver'))
			.map((line) => Number(line.slice(8)));
		const forA = order.filter((index) => inputs[index].phone === '+91A');
		const forB = order.filter((index) => inputs[index].phone === '+91B');
		expect(forA).toEqual([0, 2, 4]);
		expect(forB).toEqual([1, 5]);
		expect(overlapped()).toBe(false);
		expect(state.most).toBe(3);
		expect(output.map((item) => [item.json.event_id, item.pairedItem])).toEqual(
			[0, 1, 2, 3, 4, 5].map((index) => [`evt_${index + 1}`, { item: index }]),
		);
	});

	it('follows what was delivered, after every delivery; follow only adds to the outputs', async () => {
		const { operation, log } = deliveringOperation([{ phone: '+911' }, { phone: '+912' }]);
		const followed: number[][] = [];
		const withFollow: DeliveringOperation<{ phone: string }> = {
			...operation,
			follow: async (delivered) => {
				log.push('follow');
				followed.push(delivered.map((entry) => entry.itemIndex));
				for (const entry of delivered) entry.json.deliveryStatus = 'delivered';
			},
		};
		const [output] = await router.call(context(2), registryWith(withFollow));
		expect(log.slice(-3)).toEqual(['deliver 0', 'deliver 1', 'follow']);
		expect(followed).toEqual([[0, 1]]);
		// What follow found leads the output too: the outcome is the delivery's status.
		expect(output.map((item) => item.json)).toEqual([
			{
				to: '+911',
				outcome: 'delivered',
				peachId: 'evt_1',
				status: 'success',
				event_id: 'evt_1',
				deliveryStatus: 'delivered',
			},
			{
				to: '+912',
				outcome: 'delivered',
				peachId: 'evt_2',
				status: 'success',
				event_id: 'evt_2',
				deliveryStatus: 'delivered',
			},
		]);
	});
});

describe('router: batch operations that deliver', () => {
	/** Launches to audiences: one delivery per item; item 0 (by default) has no audience. */
	function launches(refuseAt?: number, problemItems: number[] = [0]) {
		const sent: number[] = [];
		const operation: DeliveringBatchOperation<{ audience: string }> = {
			option,
			properties: [],
			batch: true,
			delivers: true,
			prepareBatch: async (indexes) => ({
				deliveries: indexes
					.filter((index) => !problemItems.includes(index))
					.map((index) => ({ inputs: [index], plan: { audience: `aud_${index}` } })),
				problems: problemItems
					.filter((index) => indexes.includes(index))
					.map((itemIndex) => ({
						itemIndex,
						error: new PeachInputError('Audience ID', '', 'is empty', 'Copy it.'),
					})),
			}),
			recipientOf: (plan) => plan.audience,
			deliver: async (_plan, itemIndex) => {
				if (itemIndex === refuseAt) throw failure(itemIndex);
				sent.push(itemIndex);
				return { event_id: `evt_${itemIndex + 1}` };
			},
		};
		return { operation, sent };
	}

	it('a problem in any item sends nothing', async () => {
		const { operation, sent } = launches();
		const error = (await router
			.call(context(3), registryWith(operation))
			.catch((e: unknown) => e)) as NodeApiError;
		expect(sent).toEqual([]);
		expect(error.message).toBe('Audience ID is empty');
		expect(error.description).toContain('Nothing was sent');
	});

	it('a failed launch after others lists the launched ones and the items not reached', async () => {
		const { operation, sent } = launches(2, []);
		const error = (await router
			.call(context(5, false, { concurrency: 1 }), registryWith(operation))
			.catch((e: unknown) => e)) as NodeApiError;
		expect(sent).toEqual([0, 1]);
		expect(error.context.itemIndex).toBe(2);
		expect(error.description).toBe(
			"This is on Peach's side. Already sent: item 0 (event_id evt_1), item 1 (event_id evt_2). Not sent: items 3 and 4. Item 2 may have reached Peach, so a Retry of this execution (or Retry On Fail) does not send it again; it sends the items not sent, and never what was sent.",
		);
	});

	it('under Continue On Fail, output i is input i: bad items and failed launches stay in their place', async () => {
		const { operation } = launches(3, [1]);
		const [output] = await router.call(context(5, true), registryWith(operation));
		expect(output.map((item) => [item.json.event_id ?? item.json.error, item.pairedItem])).toEqual([
			['evt_1', { item: 0 }],
			['Audience ID is empty', { item: 1 }],
			['evt_3', { item: 2 }],
			['Peach had a server error (503)', { item: 3 }],
			['evt_5', { item: 4 }],
		]);
	});

	it('one delivery for several items: its output is paired to all of them, in the place of the first', async () => {
		const operation: DeliveringBatchOperation<string[]> = {
			option,
			properties: [],
			batch: true,
			delivers: true,
			prepareBatch: async () => ({
				deliveries: [{ inputs: [1, 2, 3], key: 'all', plan: ['+911', '+912', '+913'] }],
				problems: [
					{ itemIndex: 0, error: new PeachInputError('Phone Number', 'x', 'is bad', 'Fix it.') },
				],
			}),
			deliver: async (plan) => ({ event_id: 'evt_b', contactCount: plan.length }),
		};
		const [output] = await router.call(context(4, true), registryWith(operation));
		expect(output).toEqual([
			{
				json: { outcome: 'not sent', error: 'Phone Number "x" is bad', description: 'Fix it.' },
				error: expect.objectContaining({ message: 'Phone Number "x" is bad' }),
				pairedItem: { item: 0 },
			},
			{
				json: { outcome: 'accepted', peachId: 'evt_b', event_id: 'evt_b', contactCount: 3 },
				pairedItem: [{ item: 1 }, { item: 2 }, { item: 3 }],
			},
		]);
	});
});
