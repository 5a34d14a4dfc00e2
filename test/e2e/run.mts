/**
 * Real-n8n end-to-end suite (npm run test:e2e): the packed package installed into a real n8n 2.x,
 * workflows created through n8n's public API and run against the Peach sandbox; each check looks at
 * both sides, the request the sandbox saw and the execution n8n recorded.
 * Closes with "N passed, N failed"; exits non-zero on any failure; stops every process it started.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';

import { startSandbox, type Sandbox } from '../sandbox/server.mts';
import {
	chain,
	installPackage,
	keepFailedRun,
	log,
	N8nClient,
	type N8nInstance,
	newUserFolder,
	nodeError,
	nodeOutput,
	packPackage,
	peachNode,
	provisionHost,
	startN8n,
	webhookNode,
	type Json,
} from './n8n.mts';
import { triggerSuite } from './trigger.e2e.mts';

export const SANDBOX_KEY = 'e2e-sandbox-key';
const SUITE_TIMEOUT_MS = Number(process.env.PEACH_E2E_TIMEOUT_MS ?? 25 * 60_000);

export interface Context {
	n8n: N8nInstance;
	client: N8nClient;
	sandbox: Sandbox;
	credential: { id: string; name: string };
}

type Check = { name: string; fn: (ctx: Context) => Promise<void> };

export function assert(condition: unknown, message: string): asserts condition {
	if (!condition) throw new Error(message);
}

export function assertEqual(actual: unknown, expected: unknown, what: string) {
	const a = JSON.stringify(actual);
	const e = JSON.stringify(expected);
	if (a !== e) throw new Error(`${what}: expected ${e}, got ${a}`);
}

/** Creates, publishes and calls a Webhook → Peach workflow; returns the newest execution and the sandbox requests it caused. */
export async function runPeachWorkflow(
	ctx: Context,
	path: string,
	parameters: Json,
	input: Json = {},
) {
	const workflowId = await ctx.client.createWorkflow({
		name: `e2e ${path}`,
		nodes: [webhookNode(path), peachNode(parameters, ctx.credential)],
		connections: chain('Webhook', 'Peach'),
	});
	await ctx.client.activate(workflowId);
	const before = ctx.sandbox.state.requests.length;
	const response = await ctx.client.callWebhook(path, input);
	const [execution] = await ctx.client.waitForExecutions(workflowId, 1);
	await ctx.client.deactivate(workflowId);
	return { response, execution, requests: ctx.sandbox.state.requests.slice(before), workflowId };
}

const sendParameters = (templateId: string): Json => ({
	resource: 'templateMessage',
	operation: 'send',
	phoneNumber: '={{ $json.body.phone }}',
	templateId: { __rl: true, mode: 'list', value: templateId, cachedResultName: templateId },
	variablesInput: 'fields',
	variables: { values: [{ key: 'first_name', value: '={{ $json.body.name }}' }] },
	contactFields: { name: '={{ $json.body.name }}' },
	additionalFields: {},
});

