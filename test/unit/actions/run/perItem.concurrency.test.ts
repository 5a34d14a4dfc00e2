import { sleep } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import type { ItemOperation } from '../../../../nodes/Peach/actions/operation/node.type';
import { PeachInputError } from '../../../../nodes/Peach/helpers/inputError';
import { Width, WIDTH } from '../../../../nodes/Peach/transport/width';
import { context, option, registryWith, router } from '../oneOperation';

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

	it('by default every item at once under the ceiling; 32 to start after a recent 429; one at a time when set to 1', async () => {
		// Every item at once when fewer than the ceiling (200) and nothing held the process back; 32 to start
		// with after a 429 in this process lately.
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

	it('Continue On Fail keeps every item in order; without it, the first failure in input order is the error', async () => {
		// And no new item starts after it.
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
