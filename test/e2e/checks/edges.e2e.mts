/**
 * Real-n8n checks that what the user gave is what happens: an ID of `..` never leaves its path, the
 * API key never follows a redirect to another host, and Max Concurrent Requests 1 is input order.
 */
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

import { chain, codeNode, type Json, nodeError, sendParameters, webhookNode } from '../n8n.mts';
import { assert, assertEqual, type Check, runPeachWorkflow, SANDBOX_KEY } from '../suite.mts';

const items = (rows: Json[]) =>
	codeNode(`return ${JSON.stringify(rows.map((json) => ({ json })))};`, 'Items');

/** A local server recording what reaches it, answering with `answer`. */
async function server(
	answer: (url: string) => { status: number; headers?: Record<string, string>; body?: unknown },
) {
	const seen: Array<{ method: string; url: string; authorization?: string }> = [];
	const listener = createServer((request, response) => {
		seen.push({
			method: request.method ?? '',
			url: request.url ?? '',
			authorization: request.headers.authorization,
		});
		request.resume();
		const { status, headers, body } = answer(request.url ?? '');
		response.writeHead(status, { 'Content-Type': 'application/json', ...headers });
		response.end(JSON.stringify(body ?? { status: 'success', event_id: 'evt_elsewhere' }));
	});
	await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
	const { port } = listener.address() as AddressInfo;
	return {
		port,
		seen,
		close: () => new Promise<void>((resolve) => listener.close(() => resolve())),
	};
}