const checks: Check[] = [
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
			assert(
				String(result.message).includes('Peach rejected the API key (401 Unauthorized)'),
				`unexpected message: ${result.message}`,
			);
		},
	},
	{
		name: 'template list search offers only approved templates',
		fn: async ({ client, credential }) => {
			const result = await client.rest(
				'POST',
				'/dynamic-node-parameters/resource-locator-results',
				{
					path: 'templateId',
					nodeTypeAndVersion: { name: 'n8n-nodes-peach.peach', version: 1 },
					currentNodeParameters: { resource: 'templateMessage', operation: 'send' },
					methodName: 'searchTemplates',
					credentials: { peachMessagingApi: credential },
				},
			);
			assertEqual(
				result.results,
				[
					{ name: 'order_update (en, approved)', value: 'wat_order_update' },
					{ name: 'welcome (en, approved)', value: 'wat_welcome' },
				],
				'template list',
			);
		},
	},
	{
		name: 'send template message: the sandbox queues it and n8n outputs the event_id',
		fn: async (ctx) => {
			const { execution, requests, response } = await runPeachWorkflow(
				ctx,
				'e2e-send',
				sendParameters('wat_welcome'),
				{ phone: '+919988776655', name: 'Asha' },
			);
			assertEqual(execution.status, 'success', 'execution status');
			assertEqual(requests.length, 1, 'requests to the sandbox');
			const [request] = requests;
			assertEqual(
				[
					request.method,
					request.path,
					request.headers.authorization,
					request.headers['content-type'],
				],
				['POST', '/api/v1/events', '<sandbox key>', 'application/json'],
				'request line and headers',
			);
			assertEqual(
				request.body,
				{
					event_type: 'send_template_message',
					contact: { phone_number: '+919988776655', name: 'Asha' },
					template_message: {
						whats_app_template_id: 'wat_welcome',
						liquid_values: { first_name: 'Asha' },
					},
				},
				'request body',
			);
			const [output] = nodeOutput(execution, 'Peach');
			assert(
				typeof output?.event_id === 'string' && output.event_id.startsWith('evt_'),
				`no event_id in output: ${JSON.stringify(output)}`,
			);
			assertEqual(response.json.event_id, output.event_id, 'webhook response (last node)');
			assert(
				ctx.sandbox.state.events.some((event) => event.id === output.event_id),
				'the sandbox has no such event',
			);
		},
	},
	{
		name: 'send with every optional field: nested locator, retry window and until, metadata, JSON variables',
		fn: async (ctx) => {
			const { execution, requests } = await runPeachWorkflow(ctx, 'e2e-send-full', {
				resource: 'templateMessage',
				operation: 'send',
				phoneNumber: '+1 (415) 555-0123',
				templateId: { __rl: true, mode: 'id', value: 'wat_order_update' },
				variablesInput: 'json',
				variablesJson: '{"order_id": "A-7", "total": 42}',
				contactFields: {
					email: 'ben@example.com',
					language: 'en',
					metadata: { values: [{ key: 'tier', value: 'gold' }] },
				},
				additionalFields: {
					businessPhoneNumber: '919876543222',
					replyAutomation: {
						__rl: true,
						mode: 'list',
						value: 'strm_welcome',
						cachedResultName: 'Welcome journey',
					},
					retryUntil: '2099-01-01T10:00:00+05:30',
					retryWindow: { window: { startAt: '09:00', endAt: '18:00', timezone: 'Asia/Kolkata' } },
				},
			});
			assertEqual(execution.status, 'success', 'execution status');
			assertEqual(
				requests.map((r) => r.body),
				[
					{
						event_type: 'send_template_message',
						contact: {
							phone_number: '+14155550123',
							email: 'ben@example.com',
							language: 'en',
							metadata: { tier: 'gold' },
						},
						template_message: {
							whats_app_template_id: 'wat_order_update',
							liquid_values: { order_id: 'A-7', total: 42 },
							retry_until: '2099-01-01T04:30:00.000Z',
							retry_window: { start_at: '09:00', end_at: '18:00', timezone: 'Asia/Kolkata' },
							business_phone_number: '919876543222',
							reply_automation: { app_id: 'strm_welcome' },
						},
					},
				],
				'request body',
			);
		},
	},
	{
		name: 'send with Retry Until from a date expression ({{ $now.plus({ days: 1 }) }}) sends UTC ISO 8601',
		fn: async (ctx) => {
			const { execution, requests } = await runPeachWorkflow(
				ctx,
				'e2e-send-expression-date',
				{
					...sendParameters('wat_welcome'),
					additionalFields: { retryUntil: '={{ $now.plus({ days: 1 }) }}' },
				},
				{ phone: '+919988776655', name: 'Asha' },
			);
			assertEqual(execution.status, 'success', 'execution status');
			const retryUntil = ((requests[0]?.body as Json)?.template_message as Json)
				?.retry_until as string;
			assert(
				/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/.test(retryUntil),
				`retry_until is not UTC ISO 8601: ${retryUntil}`,
			);
			const hoursAhead = (Date.parse(retryUntil) - Date.now()) / 3_600_000;
			assert(
				hoursAhead > 23 && hoursAhead < 25,
				`retry_until is ${hoursAhead.toFixed(2)} h ahead, expected about 24`,
			);
		},
	},
	{
		name: 'send with a non-approved template fails with the sandbox reason',
		fn: async (ctx) => {
			const { execution, requests } = await runPeachWorkflow(
				ctx,
				'e2e-send-pending',
				sendParameters('wat_promo'),
				{ phone: '+919988776655', name: 'Asha' },
			);
			assertEqual(execution.status, 'error', 'execution status');
			assertEqual(requests.length, 1, 'requests to the sandbox (no retry of a send)');
			const error = nodeError(execution, 'Peach');
			assertEqual(
				error?.message,
				'template_message.whats_app_template_id: template wat_promo is not approved (status: pending)',
				'error message',
			);
			assertEqual(error?.httpCode, '422', 'error httpCode');
		},
	},
	{
		name: 'send with a bad phone number fails in n8n before any request',
		fn: async (ctx) => {
			const { execution, requests } = await runPeachWorkflow(
				ctx,
				'e2e-send-badphone',
				sendParameters('wat_welcome'),
				{ phone: '9988776655', name: 'Asha' },
			);
			assertEqual(execution.status, 'error', 'execution status');
			assertEqual(requests.length, 0, 'requests to the sandbox');
			assertEqual(
				nodeError(execution, 'Peach')?.message,
				'Phone Number "9988776655" has no + and country code',
				'error message',
			);
		},
	},
	{
		name: 'update trigger: activate registers webhooks, pause pauses',
		fn: async (ctx) => {
			const parameters = (activation: string): Json => ({
				resource: 'trigger',
				operation: 'update',
				automationId: { __rl: true, mode: 'list', value: 'strm_welcome' },
				triggerId: { __rl: true, mode: 'id', value: 'trig_order_paid' },
				activation,
				updateFields: { description: `Order paid (${activation})` },
			});
			const activated = await runPeachWorkflow(ctx, 'e2e-trigger-activate', parameters('activate'));
			assertEqual(activated.execution.status, 'success', 'activate execution status');
			assertEqual(
				activated.requests.map((r) => [r.method, r.path, r.body]),
				[
					[
						'PATCH',
						'/api/v1/triggers/trig_order_paid',
						{ description: 'Order paid (activate)', activate: true },
					],
				],
				'activate request',
			);
			assertEqual(
				nodeOutput(activated.execution, 'Peach')[0]?.status,
				'active',
				'trigger status after activate',
			);
			assert(
				ctx.sandbox.state.registrations.some((entry) => entry.trigger_id === 'trig_order_paid'),
				'no webhook registration recorded',
			);

			const paused = await runPeachWorkflow(ctx, 'e2e-trigger-pause', parameters('pause'));
			assertEqual(
				paused.requests.map((r) => r.body),
				[{ description: 'Order paid (pause)', activate: false }],
				'pause request',
			);
			assertEqual(
				nodeOutput(paused.execution, 'Peach')[0]?.status,
				'paused',
				'trigger status after pause',
			);
		},
	},
	{
		name: 'update trigger: an unknown id fails naming the trigger',
		fn: async (ctx) => {
			const { execution } = await runPeachWorkflow(ctx, 'e2e-trigger-404', {
				resource: 'trigger',
				operation: 'update',
				triggerId: { __rl: true, mode: 'id', value: 'trig_nope' },
				activation: 'activate',
				updateFields: {},
			});
			assertEqual(execution.status, 'error', 'execution status');
			assertEqual(
				nodeError(execution, 'Peach')?.message,
				'Trigger "trig_nope" was not found in Peach (Trigger not found)',
				'error message',
			);
		},
	},
	{
		name: 'create automation: without and with a definition',
		fn: async (ctx) => {
			const plain = await runPeachWorkflow(ctx, 'e2e-automation-plain', {
				resource: 'automation',
				operation: 'create',
				name: 'Backend bot',
				additionalFields: {
					businessPhoneNumber: '919000000001',
					backendUrl: 'https://example.com/backend',
				},
			});
			assertEqual(
				plain.requests.map((r) => r.body),
				[
					{
						name: 'Backend bot',
						business_phone_number: '919000000001',
						backend_url: 'https://example.com/backend',
					},
				],
				'request without definition',
			);
			const plainOut = nodeOutput(plain.execution, 'Peach')[0];
			assertEqual(
				[plainOut?.status, plainOut?.phone_number, plainOut?.execution_mode],
				['draft', '919000000001', 'backend_driven'],
				'automation without definition',
			);

			const definition = {
				start_step: 'hello',
				steps: { hello: { type: 'send_message', payload: { message: { text: 'Hi' } } } },
			};
			const withDefinition = await runPeachWorkflow(ctx, 'e2e-automation-def', {
				resource: 'automation',
				operation: 'create',
				name: 'Greeter',
				additionalFields: { definition: JSON.stringify(definition), status: 'published' },
			});
			assertEqual(
				withDefinition.requests.map((r) => r.body),
				[{ name: 'Greeter', status: 'published', definition }],
				'request with definition',
			);
			const out = nodeOutput(withDefinition.execution, 'Peach')[0];
			assertEqual(
				[out?.status, out?.execution_mode],
				['published', 'definition_driven'],
				'automation with definition',
			);
		},
	},
	{
		name: 'create automation: publishing an invalid definition fails with the reasons',
		fn: async (ctx) => {
			const { execution } = await runPeachWorkflow(ctx, 'e2e-automation-invalid', {
				resource: 'automation',
				operation: 'create',
				name: 'Broken',
				additionalFields: {
					status: 'published',
					definition: '{"start_step": "missing", "steps": {}}',
				},
			});
			assertEqual(execution.status, 'error', 'execution status');
			assertEqual(
				nodeError(execution, 'Peach')?.message,
				'definition: start_step "missing" is not one of the steps',
				'error message',
			);
		},
	},
	{
		name: 'a 429 on a send is reported, not retried; a dropped connection is reported',
		fn: async (ctx) => {
			ctx.sandbox.faults.push({
				kind: 'rate_limit',
				path: '/api/v1/events',
				times: 1,
				retryAfter: 5,
			});
			const limited = await runPeachWorkflow(ctx, 'e2e-send-429', sendParameters('wat_welcome'), {
				phone: '+14155550123',
				name: 'Ben',
			});
			assertEqual(limited.requests.length, 1, 'requests (a send is never repeated)');
			assertEqual(
				nodeError(limited.execution, 'Peach')?.message,
				'Peach is rate-limiting requests (429 Too Many Requests): Too many requests',
				'error message',
			);
			ctx.sandbox.faults.push({ kind: 'drop', path: '/api/v1/streams', times: 1 });
			const dropped = await runPeachWorkflow(ctx, 'e2e-drop', {
				resource: 'automation',
				operation: 'create',
				name: 'x',
				additionalFields: {},
			});
			assertEqual(
				nodeError(dropped.execution, 'Peach')?.message,
				`Could not reach Peach at ${ctx.sandbox.url} (connection closed unexpectedly)`,
				'error message',
			);
		},
	},
];

