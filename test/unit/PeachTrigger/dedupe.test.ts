import type { IDataObject } from 'n8n-workflow';
import { afterEach, describe, expect, it, vi } from 'vitest';

import {
	DEDUPE_LIMITS,
	deliveryKey,
	identicalWindowMs,
	seenBefore,
	windowMs,
} from '../../../nodes/PeachTrigger/dedupe';
import { decideEvent } from '../../../nodes/PeachTrigger/events';
import { PeachTrigger } from '../../../nodes/PeachTrigger/PeachTrigger.node';
import { call } from './webhookHarness';

const delivered = (id: string | number, extra: IDataObject = {}) => ({
	type: 'message_delivery.sent',
	data: {
		message: { id, status: 'delivered', type: 'template_message', reason: null, ...extra },
		contact: { phone_number: '+919988776655' },
	},
});

const keyOf = (body: { type: string; data: IDataObject }) => deliveryKey(body, decideEvent(body));

const dedupeOn = { ignoreDuplicates: true };

/** Each test remembers in its own workflow, as separate workflows do. */
let workflows = 0;
const newWorkflow = () => `wf-dedupe-${++workflows}`;

/** Deliveries of message `id` to one new workflow with Ignore Duplicates on (one static data). */
function inOneWorkflow() {
	const staticData: IDataObject = {};
	const workflowId = newWorkflow();
	return (id: string) =>
		call({ body: delivered(id), parameters: dedupeOn, staticData, workflowId });
}

/** n8n restarted: a fresh process has nothing in memory; only the saved static data remains. */
async function restarted() {
	vi.resetModules();
	return (await import('./webhookHarness')).call;
}

/** `seenBefore` at a given moment (the clock is n8n's process clock). */
function seenAt(at: number, ...args: Parameters<typeof seenBefore>) {
	vi.useFakeTimers({ toFake: ['Date'] });
	vi.setSystemTime(at);
	return seenBefore(...args);
}
afterEach(() => vi.useRealTimers());

describe('Ignore Duplicates: the identity of a delivery', () => {
	it('message delivery: event + message type + id + status; other fields do not matter', () => {
		const first = keyOf(delivered('cmsg_1', { updated_at: '2026-11-01T10:00:00Z' }));
		expect(first.basis).toBe('id');
		expect(keyOf(delivered('cmsg_1', { updated_at: '2026-11-01T10:05:00Z' })).key).toBe(first.key);
		expect(keyOf(delivered('cmsg_2')).key).not.toBe(first.key);
		// An interactive message's integer id 1 is not the template message "1".
		expect(keyOf(delivered(1)).key).not.toBe(keyOf(delivered('1')).key);
		const failed = delivered('cmsg_1', { status: 'failed' });
		expect(keyOf(failed).key).not.toBe(first.key);
	});

	it('order and flow execution: event + id + status', () => {
		const order = { type: 'order.completed', data: { id: 'wa_ord_1', status: 'completed' } };
		expect(keyOf(order).basis).toBe('id');
		expect(keyOf({ ...order, data: { ...order.data, contact: { name: 'x' } } }).key).toBe(
			keyOf(order).key,
		);
		expect(keyOf({ ...order, type: 'order.canceled' }).key).not.toBe(keyOf(order).key);
		const flow = { type: 'flow_execution.completed', data: { id: 'fe_1', status: 'created' } };
		expect(keyOf(flow).basis).toBe('id');
		expect(keyOf({ ...flow, type: 'flow_execution.pending' }).key).not.toBe(keyOf(flow).key);
	});

	it('AI agent events, replies and events without an id: the whole body, in any key order', () => {
		const agent = { type: 'ai_flow_execution.completed', data: { id: 'aiflw_1', name: 'Bot' } };
		expect(keyOf(agent).basis).toBe('body');
		expect(keyOf({ type: agent.type, data: { name: 'Bot', id: 'aiflw_1' } }).key).toBe(
			keyOf(agent).key,
		);
		const reply = (text: string) =>
			delivered('cmsg_1', { status: 'replied', reply: { text } }) as {
				type: string;
				data: IDataObject;
			};
		expect(keyOf(reply('yes')).basis).toBe('body');
		expect(keyOf(reply('yes')).key).not.toBe(keyOf(reply('no')).key);
		expect(keyOf({ type: 'order.completed', data: {} }).basis).toBe('body');
	});
});

