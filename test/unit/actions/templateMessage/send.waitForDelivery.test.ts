import type { IDataObject } from 'n8n-workflow';
import { describe, expect, it, vi } from 'vitest';

import { onFakeClock } from '../../support/fakeClock';
import { type FakeResponse, locator, type RecordedRequest } from '../../support/harness';
import { runner, throwingRunner } from '../../support/resourceRun';

/** A fake clock that n8n's sleep advances, so timeouts are tested without waiting. */
vi.mock('n8n-workflow', async (importOriginal) =>
	(await import('../../support/fakeClock')).withFakeSleep(await importOriginal()),
);
onFakeClock(1_000_000);

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

const run = throwingRunner();
/** The same run, for tests of runs that fail: the output, or the error the node threw. */
const attempt = runner();

describe('Template Message → Send → variables from the template', () => {
	it('sends the mapped variables', async () => {
		const { requests } = await run({ ...send, waitForDelivery: false }, [queued]);
		expect((requests[0].body as { template_message: object }).template_message).toEqual({
			whats_app_template_id: 'wat_welcome',
			liquid_values: { first_name: 'Asha' },
		});
	});

	it('a mapped field that comes out empty is refused, naming it, even for a variable the template does not show', async () => {
		// It is never dropped silently.
		const { output, requests } = await attempt(
			{
				...send,
				waitForDelivery: false,
				variablesMapped: { mappingMode: 'defineBelow', value: { first_name: 'Asha', unused: '' } },
			},
			[queued],
		);
		expect((output as Error).message).toContain(
			'Variable unused is empty for +919988776655 (item 0)',
		);
		expect(requests.filter((request) => request.options.method === 'POST')).toEqual([]);
	});
});

describe('Template Message → Send → Wait for Delivery', () => {
	it('polls GET /events/{id} (never the send) with growing pauses until a final status', async () => {
		const { requests, output } = await run(send, [
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
		const { output } = await run(send, [queued, failed]);
		expect(output[0][0].json.delivery).toMatchObject({
			status: 'failed',
			final: true,
			failureMessage: 'Not on WhatsApp',
		});
	});

	it('says the wait timed out, with the last status, after the user timeout', async () => {
		const { output, requests } = await run({ ...send, waitTimeout: 10 }, [
			queued,
			...Array.from({ length: 20 }, () => status('sent')),
		]);
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
		const { output, requests } = await run(send, [
			queued,
			status('', 429, { 'retry-after': '7' }),
			status('read'),
		]);
		expect(pausesBetweenReads(requests)).toEqual([7000]);
		expect(output[0][0].json.deliveryStatus).toBe('read');
		expect(requests.filter((r) => r.options.method === 'POST')).toHaveLength(1);
	});

	it('a status that cannot be read after the send never hides it: the event_id stays, the reason is in delivery.error', async () => {
		const { output, requests } = await run(send, [
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
		const notFound = await run(
			send,
			[queued, { statusCode: 404, body: { message: 'Not found' } }],
			{
				continueOnFail: true,
			},
		);
		const [[item]] = notFound.output;
		expect(item.json).toMatchObject({ event_id: 'evt_1', deliveryStatus: null });
		expect(String((item.json.delivery as { error: string }).error)).toContain(
			'Event "evt_1" was not found in Peach',
		);
	});

	it('many items: all are sent first, then their statuses are followed in one loop under one time limit', async () => {
		const phones = ['+911111111', '+912222222', '+913333333', '+914444444', '+915555555'];
		const { output, requests } = await run(
			phones.map((phoneNumber) => ({
				...send,
				phoneNumber,
				waitTimeout: 10,
				requestOptions: { concurrency: 1 },
			})),
			[
				...phones.map((_, index) => ({
					statusCode: 201,
					body: { event_id: `evt_${index + 1}` },
				})),
				...Array.from({ length: 40 }, () => status('sent')),
			],
		);
		const methods = requests.map((r) => r.options.method);
		// Five sends, then only reads: never a send between the polls of another item.
		expect(methods.slice(0, 5)).toEqual(['POST', 'POST', 'POST', 'POST', 'POST']);
		expect(methods.slice(5).every((method) => method === 'GET')).toBe(true);
		// One clock for all: rounds at 0, 1, 3 and 7 s, 10 s in all (waitedSeconds), not 10 s per item.
		expect(pausesBetweenReads(requests)).toEqual([1000, 2000, 4000]);
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
		const { output } = await run({ ...send, waitTimeout: 1 }, [queued, timedOut], {
			// Peach takes the whole second left to answer the status read.
			answerDelayMs: (request) => (request.options.method === 'GET' ? 1000 : 0),
		});
		expect(output[0][0].json).toMatchObject({
			event_id: 'evt_1',
			deliveryStatus: null,
			delivery: { status: null, final: false, timedOut: true, waitedSeconds: 1 },
		});
		expect((output[0][0].json.delivery as IDataObject).error).toBeUndefined();
	});

	it('Peach asks to wait (429, Retry-After 30 s) beyond the Wait Timeout (5 s): the wait timed out, not an error', async () => {
		const { output } = await run({ ...send, waitTimeout: 5 }, [
			queued,
			status('', 429, { 'retry-after': '30' }),
		]);
		const delivery = output[0][0].json.delivery as IDataObject;
		expect(delivery).toMatchObject({ final: false, timedOut: true });
		expect(delivery.error).toBeUndefined();
	});

	it('Wait Timeout bounds every read: its timeout is the time left, and no round outlives the limit', async () => {
		const { requests } = await run({ ...send, waitTimeout: 2, requestOptions: { timeout: 30 } }, [
			queued,
			status('sent'),
			status('sent'),
			status('sent'),
		]);
		const reads = requests.filter((request) => request.options.method === 'GET');
		// Reads at 0 s (2 s left) and after the 1-s pause (1 s left); the request timeout (30 s) never.
		expect(reads.map((request) => request.options.timeout)).toEqual([2000, 1000]);
		expect(requests[0].options.timeout).toBe(30_000);
	});
});
