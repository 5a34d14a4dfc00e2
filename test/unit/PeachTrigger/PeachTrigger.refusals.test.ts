import { randomUUID } from 'node:crypto';

import type { IDataObject } from 'n8n-workflow';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { PeachTrigger } from '../../../nodes/PeachTrigger/PeachTrigger.node';
import { REPORT_LIMITS } from '../../../nodes/PeachTrigger/refusals';
import { call, type Call } from './webhookHarness';

/** Why the trigger stays silent, said on its Refused output (refusals.ts). */

// Built from parts, as webhook.test.ts does: test values, never real secrets.
const secret = ['the', 'credential', 'phrase', '4f2a9c'].join('-');
const wrongToken = ['a', 'wrong', 'phrase', '8817'].join('-');

const failed = {
	type: 'message_delivery.failed',
	data: {
		message: { id: 'cmsg_1', status: 'failed', type: 'template_message', reason: 'Undeliverable' },
		contact: { phone_number: '+919988776655' },
	},
};

const onlyOrders = { events: ['order.completed'] };
const queryToken = { verification: 'queryToken' };
const header = { verification: 'header', headerName: 'X-Peach-Token' };

/** Every reason, as one delivery: what is sent, the reason named, and the answer it must keep. */
const REFUSALS: Array<[string, Partial<Call>, number, unknown]> = [
	[
		'missingSecret',
		{ parameters: queryToken, credentialSecret: secret, query: {} },
		401,
		{ message: 'Unauthorized' },
	],
	[
		'wrongSecret',
		{ parameters: queryToken, credentialSecret: secret, query: { token: wrongToken } },
		401,
		{ message: 'Unauthorized' },
	],
	[
		'missingSecret',
		{ parameters: header, credentialSecret: secret, headers: {} },
		401,
		{ message: 'Unauthorized' },
	],
	[
		'wrongSecret',
		{ parameters: header, credentialSecret: secret, headers: { 'x-peach-token': wrongToken } },
		401,
		{ message: 'Unauthorized' },
	],
	['notPeachBody', { raw: 'not json' }, 400, { message: expect.stringContaining('not JSON') }],
	[
		'eventNotSelected',
		{ parameters: onlyOrders },
		200,
		{ received: true, ignored: 'event message_delivery.failed is not selected' },
	],
	[
		'messageTypeFilteredOut',
		{ parameters: { options: { messageTypes: 'interactive' } } },
		200,
		{ received: true, ignored: 'message type filtered out (interactive)' },
	],
];

/** One delivery of `given` to a trigger of its own workflow (or `workflowId`), as n8n calls it. */
async function deliver(given: Partial<Call>, extra: Partial<Call> = {}) {
	const { result, sent } = await call({
		body: failed,
		workflowId: `wf-${randomUUID()}`,
		...given,
		...extra,
		parameters: {
			...given.parameters,
			...extra.parameters,
			options: {
				...(given.parameters?.options as IDataObject),
				...(extra.parameters?.options as IDataObject),
			},
		},
	});
	// What the caller got: the node's own answer (401/400), or the one n8n sends for it (200).
	const answer =
		sent.status !== undefined
			? { status: sent.status, body: sent.body }
			: { status: 200, body: result.webhookResponse };
	return { result, answer };
}

const refusedItems = (result: { workflowData?: Array<Array<{ json: IDataObject }>> }) =>
	result.workflowData?.[1]?.map((item) => item.json) ?? [];

const reporting = (choices: string[]) => ({ options: { reportRefused: choices } });
const ALL_CHOICES = ['secret', 'body', 'event', 'messageType', 'duplicate'];

afterEach(() => {
	vi.useRealTimers();
});

