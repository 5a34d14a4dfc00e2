import { NodeApiError, NodeOperationError } from 'n8n-workflow';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { normalizeBaseUrl } from '../../../credentials/PeachMessagingApi.credentials';
import {
	apiErrorText,
	buildApiError,
	buildNetworkError,
	flattenReasons,
} from '../../../nodes/Peach/transport/errors';
import {
	extractItems,
	nextPage,
	peachApiRequestAllItems,
	peachApiRequestPage,
} from '../../../nodes/Peach/transport/paginate';
import { wasNotSent } from '../../../nodes/Peach/transport/outcome';
import { apiPath } from '../../../nodes/Peach/transport/path';
import { DeliveryPermit } from '../../../nodes/Peach/transport/permit';
import { peachApiRequest } from '../../../nodes/Peach/transport/request';
import { createExecuteContext, node, TEST_API_KEY, TEST_BASE_URL } from '../support/harness';

/** n8n's sleep, recorded; it moves a fake clock so a pause ends as it would. */
const clock = vi.hoisted(() => ({ now: 0, sleeps: [] as number[] }));
const sleeps = clock.sleeps;
vi.mock('n8n-workflow', async (importOriginal) => {
	const workflow = await importOriginal<typeof import('n8n-workflow')>();
	return {
		...workflow,
		sleep: async (ms: number) => {
			// A 0-ms sleep is a turn of the event loop (the delivery record uses one), not a pause.
			if (ms === 0) return await workflow.sleep(0);
			clock.sleeps.push(ms);
			clock.now += ms;
		},
	};
});
beforeEach(() => {
	clock.sleeps.length = 0;
	clock.now = 5_000_000;
	vi.spyOn(Date, 'now').mockImplementation(() => clock.now);
	vi.spyOn(performance, 'now').mockImplementation(() => clock.now);
});
afterEach(() => {
	vi.restoreAllMocks();
});

/** The router's permit for a delivering request (tests stand in for the router). */
const permit = new DeliveryPermit();

describe('error text', () => {
	it('flattens 422 reasons into "field: message"', () => {
		expect(
			flattenReasons({
				template_message: { whats_app_template_id: ['is not approved', 'is archived'] },
				contact: { phone_number: ['is invalid'] },
			}),
		).toEqual([
			'template_message.whats_app_template_id: is not approved, is archived',
			'contact.phone_number: is invalid',
		]);
	});

	it('reads every documented error shape', () => {
		expect(apiErrorText({ message: 'Unauthorized' })).toBe('Unauthorized');
		expect(
			apiErrorText({ status: 'failed', reason: { blob: { byte_size: ['is too large'] } } }),
		).toBe('blob.byte_size: is too large');
		expect(apiErrorText({ error: 'Not found' })).toBe('Not found');
		expect(apiErrorText({ error: { message: 'boom' } })).toBe('boom');
		expect(apiErrorText({ errors: ['a', 'b'] })).toBe('a, b');
		expect(apiErrorText({ message: 'Variables missing', code: 'missing_variables' })).toBe(
			'Variables missing (missing_variables)',
		);
		expect(apiErrorText('plain text failure')).toBe('plain text failure');
		expect(apiErrorText('<!DOCTYPE html><html>oops</html>')).toBe('');
		expect(apiErrorText(undefined)).toBe('');
	});
});