export const edgeChecks: Check[] = [
	{
		name: 'an automation ID of ".." from the input is refused before any request (it would post to /events, the send endpoint)',
		fn: async (ctx) => {
			const { execution, requests } = await runPeachWorkflow(
				ctx,
				'e2e-id-dot-dot',
				{
					resource: 'automation',
					operation: 'trigger',
					automationId: { __rl: true, mode: 'id', value: '={{ $json.automation }}' },
					phoneNumber: '+919988776655',
					contactFields: {},
					payloadInput: 'json',
					payloadJson: '{"event_type":"send_template_message"}',
				},
				{},
				{ before: items([{ automation: '..' }]) },
			);
			assertEqual(requests.length, 0, 'requests that reached the sandbox');
			assertEqual(execution.status, 'error', 'execution status');
			assertEqual(
				nodeError(execution, 'Peach')?.message,
				'Automation ".." is a step in a path, not an ID',
				'error message',
			);
		},
	},
	{
		name: 'a Base URL that redirects: the other host never sees the key, and the send is reported as not sent',
		fn: async (ctx) => {
			const elsewhere = await server(() => ({ status: 200 }));
			// The template read before the send is answered (an approved template without variables), so
			// the redirect meets the send itself.
			const redirecting = await server((url) =>
				url.startsWith('/api/v1/whats_app_templates/')
					? { status: 200, body: { id: 'wat_welcome', status: 'approved', components: [] } }
					: { status: 302, headers: { Location: `http://localhost:${elsewhere.port}${url}` } },
			);
			try {
				const credential = await ctx.client.createCredential(
					'Peach, redirecting',
					'peachMessagingApi',
					{
						apiKey: SANDBOX_KEY,
						baseUrl: `http://127.0.0.1:${redirecting.port}`,
					},
				);
				const { execution } = await runPeachWorkflow(
					{ ...ctx, credential },
					'e2e-redirecting-base-url',
					{
						resource: 'templateMessage',
						operation: 'send',
						phoneNumber: '+919988776655',
						templateId: { __rl: true, mode: 'id', value: 'wat_welcome' },
						variablesInput: 'fields',
						variables: {},
						contactFields: {},
						additionalFields: {},
					},
				);
				assertEqual(
					redirecting.seen.map((request) => `${request.method} ${request.url}`),
					['GET /api/v1/whats_app_templates/wat_welcome', 'POST /api/v1/events'],
					'requests to the Base URL',
				);
				assertEqual(elsewhere.seen.length, 0, 'requests that reached the other host');
				assertEqual(execution.status, 'error', 'execution status');
				const error = nodeError(execution, 'Peach');
				assertEqual(
					error?.message,
					`Peach answered with a redirect (302) to http://localhost:${elsewhere.port}, which the node does not follow`,
					'error message',
				);
				assert(
					String(error?.description).startsWith('Nothing was sent.'),
					String(error?.description),
				);
			} finally {
				await elsewhere.close();
				await redirecting.close();
			}
		},
	},
	{
		name: "the Peach credential in n8n's HTTP Request node (v4.2, its defaults), the Base URL redirecting a GET and a POST to another host: that host never sees the key",
		fn: async (ctx) => {
			const elsewhere = await server(() => ({ status: 200 }));
			const redirecting = await server((url) => ({
				status: url.includes('events') ? 307 : 302,
				headers: { Location: `http://localhost:${elsewhere.port}${url}` },
			}));
			try {
				const credential = await ctx.client.createCredential(
					'Peach, redirecting (HTTP Request)',
					'peachMessagingApi',
					{ apiKey: SANDBOX_KEY, baseUrl: `http://127.0.0.1:${redirecting.port}` },
				);
				const call = (name: string, method: string, path: string, x: number): Json => ({
					id: randomUUID(),
					name,
					type: 'n8n-nodes-base.httpRequest',
					typeVersion: 4.2,
					position: [x, 0],
					// Continue: the second call runs even when the first fails (a redirect not followed).
					onError: 'continueRegularOutput',
					parameters: {
						method,
						url: `http://127.0.0.1:${redirecting.port}${path}`,
						authentication: 'predefinedCredentialType',
						nodeCredentialType: 'peachMessagingApi',
						...(method === 'POST'
							? { sendBody: true, specifyBody: 'json', jsonBody: '{"event_type":"x"}' }
							: {}),
						options: {},
					},
					credentials: { peachMessagingApi: credential },
				});
				const path = 'e2e-http-request-redirect';
				const workflowId = await ctx.client.createWorkflow({
					name: `e2e ${path}`,
					nodes: [
						webhookNode(path),
						call('Read', 'GET', '/api/v1/conversations', 220),
						call('Send', 'POST', '/api/v1/events', 440),
					],
					connections: chain('Webhook', 'Read', 'Send'),
				});
				await ctx.client.activate(workflowId);
				await ctx.client.callWebhook(path, {});
				await ctx.client.waitForExecutions(workflowId, 1);
				await ctx.client.deactivate(workflowId);
				assertEqual(
					redirecting.seen.map((request) => `${request.method} ${request.url}`),
					['GET /api/v1/conversations', 'POST /api/v1/events'],
					'requests to the Base URL',
				);
				assertEqual(
					elsewhere.seen.filter((request) => request.authorization !== undefined),
					[],
					'requests with the key at the other host',
				);
				assertEqual(elsewhere.seen.length, 0, 'requests that reached the other host');
			} finally {
				await elsewhere.close();
				await redirecting.close();
			}
		},
	},
	{
		name: 'Max Concurrent Requests 1: 6 items (one contact twice, another twice) reach Peach in input order',
		fn: async (ctx) => {
			const phones = [
				'+14155550601',
				'+14155550602',
				'+14155550603',
				'+14155550601',
				'+14155550604',
				'+14155550602',
			];
			const { execution, requests } = await runPeachWorkflow(
				ctx,
				'e2e-one-at-a-time',
				sendParameters('wat_welcome', undefined, { requestOptions: { concurrency: 1 } }),
				{},
				{ before: items(phones.map((phone) => ({ phone }))) },
			);
			assertEqual(execution.status, 'success', 'execution status');
			assertEqual(
				requests
					.filter((request) => request.method === 'POST' && request.path === '/api/v1/events')
					.map((request) => String(((request.body as Json).contact as Json).phone_number)),
				phones,
				'the order the sends reached Peach',
			);
		},
	},
];
