import { NodeApiError } from 'n8n-workflow';
import { describe, expect, it, vi } from 'vitest';

import { wasNotSent } from '../../../nodes/Peach/transport/outcome';
import { apiPath } from '../../../nodes/Peach/transport/path';
import { DeliveryPermit } from '../../../nodes/Peach/transport/permit';
import { peachApiRequest } from '../../../nodes/Peach/transport/request';
import { clock, onFakeClock } from '../support/fakeClock';
import { createExecuteContext, TEST_API_KEY } from '../support/harness';

/** n8n's sleep, recorded; it moves a fake clock so a pause ends as it would. */
vi.mock('n8n-workflow', async (importOriginal) =>
	(await import('../support/fakeClock')).withFakeSleep(await importOriginal()),
);
onFakeClock(5_000_000);
const sleeps = clock.sleeps;

/** The router's permit for a delivering request (tests stand in for the router). */
const permit = new DeliveryPermit();

describe('peachApiRequest', () => {
	it('asks for /api/v1<path>; the credential adds the normalised Base URL and the raw key', async () => {
		const { context, requests, getCredentials } = createExecuteContext({
			params: {},
			baseUrl: 'https://peach.test/api/v1/',
			responses: [{ statusCode: 200, body: { ok: true } }],
		});
		const result = await peachApiRequest.call(context, {
			method: 'POST',
			path: apiPath`/streams`,
			body: { name: 'x' },
		});
		expect(result).toEqual({ ok: true });
		expect(requests).toHaveLength(1);
		expect(requests[0].credentialType).toBe('peachMessagingApi');
		expect(requests[0].options).toEqual({
			method: 'POST',
			url: '/api/v1/streams',
			json: true,
			headers: { Accept: 'application/json', 'Content-Type': 'application/json' },
			body: '{"name":"x"}',
			ignoreHttpStatusErrors: true,
			returnFullResponse: true,
			disableFollowRedirect: true,
			timeout: 30_000,
		});
		expect(requests[0].url).toBe('https://peach.test/api/v1/streams');
		expect(requests[0].sent.headers).toEqual({
			Accept: 'application/json',
			'Content-Type': 'application/json',
			Authorization: TEST_API_KEY,
		});
		// The credential is read (decrypted) once per execution and handed to n8n with the request.
		expect(getCredentials).toHaveBeenCalledTimes(1);
	});

	it('a 429 is waited out (Retry-After) and the request sent again, a read or a send: Peach did not take it', async () => {
		const { context, requests } = createExecuteContext({
			params: {},
			responses: [
				{ statusCode: 429, headers: { 'retry-after': '7' } },
				{ statusCode: 429, headers: { 'retry-after': '2' } },
				{ statusCode: 200, body: [] },
			],
		});
		await expect(
			peachApiRequest.call(context, { method: 'GET', path: apiPath`/streams` }),
		).resolves.toEqual([]);
		expect(requests).toHaveLength(3);
		expect(sleeps).toEqual([7000, 2000]);

		sleeps.length = 0;
		const sending = createExecuteContext({
			params: {},
			responses: [
				{ statusCode: 429, headers: { 'retry-after': '1' } },
				{ statusCode: 429 },
				{ statusCode: 201, body: { event_id: 'evt_1' } },
			],
		});
		await expect(
			peachApiRequest.call(sending.context, {
				method: 'POST',
				path: apiPath`/events`,
				body: { a: 1 },
				delivers: permit,
			}),
		).resolves.toEqual({ event_id: 'evt_1' });
		// The same body each time; without Retry-After, 1 s, then 2, 4 … s.
		expect(sending.requests.map((request) => request.body)).toEqual([{ a: 1 }, { a: 1 }, { a: 1 }]);
		expect(sleeps).toEqual([1000, 2000]);
	});

	it('bounded: each wait at most 60 s, 300 s of waiting or 50 tries in all; then an error that says it was not sent', async () => {
		const long = createExecuteContext({
			params: {},
			responses: Array.from({ length: 10 }, () => ({
				statusCode: 429,
				headers: { 'retry-after': '3600' },
			})),
		});
		const error = (await peachApiRequest
			.call(long.context, { method: 'POST', path: apiPath`/events`, body: {}, delivers: permit })
			.catch((caught: unknown) => caught)) as NodeApiError;
		expect(sleeps).toEqual([60000, 60000, 60000, 60000, 60000]);
		expect(long.requests).toHaveLength(6);
		expect(error.httpCode).toBe('429');
		expect(error.description).toMatch(
			/^Peach kept answering 429 for 300 s, so the node stopped waiting\. Peach refused this request, so it was not queued; Peach asks to wait 3600 s\. A Retry of this execution sends it\./,
		);
		expect(wasNotSent(error)).toBe(true);

		const hot = createExecuteContext({
			params: {},
			responses: Array.from({ length: 60 }, () => ({
				statusCode: 429,
				headers: { 'retry-after': '0' },
			})),
		});
		await expect(
			peachApiRequest.call(hot.context, { method: 'GET', path: apiPath`/streams` }),
		).rejects.toThrow('429');
		expect(hot.requests).toHaveLength(50);
	});

	it('a 429 pauses the other requests of the execution for Retry-After', async () => {
		const { context, requests } = createExecuteContext({
			params: {},
			responses: [
				{ statusCode: 429, headers: { 'retry-after': '5' } },
				{ statusCode: 201, body: { event_id: 'evt_1' } },
				{ statusCode: 201, body: { event_id: 'evt_2' } },
			],
		});
		const send = { method: 'POST' as const, path: apiPath`/events`, body: {}, delivers: permit };
		await expect(peachApiRequest.call(context, send)).resolves.toEqual({ event_id: 'evt_1' });
		expect(sleeps).toEqual([5000]);
		// The pause is over by now: the next request goes at once.
		await expect(peachApiRequest.call(context, send)).resolves.toEqual({ event_id: 'evt_2' });
		expect(sleeps).toEqual([5000]);
		expect(requests).toHaveLength(3);
	});

	it('never repeats a send that may have reached Peach: a 503 or a timeout is one request', async () => {
		const { context, requests } = createExecuteContext({
			params: {},
			responses: [{ statusCode: 503, body: { message: 'Maintenance' } }],
		});
		const error = await peachApiRequest
			.call(context, { method: 'POST', path: apiPath`/events`, body: {}, delivers: permit })
			.catch((caught: unknown) => caught);
		expect((error as NodeApiError).httpCode).toBe('503');
		expect(wasNotSent(error)).toBe(false);
		expect(requests).toHaveLength(1);
		expect(sleeps).toEqual([]);
	});

	it('every request has the Request Options timeout; a timed-out send says it may already be queued', async () => {
		const timedOut = Object.assign(new Error('timeout of 5000ms exceeded'), {
			code: 'ECONNABORTED',
		});
		const { context, requests } = createExecuteContext({
			params: { requestOptions: { timeout: 5 } },
			responses: [timedOut],
		});
		const error = (await peachApiRequest
			.call(context, { method: 'POST', path: apiPath`/events`, body: {}, delivers: permit })
			.catch((e: unknown) => e)) as NodeApiError;
		expect(requests[0].options.timeout).toBe(5000);
		expect(error.message).toBe('Could not reach Peach at https://peach.test (timed out)');
		expect(error.description).toContain('It may already have been queued in Peach');
		expect(requests).toHaveLength(1);
	});

	it('maps an empty 2xx body to an empty object', async () => {
		const { context } = createExecuteContext({
			params: {},
			responses: [{ statusCode: 204, body: '' }],
		});
		await expect(
			peachApiRequest.call(context, { method: 'PATCH', path: apiPath`/x`, body: {} }),
		).resolves.toEqual({});
	});

	it('names an unmapped network code as it is', async () => {
		const { context } = createExecuteContext({
			params: {},
			responses: [Object.assign(new Error('write EPROTO'), { code: 'EPROTO' })],
		});
		await expect(
			peachApiRequest.call(context, { method: 'GET', path: apiPath`/streams` }),
		).rejects.toThrow('Could not reach Peach at https://peach.test (EPROTO)');
	});

	it('turns a transport failure into a NodeApiError without the key', async () => {
		const failure = Object.assign(new Error('socket hang up'), {
			code: 'ECONNRESET',
			config: { headers: { Authorization: TEST_API_KEY } },
		});
		const { context, getCredentials } = createExecuteContext({ params: {}, responses: [failure] });
		const error = (await peachApiRequest
			.call(context, { method: 'GET', path: apiPath`/streams` })
			.catch((e: unknown) => e)) as NodeApiError;
		expect(error).toBeInstanceOf(NodeApiError);
		expect(error.message).toBe(
			'Could not reach Peach at https://peach.test (connection closed unexpectedly)',
		);
		expect(JSON.stringify(error)).not.toContain(TEST_API_KEY);
		// The Base URL in the message comes from the credential already read for the request.
		expect(getCredentials).toHaveBeenCalledTimes(1);
	});
});