describe('buildApiError', () => {
	const send = { method: 'POST' as const, path: apiPath`/events`, itemIndex: 2, delivers: permit };

	it('422: the message is the API reasons, with itemIndex and httpCode', () => {
		const error = buildApiError(
			node,
			{
				statusCode: 422,
				headers: {},
				body: {
					status: 'failed',
					reason: { template_message: { whats_app_template_id: ['is not approved'] } },
				},
			},
			send,
		);
		expect(error).toBeInstanceOf(NodeApiError);
		expect(error.message).toBe('Template: is not approved');
		expect(error.description).toContain('Change the fields named in the message');
		expect(error.httpCode).toBe('422');
		expect(error.context.itemIndex).toBe(2);
	});

	it('401: says the key was rejected and how to fix it', () => {
		const error = buildApiError(
			node,
			{ statusCode: 401, headers: {}, body: { message: 'Unauthorized' } },
			send,
		);
		expect(error.message).toBe('Peach rejected the API key: Unauthorized');
		expect(error.description).toContain('Developers → API Keys');
	});

	it('404 names the entity and its id', () => {
		const error = buildApiError(
			node,
			{ statusCode: 404, headers: {}, body: { message: 'Not found' } },
			{
				method: 'PATCH',
				path: apiPath`/triggers/trig_x`,
				notFound: { label: 'Trigger', id: 'trig_x' },
			},
		);
		expect(error.message).toBe('Trigger "trig_x" was not found in Peach');
		expect(error.description).toContain('Trigger ID');
		const generic = buildApiError(
			node,
			{ statusCode: 404, headers: {}, body: '' },
			{ method: 'GET', path: apiPath`/x` },
		);
		expect(generic.message).toBe('Not found: GET /api/v1/x');
	});

	it('429 reports Retry-After and, for a send, that it was not queued', () => {
		const error = buildApiError(
			node,
			{ statusCode: 429, headers: { 'retry-after': '7' }, body: { message: 'Slow down' } },
			send,
		);
		expect(error.message).toBe(
			'Peach is rate-limiting requests (429 Too Many Requests): Slow down',
		);
		expect(error.description).toBe(
			'Peach refused this request, so it was not queued; Peach asks to wait 7 s. A Retry of this execution sends it. Lower Request Options → Max Concurrent Requests, or spread the items out (e.g. Loop Over Items with a Wait node).',
		);
		expect(wasNotSent(error)).toBe(true);
		expect(
			buildApiError(
				node,
				{ statusCode: 429, headers: { 'retry-after': '7' }, body: {} },
				{ method: 'GET', path: apiPath`/x` },
			).description,
		).toBe(
			'Peach asks to wait 7 s before the next request. Run it again later, or slow it down (e.g. Loop Over Items with a Wait node).',
		);
	});

	it('5xx on a send says it may already be queued and is never sent again by itself, never "try again"', () => {
		const error = buildApiError(
			node,
			{ statusCode: 502, headers: {}, body: '<html>Bad gateway</html>' },
			send,
		);
		expect(error.message).toBe('Peach had a server error (502)');
		expect(error.description).toBe(
			"This is on Peach's side. It may already have been queued in Peach, so it is never sent again by itself: a Retry of this execution lists it as unknown instead of sending it. Check the contact's conversation (or the order) in the Peach web app.",
		);
		expect(error.description).not.toMatch(/try again/i);
		// After a server error the outcome is unknown; after a refusal (4xx) the request did not happen.
		expect(wasNotSent(error)).toBe(false);
		expect(wasNotSent(buildApiError(node, { statusCode: 422, headers: {}, body: {} }, send))).toBe(
			true,
		);
	});

	it('network failures name the base URL and code, and never carry the request (which holds the key)', () => {
		const transportFailure = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), {
			code: 'ECONNREFUSED',
			config: { headers: { Authorization: TEST_API_KEY } },
		});
		const error = buildNetworkError(node, transportFailure, TEST_BASE_URL, send);
		expect(error.message).toBe(`Could not reach Peach at ${TEST_BASE_URL} (connection refused)`);
		expect(error.description).toBe(
			'Network error ECONNREFUSED. Check Base URL in the Peach API credential and that n8n can reach it. Nothing was sent: no connection was made.',
		);
		expect(wasNotSent(error)).toBe(true);
		expect(JSON.stringify(error)).not.toContain(TEST_API_KEY);
		expect(JSON.stringify({ ...error, cause: error.cause })).not.toContain(TEST_API_KEY);
	});

	it('a connection that closed half-way leaves the outcome unknown', () => {
		const reset = Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' });
		const error = buildNetworkError(node, reset, TEST_BASE_URL, send);
		expect(error.description).toContain('It may already have been queued in Peach');
		expect(wasNotSent(error)).toBe(false);
	});
});

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

describe('network failures as n8n 1.x reports them', () => {
	it('reads the code from the original text n8n 1.x keeps, not its own "retry" advice', async () => {
		// n8n 1.x wraps the transport error in a NodeApiError of its own: no code, a message advising
		// to retry, and the original message in `messages`.
		const wrapped = Object.assign(
			new Error(
				'The connection to the server was closed unexpectedly, perhaps it is offline. You can retry the request immediately or wait and retry later.',
			),
			{ messages: ['read ECONNRESET'] },
		);
		const { context } = createExecuteContext({ params: {}, responses: [wrapped] });
		const error = (await peachApiRequest
			.call(context, { method: 'POST', path: apiPath`/events`, body: {}, delivers: permit })
			.catch((e: unknown) => e)) as NodeApiError;
		expect(error.message).toBe(
			'Could not reach Peach at https://peach.test (connection closed unexpectedly)',
		);
		expect(error.message).not.toContain('retry');
		expect(error.description).toContain('Network error ECONNRESET.');
		expect(error.description).toContain('It may already have been queued in Peach');
	});

	it('"socket hang up", the text Node gives a dropped connection, is a closed connection', async () => {
		const wrapped = Object.assign(
			new Error('The connection to the server was closed unexpectedly'),
			{
				messages: ['socket hang up'],
			},
		);
		const { context } = createExecuteContext({ params: {}, responses: [wrapped] });
		await expect(
			peachApiRequest.call(context, { method: 'GET', path: apiPath`/streams` }),
		).rejects.toThrow(
			'Could not reach Peach at https://peach.test (connection closed unexpectedly)',
		);
	});
});