async function main() {
	const startedAt = Date.now();
	const guard = setTimeout(() => {
		log(`e2e: time limit of ${SUITE_TIMEOUT_MS / 1000}s reached; stopping`);
		log('0 passed, 1 failed');
		process.exit(1);
	}, SUITE_TIMEOUT_MS);
	guard.unref();

	let n8n: N8nInstance | undefined;
	let sandbox: Sandbox | undefined;
	const userFolder = newUserFolder();
	let passed = 0;
	let failed = 0;
	const stopAll = async () => {
		await n8n?.stop();
		await sandbox?.close();
	};
	process.on('SIGINT', () => void stopAll().then(() => process.exit(130)));
	process.on('SIGTERM', () => void stopAll().then(() => process.exit(143)));

	try {
		log('e2e: provisioning the n8n host (cached after the first run)');
		const { host, nodeBin } = await provisionHost();
		log('e2e: building and packing the package');
		const tgz = await packPackage(join(userFolder, 'pack'));
		await installPackage(userFolder, tgz);
		sandbox = await startSandbox({ apiKey: SANDBOX_KEY, deliveryDelayMs: 100 });
		log(`e2e: sandbox at ${sandbox.url}; starting n8n`);
		n8n = await startN8n({ host, nodeBin, userFolder });
		log(`e2e: n8n ready at ${n8n.url} after ${Math.round((Date.now() - startedAt) / 1000)}s`);
		const client = new N8nClient(n8n.url);
		await client.setupOwner();
		const credential = await client.createCredential('Peach sandbox', 'peachMessagingApi', {
			apiKey: SANDBOX_KEY,
			baseUrl: sandbox.url,
		});
		const ctx: Context = { n8n, client, sandbox, credential };

		for (const check of [...checks, ...triggerSuite]) {
			const began = Date.now();
			try {
				await check.fn(ctx);
				passed++;
				log(`  ✓ ${check.name} (${Date.now() - began} ms)`);
			} catch (error) {
				failed++;
				log(`  ✗ ${check.name}\n      ${(error as Error).message}`);
			}
		}
	} catch (error) {
		failed++;
		log(`e2e setup failed: ${(error as Error).stack ?? error}`);
		if (n8n) log(`n8n log: ${n8n.logFile}`);
	} finally {
		await stopAll();
		if (failed === 0) rmSync(userFolder, { recursive: true, force: true });
		else keepFailedRun(userFolder);
		clearTimeout(guard);
	}
	log(`e2e finished in ${Math.round((Date.now() - startedAt) / 1000)}s`);
	log(`${passed} passed, ${failed} failed`);
	process.exit(failed === 0 ? 0 : 1);
}

await main();