describe('Peach Trigger: a refused delivery while the editor listens for a test event', () => {
	it.each(REFUSALS)(
		'%s: one item on Refused with the reason and the fix, nothing on Event, the answer unchanged',
		async (reason, given, status, body) => {
			const { result, answer } = await deliver(given, { mode: 'manual' });
			expect(answer).toEqual({ status, body });
			expect(result.workflowData?.[0]).toEqual([]);
			const items = refusedItems(result);
			expect(items).toHaveLength(1);
			expect(items[0]).toMatchObject({ reason, answeredWith: status, count: 1 });
			expect(String(items[0].message).length).toBeGreaterThan(10);
			expect(String(items[0].fix).length).toBeGreaterThan(10);
			// Never the secret, nor the token received.
			const said = JSON.stringify({ result, answer });
			expect(said).not.toContain(secret);
			expect(said).not.toContain(wrongToken);
		},
	);

	it('the fix for a missing token names the Test URL with ?token= and the credential, not its secret', async () => {
		const { result } = await deliver(REFUSALS[0][1], { mode: 'manual' });
		expect(refusedItems(result)[0].fix).toBe(
			'Add ?token= and the secret of credential "secret" to the URL Peach calls: http://localhost:5678/webhook-test/trigger-webhook-1/webhook?token=<that secret>',
		);
	});

	it('in production the same fix names the Production URL', async () => {
		const { result } = await deliver(REFUSALS[0][1], { parameters: reporting(['secret']) });
		expect(refusedItems(result)[0].fix).toContain(
			'http://localhost:5678/webhook/trigger-webhook-1/webhook?token=<that secret>',
		);
	});

	it('an event not selected names the event and the choice that lets it in', async () => {
		const { result } = await deliver({ parameters: onlyOrders }, { mode: 'manual' });
		expect(refusedItems(result)[0]).toMatchObject({
			event: 'message_delivery.failed',
			message: 'Event message_delivery.failed is not selected in Events',
			fix: 'Add "Message Delivery: Failed" to Events, or choose All Events',
		});
	});

	it('every test delivery shows: ten refused in a row are ten items, each counted 1', async () => {
		const workflowId = `wf-${randomUUID()}`;
		for (let i = 0; i < 10; i++) {
			const { result } = await deliver({ parameters: onlyOrders }, { mode: 'manual', workflowId });
			expect(refusedItems(result)).toEqual([expect.objectContaining({ count: 1 })]);
		}
	});
});