describe('pagination', () => {
	it('follows next until it is null, with page numbers', async () => {
		const { context, requests } = createExecuteContext({
			params: {},
			responses: [
				{
					statusCode: 200,
					body: {
						count: 3,
						next: 'https://peach.test/api/v1/medias?page=2',
						previous: null,
						medias: [{ id: 1 }, { id: 2 }],
					},
				},
				{ statusCode: 200, body: { count: 3, next: null, previous: 'x', medias: [{ id: 3 }] } },
			],
		});
		const items = await peachApiRequestAllItems.call(
			context,
			{ method: 'GET', path: apiPath`/medias` },
			{ itemsKey: ['medias'] },
		);
		expect(items.map((item) => item.id)).toEqual([1, 2, 3]);
		expect(requests.map((request) => request.options.qs)).toEqual([{ page: 1 }, { page: 2 }]);
	});

	it('takes the next page from a next URL (page and per), on its own path and host', async () => {
		const { context, requests } = createExecuteContext({
			params: {},
			responses: [
				{
					statusCode: 200,
					body: {
						count: 3,
						next: 'https://elsewhere.example/api/v1/template_messages?page=2&per=2',
						prev: null,
						template_messages: [{ id: 1 }, { id: 2 }],
					},
				},
				{
					statusCode: 200,
					body: { count: 3, next: null, prev: 'x', template_messages: [{ id: 3 }] },
				},
			],
		});
		const items = await peachApiRequestAllItems.call(
			context,
			{ method: 'GET', path: apiPath`/template_messages`, qs: { broadcast_id: 'cmp_1' } },
			{ itemsKey: ['template_messages'], pageSize: 2 },
		);
		expect(items.map((item) => item.id)).toEqual([1, 2, 3]);
		expect(requests.map((request) => request.url)).toEqual([
			'https://peach.test/api/v1/template_messages',
			'https://peach.test/api/v1/template_messages',
		]);
		expect(requests.map((request) => request.options.qs)).toEqual([
			{ broadcast_id: 'cmp_1', page: 1, per: 2 },
			{ broadcast_id: 'cmp_1', page: 2, per: 2 },
		]);
	});

	it('a short page ends a list read with a page size', () => {
		expect(nextPage([{ id: 1 }], [{ id: 1 }], { page: 1, per: 2 }, undefined, 2)).toBeUndefined();
		expect(
			nextPage([{ id: 1 }, { id: 2 }], [{ id: 1 }, { id: 2 }], { page: 1 }, undefined, 2),
		).toEqual({
			qs: { page: 2 },
			firstId: '1',
		});
	});

	it('reaching the page cap is an error that says how to narrow the list, never a silent cut', async () => {
		const { context, requests } = createExecuteContext({
			params: {},
			responses: [1, 2, 3].map((page) => ({
				statusCode: 200,
				body: { next: `https://peach.test/api/v1/medias?page=${page + 1}`, medias: [{ id: page }] },
			})),
		});
		const error = (await peachApiRequestAllItems
			.call(context, { method: 'GET', path: apiPath`/medias`, itemIndex: 4 }, { maxPages: 3 })
			.catch((caught: unknown) => caught)) as NodeOperationError;
		expect(error).toBeInstanceOf(NodeOperationError);
		expect(error.message).toBe('Stopped after 3 pages (3 records) of /medias: the list goes on');
		expect(error.description).toContain('set a Limit');
		expect(error.context.itemIndex).toBe(4);
		expect(requests).toHaveLength(3);
	});

	it('reads one page at a time with a cursor to the next (list search)', async () => {
		const { context, requests } = createExecuteContext({
			params: {},
			responses: [
				{ statusCode: 200, body: [{ id: 'a' }, { id: 'b' }] },
				{ statusCode: 200, body: [{ id: 'a' }, { id: 'b' }] },
			],
		});
		const first = await peachApiRequestPage.call(context, { method: 'GET', path: apiPath`/x` }, {});
		expect(first.items.map((item) => item.id)).toEqual(['a', 'b']);
		expect(first.next).toEqual({ qs: { page: 2 }, firstId: 'a' });
		// An endpoint that ignores `page` answers the same page again: that is the end, with nothing new.
		const second = await peachApiRequestPage.call(
			context,
			{ method: 'GET', path: apiPath`/x` },
			{},
			first.next,
		);
		expect(second).toEqual({ items: [], next: undefined });
		expect(requests).toHaveLength(2);
	});

	it('reads bare-array pages until an empty page', async () => {
		const { context, requests } = createExecuteContext({
			params: {},
			responses: [
				{ statusCode: 200, body: [{ id: 'a' }, { id: 'b' }] },
				{ statusCode: 200, body: [{ id: 'c' }] },
				{ statusCode: 200, body: [] },
			],
		});
		const items = await peachApiRequestAllItems.call(context, {
			method: 'GET',
			path: apiPath`/whats_app_templates/`,
		});
		expect(items.map((item) => item.id)).toEqual(['a', 'b', 'c']);
		expect(requests).toHaveLength(3);
	});

	it('stops when an endpoint ignores page and repeats the first page', async () => {
		const page = { statusCode: 200, body: [{ id: 'a' }, { id: 'b' }] };
		const { context, requests } = createExecuteContext({ params: {}, responses: [page, page] });
		const items = await peachApiRequestAllItems.call(context, {
			method: 'GET',
			path: apiPath`/whats_app_templates/`,
		});
		expect(items.map((item) => item.id)).toEqual(['a', 'b']);
		expect(requests).toHaveLength(2);
	});

	it('stops at the limit without reading further pages', async () => {
		const { context, requests } = createExecuteContext({
			params: {},
			responses: [
				{ statusCode: 200, body: { next: 'more', data: [{ id: 1 }, { id: 2 }, { id: 3 }] } },
			],
		});
		const items = await peachApiRequestAllItems.call(
			context,
			{ method: 'GET', path: apiPath`/x` },
			{ limit: 2 },
		);
		expect(items).toEqual([{ id: 1 }, { id: 2 }]);
		expect(requests).toHaveLength(1);
	});

	it('extracts items from the shapes Peach uses', () => {
		expect(extractItems([{ id: 1 }])).toEqual([{ id: 1 }]);
		expect(
			extractItems({ template_messages: [{ id: 1 }], count: 1 }, ['template_messages']),
		).toEqual([{ id: 1 }]);
		expect(extractItems({ streams: [{ id: 2 }] })).toEqual([{ id: 2 }]);
		expect(extractItems({ a: [], b: [] })).toEqual([]);
		expect(extractItems('nope')).toEqual([]);
	});
});

