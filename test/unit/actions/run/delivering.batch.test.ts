import type { NodeApiError } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import type { DeliveringBatchOperation } from '../../../../nodes/Peach/actions/operation/node.type';
import { PeachInputError } from '../../../../nodes/Peach/helpers/inputError';
import { pairedOutcomes } from '../../support/harness';
import { context, failure, option, registryWith, router } from '../oneOperation';

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
		expect(pairedOutcomes(output, 'event_id')).toEqual([
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
