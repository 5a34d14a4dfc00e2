import type { NodeApiError } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import type { DeliveringOperation } from '../../../../nodes/Peach/actions/operation/node.type';
import { PeachInputError } from '../../../../nodes/Peach/helpers/inputError';
import { pairedOutcomes } from '../../support/harness';
import { context, failure, option, registryWith, router } from '../oneOperation';

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
			'Also to fix: Phone Number "3" has no + and country code (item 2).',
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
		expect(pairedOutcomes(output, 'event_id')).toEqual([
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
