import type { NodeApiError } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import type {
	BatchOperation,
	ItemOperation,
} from '../../../nodes/Peach/actions/operation/node.type';
import { PeachInputError } from '../../../nodes/Peach/helpers/inputError';
import { context, failure, option, registryWith, router } from './oneOperation';

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
