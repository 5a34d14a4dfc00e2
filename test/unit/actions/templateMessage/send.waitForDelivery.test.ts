import type { IDataObject } from 'n8n-workflow';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { Peach } from '../../../../nodes/Peach/Peach.node';
import {
	createExecuteContext,
	type FakeResponse,
	locator,
	type RecordedRequest,
} from '../../support/harness';
import { throwingRunner } from '../../support/resourceRun';

/** A fake clock that n8n's sleep advances, so timeouts are tested without waiting. */
const clock = vi.hoisted(() => ({ now: 0 }));
vi.mock('n8n-workflow', async (importOriginal) => {
	const workflow = await importOriginal<typeof import('n8n-workflow')>();
	return {
		...workflow,
		sleep: async (ms: number) => {
			// A 0-ms sleep is a turn of the event loop (the delivery record uses one), not a pause.
			if (ms === 0) return await workflow.sleep(0);
			clock.now += ms;
		},
	};
});
beforeEach(() => {
	clock.now = 1_000_000;
	vi.spyOn(Date, 'now').mockImplementation(() => clock.now);
	vi.spyOn(performance, 'now').mockImplementation(() => clock.now);
});
afterEach(() => {
	vi.restoreAllMocks();
});

const send = {
	resource: 'templateMessage',
	operation: 'send',
	phoneNumber: '+919988776655',
	templateId: locator('wat_welcome'),
	variablesInput: 'template',
	variablesMapped: { mappingMode: 'defineBelow', value: { first_name: 'Asha' } },
	contactFields: {},
	additionalFields: {},
	waitForDelivery: true,
	waitTimeout: 60,
};
const queued = {
	statusCode: 201,
	body: { event_type: 'send_template_message', event_id: 'evt_1' },
};
const status = (value: string, code = 200, headers?: Record<string, string>): FakeResponse => ({
	statusCode: code,
	headers,
	body:
		code === 200
			? { id: 'evt_1', status: 'processed', result: { status: value, failure_message: null } }
			: {},
});

/** The pauses between the status reads, as Peach sees them (when each read left, on the fake clock). */
function pausesBetweenReads(requests: RecordedRequest[]): number[] {
	const starts = [
		...new Set(requests.filter((r) => r.options.method === 'GET').map((r) => r.startedAt)),
	];
	return starts.slice(1).map((start, index) => start - starts[index]);
}

const runSend = throwingRunner();
const run = async (responses: FakeResponse[], params = send) => await runSend(params, responses);

describe('Template Message → Send → variables from the template', () => {
	it('sends the mapped variables', async () => {
		const { requests } = await run([queued], { ...send, waitForDelivery: false });
		expect((requests[0].body as { template_message: object }).template_message).toEqual({
			whats_app_template_id: 'wat_welcome',
			liquid_values: { first_name: 'Asha' },
		});
	});

	it('a mapped field that comes out empty is refused, naming it, even for a variable the template does not show', async () => {
		// It is never dropped silently.
		const harness = createExecuteContext({
			params: {
				...send,
				waitForDelivery: false,
				variablesMapped: { mappingMode: 'defineBelow', value: { first_name: 'Asha', unused: '' } },
			},
			responses: [queued],
		});
		await expect(new Peach().execute.call(harness.context)).rejects.toThrow(
			'Variable unused is empty for +919988776655 (item 0)',
		);
		expect(harness.requests.filter((request) => request.options.method === 'POST')).toEqual([]);
	});
});

