import { NodeApiError } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { buildApiError, buildNetworkError } from '../../../nodes/Peach/transport/errors';
import { wasNotSent } from '../../../nodes/Peach/transport/outcome';
import { apiPath } from '../../../nodes/Peach/transport/path';
import { DeliveryPermit } from '../../../nodes/Peach/transport/permit';
import { node, TEST_API_KEY, TEST_BASE_URL } from '../support/harness';

/** The router's permit for a delivering request (tests stand in for the router). */
const permit = new DeliveryPermit();

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
	])('a %i answering %j names its message and fix', (statusCode, body, message, fix) => {
		const error = buildApiError(node, { statusCode, headers: {}, body }, read);
		expect(error.message).toBe(message);
		expect(error.description).toContain(fix);
		expect(error.httpCode).toBe(String(statusCode));
		expect(error.description).not.toContain('may already have been queued');
	});
});
