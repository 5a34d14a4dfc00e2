/** Real-n8n checks: the package is loaded, and the Peach API credential tests against the sandbox. */
import { N8N_VERSION } from '../n8n.mts';
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
];