describe('base URL', () => {
	it('drops trailing slashes and a trailing /api/v1', () => {
		expect(normalizeBaseUrl('https://app.trypeach.io/')).toBe('https://app.trypeach.io');
		expect(normalizeBaseUrl('https://app.trypeach.ai/api/v1')).toBe('https://app.trypeach.ai');
		expect(normalizeBaseUrl('https://app.trypeach.ai/api/v1/')).toBe('https://app.trypeach.ai');
		expect(normalizeBaseUrl('')).toBe('https://app.trypeach.io');
	});
});

describe('buildApiError, other statuses', () => {
	const read = { method: 'GET' as const, path: apiPath`/streams` };
	it.each([
		[400, { message: 'Bad JSON' }, 'Bad JSON', 'Check the values'],
		[400, '', 'Peach could not read the request (400 Bad Request)', 'Check the values'],
		[403, { message: 'Forbidden' }, 'Peach refused access: Forbidden', 'account API key'],
		[
			409,
			{ message: 'Integration not connected', code: 'event_source_not_connected' },
			'Integration not connected (event_source_not_connected)',
			'Connect the integration',
		],
		[
			409,
			{ message: 'Ambiguous', code: 'condition_ambiguous' },
			'Ambiguous (condition_ambiguous)',
			'set Source (e.g. peach_shopify)',
		],
		[
			404,
			{ message: 'No such condition', code: 'condition_not_found' },
			'Not found: GET /api/v1/streams (No such condition (condition_not_found))',
			'pick one From List',
		],
		[
			422,
			{ message: 'Variables missing', code: 'missing_variables' },
			'Variables missing (missing_variables)',
			'add them under Variables',
		],
		[
			409,
			{ message: 'Conflict', code: 'other' },
			'Conflict (other)',
			'conflicts with the current state',
		],
		[418, {}, 'Peach answered with HTTP 418', 'Base URL'],
		[
			503,
			{ message: 'Maintenance' },
			'Peach had a server error (503): Maintenance',
			'try again later',
		],
	])('%i %j', (statusCode, body, message, fix) => {
		const error = buildApiError(node, { statusCode, headers: {}, body }, read);
		expect(error.message).toBe(message);
		expect(error.description).toContain(fix);
		expect(error.httpCode).toBe(String(statusCode));
		expect(error.description).not.toContain('may already have been queued');
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