describe('what reaches Peach, and what happens before anything does', () => {
	it('sends every key the user gave, also constructor, toString and __proto__ (n8n copies objects without them)', async () => {
		const metadata: Record<string, string> = {};
		for (const key of ['constructor', 'toString', '__proto__', 'prototype']) {
			Object.defineProperty(metadata, key, { value: `${key}!`, enumerable: true });
		}
		const { context, requests } = createExecuteContext({
			params: {},
			responses: [{ statusCode: 200, body: {} }],
		});
		await peachApiRequest.call(context, {
			method: 'POST',
			path: apiPath`/contacts`,
			body: { phone_number: '+919988776655', metadata },
		});
		expect(typeof requests[0].sent.body).toBe('string');
		expect(requests[0].sent.body).toBe(
			'{"phone_number":"+919988776655","metadata":{"constructor":"constructor!","toString":"toString!","__proto__":"__proto__!","prototype":"prototype!"}}',
		);
	});

	it("a 2xx with Peach's failure envelope is an error with Peach's reason, not a success", async () => {
		const { context } = createExecuteContext({
			params: {},
			responses: [
				{
					statusCode: 200,
					body: { status: 'failed', reason: { phone_number: ['is not a WhatsApp number'] } },
				},
			],
		});
		const error = (await peachApiRequest
			.call(context, { method: 'POST', path: apiPath`/contacts`, body: {}, itemIndex: 1 })
			.catch((e: unknown) => e)) as NodeApiError;
		expect(error).toBeInstanceOf(NodeApiError);
		expect(error.message).toBe('Peach did not do it: phone_number: is not a WhatsApp number');
		expect(error.description).toBe(
			'Peach answered 200 with status "failed", so nothing was done. Change the fields named in the message.',
		);
		expect(error.context.itemIndex).toBe(1);
		// An event read back as failed is a record, not this envelope.
		const event = createExecuteContext({
			params: {},
			responses: [{ statusCode: 200, body: { id: 'evt_1', status: 'failed', result: null } }],
		});
		await expect(
			peachApiRequest.call(event.context, { method: 'GET', path: apiPath`/events/evt_1` }),
		).resolves.toEqual({ id: 'evt_1', status: 'failed', result: null });
	});

	it('a credential that cannot be read: nothing is sent, and the error says so (never "may already be queued")', async () => {
		const { context, requests, getCredentials } = createExecuteContext({ params: {} });
		getCredentials.mockRejectedValueOnce(new Error('Credentials could not be decrypted'));
		const error = (await peachApiRequest
			.call(context, {
				method: 'POST',
				path: apiPath`/events`,
				body: {},
				delivers: permit,
				itemIndex: 0,
			})
			.catch((e: unknown) => e)) as NodeApiError;
		expect(requests).toHaveLength(0);
		expect(error.message).toBe(
			'Could not read the Peach API credential (Credentials could not be decrypted)',
		);
		expect(error.description).toContain('Nothing was sent to Peach.');
		expect(error.description).not.toContain('may already');
	});
});
