import { describe, expect, it } from 'vitest';

import { wasNotSent } from '../../../nodes/Peach/transport/outcome';
import { locator, TEST_API_KEY } from '../support/harness';
import { localPeachServers, ok, runOverTheWire as run } from '../support/localPeach';

/** What the user gave is what happens, over n8n's own request function (support/localPeach.ts). */

const peachServer = localPeachServers();

describe('a redirect is never followed with the key', () => {
	const send = {
		resource: 'templateMessage',
		operation: 'send',
		phoneNumber: '+919988776655',
		templateId: locator('wat_welcome', 'id'),
		variablesInput: 'fields',
		variables: {},
	};

	it.each([301, 302, 307, 308])(
		'a %i on the send: the other host sees nothing, and the error says nothing was sent',
		async (status) => {
			const other = await peachServer(ok);
			// The template (read first, for its variables) answers; the send is redirected.
			const peach = await peachServer((request) =>
				request.method === 'GET'
					? { status: 200, body: '{"id":"wat_welcome","status":"approved","components":[]}' }
					: {
							status,
							headers: {
								Location: `${other.url.replace('127.0.0.1', 'localhost')}/landing?token=x`,
							},
						},
			);
			const { output, error } = await run(send, peach.url);
			expect(output).toBeUndefined();
			expect(peach.seen.map((request) => [request.method, request.url])).toEqual([
				['GET', '/api/v1/whats_app_templates/wat_welcome'],
				['POST', '/api/v1/events'],
			]);
			expect(other.seen).toEqual([]);
			expect(error?.message).toBe(
				`Peach answered with a redirect (${status}) to ${other.url.replace('127.0.0.1', 'localhost')}, which the node does not follow`,
			);
			expect(error?.description).toMatch(/^Nothing was sent\. Redirects are not followed/);
			expect(wasNotSent(error)).toBe(true);
			expect(JSON.stringify(error)).not.toContain(TEST_API_KEY);
		},
	);

	it('a read answered with a redirect (a marketing site as Base URL) is an error, not its HTML as a success', async () => {
		const other = await peachServer(() => ({ status: 200, body: '<!doctype html><p>Welcome</p>' }));
		const peach = await peachServer(() => ({ status: 301, headers: { Location: other.url } }));
		const { output, error } = await run(
			{ resource: 'automation', operation: 'getMany', returnAll: true },
			peach.url,
		);
		expect(output).toBeUndefined();
		expect(other.seen).toEqual([]);
		expect(error?.message).toMatch(/^Peach answered with a redirect \(301\)/);
	});
});
