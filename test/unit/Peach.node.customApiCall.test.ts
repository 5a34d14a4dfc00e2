import type { NodeOperationError } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { PeachMessagingApi } from '../../credentials/PeachMessagingApi.credentials';
import { runPeach } from './support/harness';

describe('a custom API call with the Peach API credential', () => {
	it("keeps authenticate in n8n's copy of a community credential, so n8n adds Custom API Call to the node", async () => {
		// n8n copies a community credential's own properties; with authenticate kept, its HTTP Request node lists the credential.
		// n8n 2.40 (load-nodes-and-credentials.js, postProcessLoaders) spreads each loaded credential.
		const copy = { ...new PeachMessagingApi() };
		expect(typeof copy.authenticate).toBe('function');
		const sent = await copy.authenticate(
			{ apiKey: 'the-key', baseUrl: 'https://app.trypeach.io/api/v1/' },
			{ url: 'https://app.trypeach.io/api/v1/conversations', method: 'GET' },
		);
		expect(sent).toMatchObject({
			headers: { Authorization: 'the-key' },
			disableFollowRedirect: true,
		});
	});

	it("the node's Custom API Call option (added by n8n) says to use an HTTP Request node with this credential; nothing is sent", async () => {
		for (const params of [
			{ resource: '__CUSTOM_API_CALL__', operation: '__CUSTOM_API_CALL__' },
			{ resource: 'contact', operation: '__CUSTOM_API_CALL__' },
		]) {
			const { output, requests } = await runPeach({ params, responses: [] });
			const error = output as NodeOperationError;
			expect(requests).toEqual([]);
			expect(error.message).toBe('Custom API Call runs in an HTTP Request node');
			expect(error.description).toContain(
				'set Authentication → Predefined Credential Type → Peach API',
			);
		}
	});
});
