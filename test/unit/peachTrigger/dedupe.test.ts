import type { IDataObject } from 'n8n-workflow';
import { beforeEach, describe, expect, it } from 'vitest';

import {
	DEDUPE_LIMITS,
	deliveryKey,
	forgetSeenDeliveries,
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

beforeEach(() => forgetSeenDeliveries());

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
		// Two conversations of the same agent differ in their body, so both run.
		expect(keyOf({ ...agent, data: { ...agent.data, conversation: 2 } }).key).not.toBe(
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
		const staticData: IDataObject = {};
		const first = await call({ body: delivered('cmsg_1'), parameters: dedupeOn, staticData });
		expect(first.result.workflowData?.[0]).toHaveLength(1);
		const again = await call({ body: delivered('cmsg_1'), parameters: dedupeOn, staticData });
		expect(again.result).toEqual({
			webhookResponse: {
				received: true,
				ignored: 'duplicate: the same event, ID and status was received before',
			},
		});
		const next = await call({ body: delivered('cmsg_2'), parameters: dedupeOn, staticData });
		expect(next.result.workflowData?.[0]).toHaveLength(1);
	});

	it('concurrent copies of one delivery start exactly one execution', async () => {
		const staticData: IDataObject = {};
		const results = await Promise.all(
			Array.from({ length: 50 }, () =>
				call({ body: delivered('cmsg_9'), parameters: dedupeOn, staticData }),
			),
		);
		expect(results.filter(({ result }) => result.workflowData !== undefined)).toHaveLength(1);
	});

	it('survives a restart through the static data n8n saves', async () => {
		const staticData: IDataObject = {};
		await call({ body: delivered('cmsg_3'), parameters: dedupeOn, staticData });
		expect(Object.keys(staticData.seenDeliveries as IDataObject)).toHaveLength(1);
		forgetSeenDeliveries(); // n8n restarted: memory is gone, the static data was saved
		const afterRestart = await call({
			body: delivered('cmsg_3'),
			parameters: dedupeOn,
			staticData,
		});
		expect(afterRestart.result.workflowData).toBeUndefined();
	});

	it('each save holds what concurrent requests saw, though each loaded the static data before them', () => {
		// n8n loads the static data when a delivery arrives and saves it whole afterwards: the last save wins.
		const loadedByFirst: IDataObject = {};
		const loadedBySecond: IDataObject = {};
		const now = Date.parse('2026-11-01T10:00:00Z');
		expect(seenBefore('race', 'first', 60_000, loadedByFirst, now)).toBe(false);
		expect(seenBefore('race', 'second', 60_000, loadedBySecond, now + 1)).toBe(false);
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
		expect(seenBefore('s', 'k', 60_000, staticData, start)).toBe(false);
		expect(seenBefore('s', 'k', 60_000, staticData, start + 59_000)).toBe(true);
		expect(seenBefore('s', 'k', 60_000, staticData, start + 61_000)).toBe(false);

		const body = delivered('cmsg_5');
		await call({ body, parameters: dedupeOn, mode: 'manual' });
		const test = await call({ body, parameters: dedupeOn, mode: 'manual' });
		expect(test.result.workflowData?.[0]).toHaveLength(1);
	});

	it('Duplicate Window: minutes to milliseconds, a day when missing or unusable', () => {
		expect(windowMs(5)).toBe(300_000);
		expect(windowMs(undefined)).toBe(86_400_000);
		for (const unusable of [0, -3, 'soon', Number.NaN]) expect(windowMs(unusable)).toBe(86_400_000);
	});

	it('off: every copy starts an execution', async () => {
		const off = { ignoreDuplicates: false };
		await call({ body: delivered('cmsg_6'), parameters: off });
		expect(
			(await call({ body: delivered('cmsg_6'), parameters: off })).result.workflowData?.[0],
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
		for (let i = 0; i < DEDUPE_LIMITS.memoryPerNode + 50; i++) {
			seenBefore('bounded', `key-${i}`, 3_600_000, staticData, now + i);
		}
		expect(Object.keys(staticData.seenDeliveries as IDataObject)).toHaveLength(
			DEDUPE_LIMITS.persisted,
		);
		const newest = `key-${DEDUPE_LIMITS.memoryPerNode + 49}`;
		expect(staticData.seenDeliveries).toHaveProperty(newest);
		// The oldest is gone from both records, so it counts as new again.
		expect(seenBefore('bounded', 'key-0', 3_600_000, staticData, now + 20_000)).toBe(false);
		// A recent one is still known in memory even though static data dropped it.
		const recentInMemoryOnly = `key-${DEDUPE_LIMITS.memoryPerNode - 10}`;
		delete (staticData.seenDeliveries as IDataObject)[recentInMemoryOnly];
		expect(seenBefore('bounded', recentInMemoryOnly, 3_600_000, staticData, now + 20_000)).toBe(
			true,
		);
	}, 30_000); // 10,050 deliveries: a long test, not a timing assertion

	it('is on by default', () => {
		const field = new PeachTrigger().description.properties.find(
			(p) => p.name === 'ignoreDuplicates',
		);
		expect(field?.default).toBe(true);
	});
});