describe('Peach Trigger: Report Refused Deliveries in production', () => {
	it.each(REFUSALS)(
		'%s, option off (the default): no execution, the answer unchanged',
		async (_reason, given, status, body) => {
			const { result, answer } = await deliver(given);
			expect(answer).toEqual({ status, body });
			expect(result.workflowData).toBeUndefined();
		},
	);

	it.each(REFUSALS)(
		'%s, option on: the first is reported on the Refused output, the answer unchanged',
		async (reason, given, status, body) => {
			const { result, answer } = await deliver(given, { parameters: reporting(ALL_CHOICES) });
			expect(answer).toEqual({ status, body });
			expect(result.workflowData?.[0]).toEqual([]);
			expect(refusedItems(result)).toEqual([
				expect.objectContaining({ reason, answeredWith: status, count: 1 }),
			]);
			expect(JSON.stringify(result)).not.toContain(secret);
			expect(JSON.stringify(result)).not.toContain(wrongToken);
		},
	);

	it('a duplicate is reported when chosen; the first copy starts the workflow as before', async () => {
		const workflowId = `wf-${randomUUID()}`;
		const parameters = { ignoreDuplicates: true, ...reporting(['duplicate']) };
		const first = await deliver({ parameters }, { workflowId });
		expect(first.result.workflowData?.[0]).toHaveLength(1);
		const again = await deliver({ parameters }, { workflowId });
		expect(again.answer).toEqual({
			status: 200,
			body: {
				received: true,
				ignored: 'duplicate: the same event, ID and status was received before',
			},
		});
		expect(again.result.workflowData?.[0]).toEqual([]);
		expect(refusedItems(again.result)).toEqual([
			expect.objectContaining({ reason: 'duplicate', count: 1 }),
		]);
	});

	it('1,000 refused deliveries in a minute start 1 execution; the next after the minute counts the rest', async () => {
		vi.useFakeTimers({ toFake: ['Date', 'performance'] });
		const workflowId = `wf-${randomUUID()}`;
		const given = {
			parameters: { ...queryToken, ...reporting(['secret']) },
			credentialSecret: secret,
		};
		const reports: IDataObject[] = [];
		for (let i = 0; i < 1000; i++) {
			const { result, answer } = await deliver(given, { workflowId, query: { token: `t${i}` } });
			expect(answer.status).toBe(401);
			reports.push(...refusedItems(result));
			vi.advanceTimersByTime(50);
		}
		// 1,000 × 50 ms = 50 s: one report, the first.
		expect(reports).toEqual([expect.objectContaining({ reason: 'wrongSecret', count: 1 })]);
		vi.advanceTimersByTime(REPORT_LIMITS.everyMs);
		const next = await deliver(given, { workflowId, query: { token: 'late' } });
		expect(refusedItems(next.result)).toEqual([
			expect.objectContaining({ reason: 'wrongSecret', count: 1000 }),
		]);
		expect(Date.parse(String(refusedItems(next.result)[0].since))).toBeLessThan(Date.now());
	});

	it('each reason and each trigger has its own minute', async () => {
		const workflowId = `wf-${randomUUID()}`;
		const parameters = { ...onlyOrders, ...reporting(ALL_CHOICES) };
		const event = await deliver({ parameters }, { workflowId });
		const body = await deliver({ parameters, raw: '[]' }, { workflowId });
		const eventAgain = await deliver({ parameters }, { workflowId });
		const otherWorkflow = await deliver({ parameters });
		expect(refusedItems(event.result)).toHaveLength(1);
		expect(refusedItems(body.result)).toEqual([
			expect.objectContaining({ reason: 'notPeachBody' }),
		]);
		expect(eventAgain.result.workflowData).toBeUndefined();
		expect(refusedItems(otherWorkflow.result)).toHaveLength(1);
	});

	it('only the reasons chosen are reported', async () => {
		const workflowId = `wf-${randomUUID()}`;
		const parameters = { ...onlyOrders, ...queryToken, ...reporting(['secret']) };
		const notSelected = await deliver(
			{ parameters, credentialSecret: secret, query: { token: secret } },
			{ workflowId },
		);
		expect(notSelected.result.workflowData).toBeUndefined();
		const wrong = await deliver(
			{ parameters, credentialSecret: secret, query: { token: wrongToken } },
			{ workflowId },
		);
		expect(refusedItems(wrong.result)).toHaveLength(1);
	});

	it('an accepted delivery is unchanged by the option: one item on Event, nothing on Refused', async () => {
		const off = await deliver({});
		const on = await deliver({ parameters: reporting(ALL_CHOICES) });
		for (const { result, answer } of [off, on]) {
			expect(answer).toEqual({ status: 200, body: { received: true } });
			expect(result.workflowData).toHaveLength(1);
			expect(result.workflowData?.[0]).toHaveLength(1);
			expect(result.workflowData?.[0][0].json).toMatchObject({ event: 'message_delivery.failed' });
		}
		const strip = (json: IDataObject) => ({ ...json, receivedAt: undefined });
		expect(strip(on.result.workflowData?.[0][0].json ?? {})).toEqual(
			strip(off.result.workflowData?.[0][0].json ?? {}),
		);
	});
});

describe('Peach Trigger: outputs', () => {
	it('pairs each output with its name: Event first (index 0), Refused second (index 1)', () => {
		const { outputs, outputNames } = new PeachTrigger().description;
		expect(outputs).toEqual(['main', 'main']);
		expect(outputNames).toEqual(['Event', 'Refused']);
	});

	it("the option is off until added, and adding it reports all but duplicates (Peach's retries)", () => {
		const options = new PeachTrigger().description.properties.find((p) => p.name === 'options');
		const report = options?.options?.find((o) => o.name === 'reportRefused') as
			| { default: unknown }
			| undefined;
		expect(options?.default).toEqual({});
		expect(report?.default).toEqual(['secret', 'body', 'event', 'messageType']);
	});

	it('the editor\'s texts name n8n 2.40\'s button as it reads, never "Listen for test event"', () => {
		const { description } = new PeachTrigger();
		const texts = JSON.stringify([description.properties, description.triggerPanel]);
		expect(texts).not.toContain('Listen for test event');
		expect(texts).toContain("'execute step'");
		expect(texts).toContain('?token=');
	});
});
