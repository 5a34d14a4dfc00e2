import type { IExecuteFunctions } from 'n8n-workflow';
import { NodeApiError, sleep } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import type {
	BatchOperation,
	ItemOperation,
	ResourceDefinition,
} from '../../nodes/Peach/actions/node.type';
import { ItemsWithBinary } from '../../nodes/Peach/actions/node.type';
import { nodeProperties } from '../../nodes/Peach/actions/registry';
import { router } from '../../nodes/Peach/actions/router';
import { PeachInputError } from '../../nodes/Peach/helpers/inputError';
import { createExecuteContext, node } from './harness';

const option = { name: 'X', value: 'x', action: 'Do a thing', description: 'Does a thing' };

/** A registry with one resource whose operation is the one under test. */
const registryWith = (
	operation: ItemOperation | BatchOperation,
): Record<string, ResourceDefinition> => ({
	thing: { displayName: 'Thing', defaultOperation: 'x', operations: { x: operation } },
});

/** The node's properties for such a registry, so the harness resolves parameters as n8n would. */
const properties = nodeProperties(
	registryWith({ option, description: [], execute: async () => ({}) }),
	'thing',
);

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

describe('router: the operation contract', () => {
	it('pairs one output per record of a per-item operation, and keeps binary data', async () => {
		const operation: ItemOperation = {
			option,
			description: [],
			execute: async (itemIndex) =>
				itemIndex === 0
					? [{ id: 'a' }, { id: 'b' }]
					: new ItemsWithBinary([
							{
								json: { fileName: 'a.pdf' },
								binary: { data: { data: 'AA==', mimeType: 'application/pdf' } },
							},
						]),
		};
		const [output] = await router.call(context(2), registryWith(operation));
		expect(output).toEqual([
			{ json: { id: 'a' }, pairedItem: { item: 0 } },
			{ json: { id: 'b' }, pairedItem: { item: 0 } },
			{
				json: { fileName: 'a.pdf' },
				binary: { data: { data: 'AA==', mimeType: 'application/pdf' } },
				pairedItem: { item: 1 },
			},
		]);
	});

	it('a batch operation gets every item index at once; each output is paired to all its inputs', async () => {
		const seen: number[][] = [];
		const operation: BatchOperation = {
			option,
			description: [],
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
				pairedItem: { item: 2 },
			},
		]);
	});

	it('a failed batch: an error item per input item under Continue On Fail, else the error', async () => {
		const failure = new NodeApiError(
			node,
			{ message: 'down' },
			{ message: 'down', httpCode: '503' },
		);
		const operation: BatchOperation = {
			option,
			description: [],
			batch: true,
			executeBatch: async () => {
				throw failure;
			},
		};
		const [output] = await router.call(context(2, true), registryWith(operation));
		expect(output.map((item) => [item.json.error, item.json.httpCode, item.pairedItem])).toEqual([
			['down', '503', { item: 0 }],
			['down', '503', { item: 1 }],
		]);
		await expect(router.call(context(2), registryWith(operation))).rejects.toBe(failure);
	});

	it('an error item of a batch stops the node without Continue On Fail, naming its first input', async () => {
		const operation: BatchOperation = {
			option,
			description: [],
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
			description: [],
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

	it('one at a time by default', async () => {
		const { operation, state } = timedOperation([5, 5, 5]);
		await router.call(context(3), registryWith(operation));
		expect(state.most).toBe(1);
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