describe('Ignore Duplicates: the webhook', () => {
	it('starts the first delivery, answers the same one again with 200 and starts nothing', async () => {
		const deliver = inOneWorkflow();
		const first = await deliver('cmsg_1');
		expect(first.result.workflowData?.[0]).toHaveLength(1);
		const again = await deliver('cmsg_1');
		expect(again.result).toEqual({
			webhookResponse: {
				received: true,
				ignored: 'duplicate: the same event, ID and status was received before',
			},
		});
		const next = await deliver('cmsg_2');
		expect(next.result.workflowData?.[0]).toHaveLength(1);
	});

	it('concurrent copies of one delivery start exactly one execution', async () => {
		const deliver = inOneWorkflow();
		const results = await Promise.all(Array.from({ length: 50 }, () => deliver('cmsg_9')));
		expect(results.filter(({ result }) => result.workflowData !== undefined)).toHaveLength(1);
	});

	it('survives a restart through the static data n8n saves', async () => {
		const staticData: IDataObject = {};
		const workflowId = newWorkflow();
		await call({ body: delivered('cmsg_3'), parameters: dedupeOn, staticData, workflowId });
		expect(Object.keys(staticData.seenDeliveries as IDataObject)).toHaveLength(1);
		const callAfterRestart = await restarted();
		const afterRestart = await callAfterRestart({
			body: delivered('cmsg_3'),
			parameters: dedupeOn,
			staticData,
			workflowId,
		});
		expect(afterRestart.result.workflowData).toBeUndefined();
		// Without the static data, the restarted process would have run it again.
		const withoutSaved = await (
			await restarted()
		)({
			body: delivered('cmsg_3'),
			parameters: dedupeOn,
			staticData: {},
			workflowId,
		});
		expect(withoutSaved.result.workflowData?.[0]).toHaveLength(1);
	});

	it('each save holds what concurrent requests saw, though each loaded the static data before them', () => {
		// n8n loads the static data when a delivery arrives and saves it whole afterwards: the last save wins.
		const loadedByFirst: IDataObject = {};
		const loadedBySecond: IDataObject = {};
		const now = Date.parse('2026-11-01T10:00:00Z');
		expect(seenAt(now, 'race', 'first', 60_000, loadedByFirst)).toBe(false);
		expect(seenAt(now + 1, 'race', 'second', 60_000, loadedBySecond)).toBe(false);
		expect(Object.keys(loadedBySecond.seenDeliveries as IDataObject)).toEqual(['first', 'second']);
	});

	it('remembers per workflow and node: another workflow runs the same delivery', async () => {
		await call({ body: delivered('cmsg_4'), parameters: dedupeOn, workflowId: 'wf-a' });
		const other = await call({
			body: delivered('cmsg_4'),
			parameters: dedupeOn,
			workflowId: 'wf-b',
		});
		expect(other.result.workflowData?.[0]).toHaveLength(1);
	});

	it('runs a duplicate again after the window, and test deliveries are never ignored', async () => {
		const staticData: IDataObject = {};
		const start = Date.parse('2026-11-01T10:00:00Z');
		expect(seenAt(start, 's', 'k', 60_000, staticData)).toBe(false);
		expect(seenAt(start + 59_000, 's', 'k', 60_000, staticData)).toBe(true);
		expect(seenAt(start + 61_000, 's', 'k', 60_000, staticData)).toBe(false);
		vi.useRealTimers();

		const body = delivered('cmsg_5');
		const workflowId = newWorkflow();
		await call({ body, parameters: dedupeOn, mode: 'manual', workflowId });
		const test = await call({ body, parameters: dedupeOn, mode: 'manual', workflowId });
		expect(test.result.workflowData?.[0]).toHaveLength(1);
	});

	it('Duplicate Window: minutes to milliseconds, a day when missing or unusable', () => {
		expect(windowMs(5)).toBe(300_000);
		expect(windowMs(undefined)).toBe(86_400_000);
		for (const unusable of [0, -3, 'soon', Number.NaN]) expect(windowMs(unusable)).toBe(86_400_000);
	});

	it('off: every copy starts an execution', async () => {
		const off = { ignoreDuplicates: false };
		const workflowId = newWorkflow();
		await call({ body: delivered('cmsg_6'), parameters: off, workflowId });
		expect(
			(await call({ body: delivered('cmsg_6'), parameters: off, workflowId })).result
				.workflowData?.[0],
		).toHaveLength(1);
	});

	it('does not record deliveries it ignores for other reasons (unselected event)', async () => {
		const staticData: IDataObject = {};
		await call({
			body: delivered('cmsg_7'),
			parameters: { ...dedupeOn, events: ['order.completed'] },
			staticData,
		});
		expect(staticData.seenDeliveries).toBeUndefined();
	});

	it('keeps memory and static data bounded, newest kept', () => {
		const staticData: IDataObject = {};
		const now = Date.parse('2026-11-01T10:00:00Z');
		vi.useFakeTimers({ toFake: ['Date'] });
		for (let i = 0; i < DEDUPE_LIMITS.memoryPerNode + 50; i++) {
			vi.setSystemTime(now + i);
			seenBefore('bounded', `key-${i}`, 3_600_000, staticData);
		}
		expect(Object.keys(staticData.seenDeliveries as IDataObject)).toHaveLength(
			DEDUPE_LIMITS.persisted,
		);
		const newest = `key-${DEDUPE_LIMITS.memoryPerNode + 49}`;
		expect(staticData.seenDeliveries).toHaveProperty(newest);
		// The oldest is gone from both records, so it counts as new again.
		expect(seenAt(now + 20_000, 'bounded', 'key-0', 3_600_000, staticData)).toBe(false);
		// A recent one is still known in memory even though static data dropped it.
		const recentInMemoryOnly = `key-${DEDUPE_LIMITS.memoryPerNode - 10}`;
		delete (staticData.seenDeliveries as IDataObject)[recentInMemoryOnly];
		expect(seenAt(now + 20_000, 'bounded', recentInMemoryOnly, 3_600_000, staticData)).toBe(true);
	}, 30_000); // 10,050 deliveries: a long test, not a timing assertion

	it('is on by default', async () => {
		const field = new PeachTrigger().description.properties.find(
			(p) => p.name === 'ignoreDuplicates',
		);
		expect(field?.default).toBe(true);
		// With the node's own defaults (no ignoreDuplicates given), a copy starts nothing.
		const workflowId = newWorkflow();
		const defaults = { ignoreDuplicates: undefined };
		await call({ body: delivered('cmsg_d'), parameters: defaults, workflowId });
		const copy = await call({ body: delivered('cmsg_d'), parameters: defaults, workflowId });
		expect(copy.result.workflowData).toBeUndefined();
	});

	it('two real escalations by one AI agent both run by default: their bodies are identical, they have no ID of their own', async () => {
		// Peach's documented AI agent payload: the agent only.
		const escalated = {
			type: 'ai_flow_execution.escalated',
			data: {
				id: 'aiflw_1',
				name: 'Support agent',
				app_type: 'AI App',
				status: 'published',
				description: 'Answers questions',
			},
		};
		const staticData: IDataObject = {};
		const workflowId = newWorkflow();
		const runs = [];
		for (let i = 0; i < 2; i++) {
			runs.push(await call({ body: escalated, parameters: dedupeOn, staticData, workflowId }));
		}
		expect(runs.map(({ result }) => result.workflowData?.[0]?.length)).toEqual([1, 1]);
		// Nothing is recorded for them.
		expect(staticData.seenDeliveries).toBeUndefined();
	});

	it('Identical Events Window: identical bodies within the minutes set are ignored (provider retries)', async () => {
		const escalated = { type: 'ai_flow_execution.escalated', data: { id: 'aiflw_1', name: 'Bot' } };
		const workflowId = newWorkflow();
		const parameters = { ...dedupeOn, options: { identicalWindow: 5 } };
		await call({ body: escalated, parameters, workflowId });
		const retry = await call({ body: escalated, parameters, workflowId });
		expect(retry.result).toEqual({
			webhookResponse: {
				received: true,
				ignored: 'duplicate: the same body was received before',
			},
		});
		expect(identicalWindowMs(5)).toBe(300_000);
		for (const off of [undefined, 0, -1, 'x']) expect(identicalWindowMs(off)).toBe(0);
	});
});