describe('Template Message → Send → Wait for Delivery', () => {
	it('polls GET /events/{id} (never the send) with growing pauses until a final status', async () => {
		const { requests, output } = await run([
			queued,
			status('queued'),
			status('sent'),
			status('delivered'),
		]);
		expect(requests.map((r) => `${r.options.method} ${r.url}`)).toEqual([
			'POST https://peach.test/api/v1/events',
			'GET https://peach.test/api/v1/events/evt_1',
			'GET https://peach.test/api/v1/events/evt_1',
			'GET https://peach.test/api/v1/events/evt_1',
		]);
		expect(pausesBetweenReads(requests)).toEqual([1000, 2000]);
		expect(output[0][0].json).toMatchObject({
			event_id: 'evt_1',
			deliveryStatus: 'delivered',
			delivery: { status: 'delivered', final: true, timedOut: false, polls: 3, waitedSeconds: 3 },
		});
		expect(output[0][0].pairedItem).toEqual({ item: 0 });
	});

	it('stops at a failed delivery and shows why', async () => {
		const failed: FakeResponse = {
			statusCode: 200,
			body: {
				id: 'evt_1',
				status: 'processed',
				result: { status: 'failed', failure_message: 'Not on WhatsApp' },
			},
		};
		const { output } = await run([queued, failed]);
		expect(output[0][0].json.delivery).toMatchObject({
			status: 'failed',
			final: true,
			failureMessage: 'Not on WhatsApp',
		});
	});

	it('says the wait timed out, with the last status, after the user timeout', async () => {
		const { output, requests } = await run(
			[queued, ...Array.from({ length: 20 }, () => status('sent'))],
			{ ...send, waitTimeout: 10 },
		);
		expect(output[0][0].json.delivery).toMatchObject({
			status: 'sent',
			final: false,
			timedOut: true,
			waitedSeconds: 10,
		});
		// Read at 0, 1, 3 and 7 s; then the last 3 s to the limit (waitedSeconds).
		expect(pausesBetweenReads(requests)).toEqual([1000, 2000, 4000]);
		expect(requests.filter((r) => r.options.method === 'POST')).toHaveLength(1);
	});

	it('a 429 while polling waits for Retry-After and polls on; the send is not repeated', async () => {
		const { output, requests } = await run([
			queued,
			status('', 429, { 'retry-after': '7' }),
			status('read'),
		]);
		expect(pausesBetweenReads(requests)).toEqual([7000]);
		expect(output[0][0].json.deliveryStatus).toBe('read');
		expect(requests.filter((r) => r.options.method === 'POST')).toHaveLength(1);
	});

	it('a status that cannot be read after the send never hides it: the event_id stays, the reason is in delivery.error', async () => {
		const { output, requests } = await run([
			queued,
			{ statusCode: 503, body: { message: 'Maintenance' } },
		]);
		expect(requests.map((r) => r.options.method)).toEqual(['POST', 'GET']);
		expect(output[0][0].json).toMatchObject({
			event_id: 'evt_1',
			deliveryStatus: null,
			delivery: {
				status: null,
				final: false,
				timedOut: false,
				error:
					'The message was sent (event_id evt_1), but its status could not be read: Peach had a server error (503): Maintenance',
			},
		});
		expect(output[0][0].json).not.toHaveProperty('error');
		// With Continue On Fail, a 404 on the poll is not an error item either.
		const harness = createExecuteContext({
			params: send,
			continueOnFail: true,
			responses: [queued, { statusCode: 404, body: { message: 'Not found' } }],
		});
		const [[item]] = await new Peach().execute.call(harness.context);
		expect(item.json).toMatchObject({ event_id: 'evt_1', deliveryStatus: null });
		expect(String((item.json.delivery as { error: string }).error)).toContain(
			'Event "evt_1" was not found in Peach',
		);
	});

	it('many items: all are sent first, then their statuses are followed in one loop under one time limit', async () => {
		const phones = ['+911111111', '+912222222', '+913333333', '+914444444', '+915555555'];
		const harness = createExecuteContext({
			params: phones.map((phoneNumber) => ({
				...send,
				phoneNumber,
				waitTimeout: 10,
				requestOptions: { concurrency: 1 },
			})),
			responses: [
				...phones.map((_, index) => ({
					statusCode: 201,
					body: { event_id: `evt_${index + 1}` },
				})),
				...Array.from({ length: 40 }, () => status('sent')),
			],
		});
		const output = await new Peach().execute.call(harness.context);
		const methods = harness.requests.map((r) => r.options.method);
		// Five sends, then only reads: never a send between the polls of another item.
		expect(methods.slice(0, 5)).toEqual(['POST', 'POST', 'POST', 'POST', 'POST']);
		expect(methods.slice(5).every((method) => method === 'GET')).toBe(true);
		// One clock for all: rounds at 0, 1, 3 and 7 s, 10 s in all (waitedSeconds), not 10 s per item.
		expect(pausesBetweenReads(harness.requests)).toEqual([1000, 2000, 4000]);
		expect(
			output[0].map((item) => (item.json.delivery as { waitedSeconds: number }).waitedSeconds),
		).toEqual(phones.map(() => 10));
		expect(
			output[0].map((item) => [
				item.json.event_id,
				(item.json.delivery as { timedOut: boolean }).timedOut,
			]),
		).toEqual(phones.map((_, index) => [`evt_${index + 1}`, true]));
		// Each round reads every unfinished event once: at 0, 1, 3 and 7 s; none starts at the limit.
		expect(methods.filter((method) => method === 'GET')).toHaveLength(4 * 5);
	});

	it('a status read the Wait Timeout cuts off: the wait timed out (with no status yet), not an error; the send stays', async () => {
		const timedOut = Object.assign(new Error('timeout of 1000ms exceeded'), {
			code: 'ECONNABORTED',
		});
		const harness = createExecuteContext({
			params: { ...send, waitTimeout: 1 },
			responses: [queued, timedOut],
			// Peach takes the whole second left to answer the status read.
			answerDelayMs: (request) => (request.options.method === 'GET' ? 1000 : 0),
		});
		const output = await new Peach().execute.call(harness.context);
		expect(output[0][0].json).toMatchObject({
			event_id: 'evt_1',
			deliveryStatus: null,
			delivery: { status: null, final: false, timedOut: true, waitedSeconds: 1 },
		});
		expect((output[0][0].json.delivery as IDataObject).error).toBeUndefined();
	});

	it('Peach asks to wait (429, Retry-After 30 s) beyond the Wait Timeout (5 s): the wait timed out, not an error', async () => {
		const { output } = await run([queued, status('', 429, { 'retry-after': '30' })], {
			...send,
			waitTimeout: 5,
		});
		const delivery = output[0][0].json.delivery as IDataObject;
		expect(delivery).toMatchObject({ final: false, timedOut: true });
		expect(delivery.error).toBeUndefined();
	});

	it('Wait Timeout bounds every read: its timeout is the time left, and no round outlives the limit', async () => {
		const harness = createExecuteContext({
			params: { ...send, waitTimeout: 2, requestOptions: { timeout: 30 } },
			responses: [queued, status('sent'), status('sent'), status('sent')],
		});
		await new Peach().execute.call(harness.context);
		const reads = harness.requests.filter((request) => request.options.method === 'GET');
		// Reads at 0 s (2 s left) and after the 1-s pause (1 s left); the request timeout (30 s) never.
		expect(reads.map((request) => request.options.timeout)).toEqual([2000, 1000]);
		expect(harness.requests[0].options.timeout).toBe(30_000);
	});
});
