/** Real-n8n checks: the package is loaded, and the Peach API credential tests against the sandbox. */
import { randomUUID } from 'node:crypto';

import { chain, type Json, N8N_VERSION, nodeOutput, webhookNode } from '../n8n.mts';
import { assert, assertEqual, type Check, runPeachWorkflow, SANDBOX_KEY } from '../suite.mts';

export const credentialChecks: Check[] = [
	{
		name: 'the package is installed as a community package (types n8n-nodes-peach.*)',
		fn: async ({ client }) => {
			const types = await client.nodeTypes();
			assert(
				types.includes('n8n-nodes-peach.peach'),
				'n8n-nodes-peach.peach is not a loaded node type',
			);
			assert(
				types.includes('n8n-nodes-peach.peachTrigger'),
				'n8n-nodes-peach.peachTrigger is not a loaded node type',
			);
			assert(
				types.includes('n8n-nodes-peach.peachTool'),
				'the Peach node is not offered as an AI tool (peachTool)',
			);
		},
	},
	{
		name: 'credential test: the sandbox key passes',
		fn: async ({ client, sandbox, credential }) => {
			const result = await client.testCredential(credential, 'peachMessagingApi', {
				apiKey: SANDBOX_KEY,
				baseUrl: sandbox.url,
			});
			assertEqual(result.status, 'OK', 'credential test status');
			const last = sandbox.state.requests.at(-1);
			assertEqual(
				[last?.method, last?.path, last?.headers.authorization],
				['GET', '/api/v1/conversations', '<sandbox key>'],
				'credential test request',
			);
		},
	},
	{
		name: 'credential test: a wrong key fails with a message a person understands',
		fn: async ({ client, sandbox }) => {
			const bad = await client.createCredential('Peach wrong key', 'peachMessagingApi', {
				apiKey: 'wrong-key',
				baseUrl: sandbox.url,
			});
			const result = await client.testCredential(bad, 'peachMessagingApi', {
				apiKey: 'wrong-key',
				baseUrl: sandbox.url,
			});
			assertEqual(result.status, 'Error', 'credential test status');
			// n8n 1.x shows its own text for a 401 in a credential test instead of the credential's rule.
			const expected = N8N_VERSION.startsWith('1.')
				? 'Authorization failed - please check your credentials'
				: 'Peach rejected the API key (401 Unauthorized)';
			assert(String(result.message).includes(expected), `unexpected message: ${result.message}`);
		},
	},
	{
		name: 'a Base URL ending in /api/v1/ works the same for the credential test and the node',
		fn: async (ctx) => {
			const { client, sandbox } = ctx;
			const baseUrl = `${sandbox.url}/api/v1/`;
			const credential = await client.createCredential('Peach with /api/v1', 'peachMessagingApi', {
				apiKey: SANDBOX_KEY,
				baseUrl,
			});
			const result = await client.testCredential(credential, 'peachMessagingApi', {
				apiKey: SANDBOX_KEY,
				baseUrl,
			});
			assertEqual(result.status, 'OK', 'credential test status');
			assertEqual(sandbox.state.requests.at(-1)?.path, '/api/v1/conversations', 'test path');
			const { execution, requests } = await runPeachWorkflow(
				{ ...ctx, credential },
				'e2e-base-url',
				{ resource: 'automation', operation: 'create', name: 'Via /api/v1', additionalFields: {} },
			);
			assertEqual(execution.status, 'success', 'execution status');
			assertEqual(
				requests.map((request) => [request.method, request.path]),
				[['POST', '/api/v1/streams']],
				'node request',
			);
		},
	},
	{
		name: "a custom API call: n8n's HTTP Request node with the Peach API credential (Predefined Credential Type) reaches Peach with the key and nothing else",
		fn: async (ctx) => {
			// n8n sees the credential authenticate requests: it adds its Custom API Call to the node.
			const types = await fetch(`${ctx.n8n.url}/types/nodes.json`, {
				headers: { Cookie: ctx.client.cookie },
			});
			const peach = ((await types.json()) as Json[]).find(
				(type) => type.name === 'n8n-nodes-peach.peach',
			);
			const resource = (peach?.properties as Json[] | undefined)?.find(
				(property) => property.name === 'resource',
			);
			assert(
				(resource?.options as Json[] | undefined)?.some(
					(option) => option.value === '__CUSTOM_API_CALL__',
				),
				"n8n added no Custom API Call to the Peach node: it does not see the credential's authenticate",
			);
			const workflowId = await ctx.client.createWorkflow({
				name: 'e2e HTTP Request with the Peach credential',
				nodes: [
					webhookNode('e2e-custom-call'),
					{
						id: randomUUID(),
						name: 'Custom call',
						type: 'n8n-nodes-base.httpRequest',
						typeVersion: 4.2,
						position: [220, 0],
						parameters: {
							url: `${ctx.sandbox.url}/api/v1/conversations`,
							authentication: 'predefinedCredentialType',
							nodeCredentialType: 'peachMessagingApi',
							options: {},
						},
						credentials: { peachMessagingApi: ctx.credential },
					},
				],
				connections: chain('Webhook', 'Custom call'),
			});
			await ctx.client.activate(workflowId);
			const before = ctx.sandbox.state.requests.length;
			await ctx.client.callWebhook('e2e-custom-call', {});
			const [execution] = await ctx.client.waitForExecutions(workflowId, 1);
			await ctx.client.deactivate(workflowId);
			assertEqual(execution.status, 'success', 'execution status');
			const requests = ctx.sandbox.state.requests.slice(before);
			assertEqual(
				requests.map((request) => [request.method, request.path, request.headers.authorization]),
				[['GET', '/api/v1/conversations', '<sandbox key>']],
				'what reached Peach',
			);
			// Nothing else of the credential: no other header holds the key or the Base URL.
			const others = Object.entries(requests[0].headers).filter(
				([name, value]) =>
					name !== 'authorization' &&
					(value.includes(SANDBOX_KEY) || value.includes(ctx.sandbox.url)),
			);
			assertEqual(others, [], 'other headers carrying the credential');
			assert(nodeOutput(execution, 'Custom call').length > 0, 'the call has no output');
		},
	},
];
