import { describe, expect, it } from 'vitest';

import { node, TEST_API_KEY } from '../support/harness';
import { n8nRequestHelpers } from '../support/wire.mts';
import { localPeachServers, ok } from '../support/localPeach';

/**
 * The credential's authenticate, in n8n's own request function against local servers (wire.ts): a
 * faked HTTP layer follows no redirect; n8n's does.
 */

const peachServer = localPeachServers();

describe('a redirect is never followed with the key', () => {
	it.each([
		['GET', 302],
		['GET', 301],
		['POST', 307],
		['POST', 308],
	] as const)(
		"the credential in n8n's HTTP Request node (v4.2 defaults): a %s answered %i, the other host sees no key",
		async (method, status) => {
			// v4.2's defaults follow redirects.
			const other = await peachServer(ok);
			const peach = await peachServer(() => ({
				status,
				headers: { Location: `${other.url.replace('127.0.0.1', 'localhost')}/landing` },
			}));
			const { requestWithAuthentication } = n8nRequestHelpers(node);
			// What HTTP Request v4.2 hands n8n: its own redirect option on (followRedirect, and
			// followAllRedirects for other methods), the full URL, the credential's type.
			const sent = requestWithAuthentication(
				'peachMessagingApi',
				{
					method,
					uri: `${peach.url}/api/v1/conversations`,
					followRedirect: true,
					followAllRedirects: true,
					maxRedirects: 21,
					json: true,
					...(method === 'POST' ? { body: { event_type: 'x' } } : {}),
				},
				{
					credentialsDecrypted: {
						id: 'credential-1',
						name: 'Peach',
						type: 'peachMessagingApi',
						data: { apiKey: TEST_API_KEY, baseUrl: peach.url },
					},
				},
			);
			const error = await sent.then(
				() => undefined,
				(caught: unknown) => caught as Error,
			);
			expect(peach.seen.map((request) => request.authorization)).toEqual([TEST_API_KEY]);
			expect(other.seen).toEqual([]);
			expect(error).toBeDefined();
		},
	);
});
