/**
 * npm run test:queue, the recovery checks: what n8n does to recover from a failure (the editor's
 * Retry, Retry On Fail, the Retry of an execution whose worker was killed) never sends a message or
 * moves money twice; a 429 from Peach is waited out and every item still goes, once. Counted per
 * phone (or order) at the sandbox, on 2,000-item sends run by the workers.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';

import {
	chain,
	codeNode,
	type Json,
	log,
	N8N_VERSION,
	type N8nClient,
	type N8nInstance,
	nodeOutputs,
	nodeRuns,
	peachNode,
	webhookNode,
	sendParameters,
} from '../e2e/n8n.mts';
import { assert, assertEqual } from '../e2e/suite.mts';
import type { Fault, Sandbox } from '../sandbox/server.mts';

export interface RecoveryContext {
	client: N8nClient;
	credential: { id: string; name: string };
	sandbox: Sandbox;
	workers: N8nInstance[];
	items: number;
	/** Starts a worker in the place of each one a check killed (money.mts kills many times). */
	restartWorkers?: () => Promise<void>;
	/** Answers a query to n8n's PostgreSQL database, one line per row, columns split by `|`. */
	sql: (query: string) => Promise<string>;
}

/** n8n 1.x stores an execution's context only once it ran (docs/running-at-scale.md). */
export const N8N_1 = N8N_VERSION.startsWith('1.');
/**
 * Max Concurrent Requests of the recovery checks: low enough that a crash leaves few deliveries in
 * flight, high enough that thousands of deliveries, each proven in the record before its request
 * (about a second: PROOF_WAIT_MS), fit the run's time.
 */
export const CONCURRENCY = 20;

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export const sendWithConcurrency = (): Json =>
	sendParameters('wat_welcome', undefined, { requestOptions: { concurrency: CONCURRENCY } });

interface SendWorkflow {
	workflowId: string;
	path: string;
	phones: string[];
	nodes: Json[];
	connections: Json;
	name: string;
}

/** Webhook → Items (`count` phones from `prefix`) → Send (with node settings) [→ more nodes]. */
export async function sendWorkflow(
	q: RecoveryContext,
	prefix: string,
	options: { parameters?: Json; settings?: Json; after?: Json[]; count?: number } = {},
): Promise<SendWorkflow> {
	const count = options.count ?? q.items;
	const phones = Array.from({ length: count }, (_, i) => `${prefix}${String(5000000 + i)}`);
	const path = `queue-recovery-${randomUUID().slice(0, 8)}`;
	const after = options.after ?? [];
	const nodes = [
		webhookNode(path, 'Webhook', { responseMode: 'onReceived' }),
		codeNode(
			`return Array.from({ length: ${count} }, (_, i) => ({ json: { phone: '${prefix}' + String(5000000 + i) } }));`,
			'Items',
		),
		{
			...peachNode(options.parameters ?? sendWithConcurrency(), q.credential, 'Send'),
			...options.settings,
		},
		...after,
	];
	const connections = chain('Webhook', 'Items', 'Send', ...after.map((node) => String(node.name)));
	const name = `queue ${path}`;
	const workflowId = await q.client.createWorkflow({ name, nodes, connections });
	await q.client.activate(workflowId);
	return { workflowId, path, phones, nodes, connections, name };
}

/** The worker whose log names the execution: the one running it. */
export function workerRunning(q: RecoveryContext, executionId: string): N8nInstance {
	const running = q.workers.find((worker) =>
		readFileSync(worker.logFile, 'utf8').includes(`execution ${executionId}`),
	);
	assert(running, `no worker log names execution ${executionId}`);
	return running;
}

/** Kills a worker (kill -9); run.mts starts another in its place after the check. */
export async function kill(q: RecoveryContext, worker: N8nInstance): Promise<void> {
	await worker.kill();
	q.workers.splice(q.workers.indexOf(worker), 1);
}

/** Per phone, the template messages Peach (the sandbox) queued. */
export function queuedPerPhone(q: RecoveryContext, phones: string[]): Map<string, number> {
	const counts = new Map(phones.map((phone) => [phone, 0]));
	for (const message of q.sandbox.state.templateMessages) {
		const phone = String(message.phone_number);
		if (counts.has(phone)) counts.set(phone, (counts.get(phone) ?? 0) + 1);
	}
	return counts;
}

export async function addFault(q: RecoveryContext, fault: Fault) {
	q.sandbox.faults.push({ method: 'POST', ...fault });
}

/** Peach refusing one contact: the fault matches its number as the JSON body carries it. */
const contactInBody = (phone: string) => `"phone_number":"${phone}"`;

/** The sandbox's send requests since `from`: per phone, and which Peach accepted. */
export function sendsSince(q: RecoveryContext, from: number) {
	const sends = q.sandbox.state.requests
		.slice(from)
		.filter((request) => request.method === 'POST' && request.path === '/api/v1/events');
	const phoneOf = (request: (typeof sends)[number]) =>
		String(((request.body as Json)?.contact as Json)?.phone_number);
	const requests = new Map<string, number>();
	const accepted = new Map<string, number>();
	for (const request of sends) {
		requests.set(phoneOf(request), (requests.get(phoneOf(request)) ?? 0) + 1);
		if (request.status === 201)
			accepted.set(phoneOf(request), (accepted.get(phoneOf(request)) ?? 0) + 1);
	}
	const statuses = new Map<number, number>();
	for (const request of sends)
		statuses.set(request.status ?? 0, (statuses.get(request.status ?? 0) ?? 0) + 1);
	return { sends, requests, accepted, statuses };
}

export const more = (counts: Map<string, number>, than = 1) =>
	[...counts.values()].filter((count) => count > than).length;

export async function executionOf(q: RecoveryContext, id: string): Promise<Json> {
	return await q.client.api('GET', `/executions/${id}?includeData=true`);
}

/**
 * What Send's errors list (every run of Send): a run that ends with outcomes unknown fails, and its
 * error's context names what was sent (`alreadySent`) and what is unknown (`outcomeUnknown`).
 */
function errorListed(execution: Json): Json[] {
	return nodeRuns(execution, 'Send').flatMap((run) => {
		const context = ((run.error as Json | undefined)?.context ?? {}) as Json;
		return [
			...((context.alreadySent ?? []) as Json[]).map((entry) => ({ alreadySent: entry })),
			...((context.outcomeUnknown ?? []) as Json[]).map((entry) => ({ outcomeUnknown: entry })),
		];
	});
}

/**
 * What the Send outputs say of each item (every run of Send), and what its errors list: sent now,
 * sent before, unknown, an error.
 */
export function outcomes(execution: Json) {
	const output = [
		...nodeOutputs(execution, 'Send'),
		// The items Send put on its error output (On Error → Continue (using error output)).
		...nodeOutputs(execution, 'Send', 1),
		...errorListed(execution),
	];
	const count = (test: (item: Json) => boolean) => output.filter(test).length;
	return {
		output,
		sentNow: count((item) => typeof item.event_id === 'string' && !item.alreadySent),
		alreadySent: count((item) => item.alreadySent !== undefined),
		unknown: count((item) => item.outcomeUnknown !== undefined),
		errors: count((item) => item.error !== undefined),
	};
}

/** Each check starts with a sandbox without faults. */
export const recoveryChecks: Array<{ name: string; fn: (q: RecoveryContext) => Promise<void> }> = [
	{
		name: 'Peach answers 429 from the 600th send for 30 s: the node waits Retry-After and sends on; every item sent, each phone once',
		fn: async (q) => {
			await addFault(q, {
				kind: 'rate_limit',
				path: '/api/v1/events',
				after: 599,
				forMs: 30_000,
				retryAfter: 5,
			});
			const from = q.sandbox.state.requests.length;
			const began = Date.now();
			const workflow = await sendWorkflow(q, '+1417');
			await q.client.callWebhook(workflow.path, {});
			const [execution] = await q.client.waitForExecutions(workflow.workflowId, 1, 10 * 60_000);
			await q.client.deactivate(workflow.workflowId);
			const { accepted, statuses } = sendsSince(q, from);
			log(
				`      ${q.items} items in ${((Date.now() - began) / 1000).toFixed(1)} s: ${statuses.get(201) ?? 0} sends accepted, ${statuses.get(429) ?? 0} answered 429 (sent again after Retry-After); ${accepted.size} phones got the message, ${more(accepted)} twice; execution ${String(execution.status)}`,
			);
			assert((statuses.get(429) ?? 0) > 0, 'the sandbox answered no 429');
			assertEqual(execution.status, 'success', 'execution status');
			assertEqual(accepted.size, q.items, 'phones that got the message');
			assertEqual(more(accepted), 0, 'phones that got it twice');
		},
	},
	{
		name: "Peach has server errors from the 600th send: the execution fails; the editor's Retry (original workflow), then a retry of that retry (saved workflow): no phone twice, every other item sent once, the unknown ones listed",
		fn: async (q) => {
			// Server errors on the 600th send and the ones under way with it; then one more, on the first
			// send of the first Retry (Peach still failing); then Peach is well again.
			await addFault(q, { kind: 'server_error', path: '/api/v1/events', after: 599, times: 3 });
			const from = q.sandbox.state.requests.length;
			const workflow = await sendWorkflow(q, '+1418');
			await q.client.callWebhook(workflow.path, {});
			const [original] = await q.client.waitForExecutions(workflow.workflowId, 1, 10 * 60_000);
			const afterOriginal = sendsSince(q, from);
			q.sandbox.faults.length = 0;
			await addFault(q, { kind: 'server_error', path: '/api/v1/events', times: 1 });
			const retries: Array<{ id: string; status: string; loadWorkflow: boolean }> = [];
			let last = { id: String(original.id), status: String(original.status) };
			for (const loadWorkflow of [false, true]) {
				last = await q.client.retryExecution(last.id, loadWorkflow);
				retries.push({ ...last, loadWorkflow });
			}
			await q.client.deactivate(workflow.workflowId);
			const { requests, accepted, statuses } = sendsSince(q, from);
			const final = outcomes(await executionOf(q, last.id));
			log(
				`      original: ${String(original.status)} after ${afterOriginal.sends.length} send requests; ${retries.map((retry) => `Retry (${retry.loadWorkflow ? 'saved' : 'original'} workflow): ${retry.status}`).join(', ')}; in all ${requests.size} phones asked (${statuses.get(500) ?? 0} answered 500), ${more(requests)} asked twice; the last execution's output: ${final.sentNow} sent by it, ${final.alreadySent} already sent, ${final.unknown} outcome unknown`,
			);
			assertEqual(original.status, 'error', 'the original execution');
			// An unknown outcome is never a success: the retry of the retry sends the rest, then fails
			// naming the unknown ones (its error's context).
			assertEqual(
				retries.map((retry) => retry.status),
				['error', 'error'],
				'the Retry (Peach still failing), then the retry of the retry',
			);
			assertEqual(more(requests), 0, 'phones asked twice (a 500 may have reached Peach)');
			assertEqual(requests.size, q.items, 'phones asked once');
			assertEqual(final.unknown, statuses.get(500) ?? 0, 'items listed as unknown (one per 500)');
			assertEqual(
				final.sentNow + final.alreadySent + final.unknown,
				q.items,
				'output items of the last retry',
			);
			assertEqual(
				accepted.size + final.unknown,
				q.items,
				'phones that got the message or are unknown',
			);
		},
	},
	{
		name: 'Retry On Fail (3 tries), the 3rd contact refused each time: no phone twice',
		fn: async (q) => {
			const workflow = await sendWorkflow(q, '+1419', {
				settings: { retryOnFail: true, maxTries: 3, waitBetweenTries: 100 },
			});
			await addFault(q, {
				kind: 'refuse',
				path: '/api/v1/events',
				bodyIncludes: contactInBody(workflow.phones[2]),
				times: 3,
			});
			const from = q.sandbox.state.requests.length;
			await q.client.callWebhook(workflow.path, {});
			const [execution] = await q.client.waitForExecutions(workflow.workflowId, 1, 10 * 60_000);
			await q.client.deactivate(workflow.workflowId);
			const { requests, accepted } = sendsSince(q, from);
			log(
				`      ${requests.size} phones asked: the 3rd ${requests.get(workflow.phones[2])} times (refused), ${more(accepted)} got the message twice; execution ${String(execution.status)}`,
			);
			assertEqual(requests.get(workflow.phones[2]), 3, 'the refused contact, once per try');
			assertEqual(more(accepted), 0, 'phones that got the message twice');
			assertEqual(execution.status, 'error', 'execution status');
		},
	},
	{
		name: `a worker killed (kill -9) in the middle of a send: ${N8N_1 ? 'n8n 1.x runs the stalled job again when allowed; nothing twice then' : 'the execution retried before n8n gives up on it: no phone twice, at most Max Concurrent Requests unknown'}`,
		fn: async (q) => {
			// Each send takes 20 ms at Peach, so the send lasts long enough to be cut in the middle.
			await addFault(q, {
				kind: 'slow',
				path: '/api/v1/events',
				delayMs: 20,
				times: 100_000,
			});
			const from = q.sandbox.state.requests.length;
			const workflow = await sendWorkflow(q, '+1416');
			const sendsSoFar = () => sendsSince(q, from).sends.length;
			await q.client.callWebhook(workflow.path, {});
			const started = Date.now();
			while (sendsSoFar() < q.items / 4 && Date.now() - started < 120_000) await sleep(50);
			const [executionId] = await q.client.executionIds(workflow.workflowId);
			const running = workerRunning(q, executionId);
			const atKill = sendsSoFar();
			log(`      ${atKill} sends made: killing the worker running execution ${executionId}`);
			await kill(q, running);
			// What n8n shows, until it shows the execution crashed or 20 s passed (measured on n8n 2.40.7:
			// "running" until its stall check, about 80 s after the kill; then "error", with the execution's
			// data replaced, so that a Retry runs no node). Then the editor's Retry endpoint is called.
			const killedAt = Date.now();
			const shown: string[] = [];
			const showing = async () => {
				const status = String((await executionOf(q, executionId)).status);
				if (shown[shown.length - 1]?.split(' ')[0] !== status)
					shown.push(`${status} ${((Date.now() - killedAt) / 1000).toFixed(0)} s after the kill`);
				return status;
			};
			let status = await showing();
			while (status === 'running' && Date.now() - killedAt < 20_000) {
				await sleep(500);
				status = await showing();
			}
			q.sandbox.faults.length = 0;
			if (N8N_1) {
				// n8n 1.x runs a stalled job again as the same execution when its
				// QUEUE_WORKER_MAX_STALLED_COUNT allows (its default, 1): the node then skips what was sent
				// (its record is keyed by the execution ID on 1.x).
				while (
					['running', 'crashed', 'new'].includes(await showing()) &&
					Date.now() - killedAt < 4 * 60_000
				)
					await sleep(1000);
				await q.client.deactivate(workflow.workflowId);
				const { requests, accepted } = sendsSince(q, from);
				const stalledRuns = Number(process.env.PEACH_QUEUE_MAX_STALLED_COUNT ?? '1');
				log(
					`      n8n ${N8N_VERSION} (QUEUE_WORKER_MAX_STALLED_COUNT=${stalledRuns}) showed: ${shown.join(', then ')}; ${requests.size} phones asked, ${more(requests)} twice, ${accepted.size} got the message`,
				);
				if (stalledRuns > 0) assertEqual(more(requests), 0, 'phones asked twice');
				return;
			}
			const beforeRetry = sendsSince(q, from);
			const retry = await q.client.retryExecution(executionId, false);
			const final = outcomes(await executionOf(q, retry.id));
			// And what n8n makes of the original in the end (its stall check).
			while (['running', 'crashed'].includes(await showing()) && Date.now() - killedAt < 3 * 60_000)
				await sleep(1000);
			await q.client.deactivate(workflow.workflowId);
			const { requests, accepted } = sendsSince(q, from);
			log(
				`      n8n showed: ${shown.join(', then ')}; the Retry, ${((Date.now() - started) / 1000).toFixed(0)} s after the start, while n8n showed ${status}: ${retry.status}, its output ${final.sentNow} sent by it, ${final.alreadySent} already sent, ${final.unknown} outcome unknown; in all ${requests.size} phones asked (${beforeRetry.requests.size} before the Retry), ${more(requests)} twice, ${accepted.size} got the message`,
			);
			assertEqual(more(requests), 0, 'phones asked twice');
			// A phone never asked can only be one the Retry lists as unknown: the process may die between
			// recording a claim and making its request (then Peach never saw it, and nobody can tell).
			const unknownPhones = new Set(
				final.output
					.map((item) => (item.outcomeUnknown as Json | undefined)?.recipient)
					.filter((recipient) => recipient !== undefined)
					.map(String),
			);
			assertEqual(
				workflow.phones.filter((phone) => !requests.has(phone) && !unknownPhones.has(phone)),
				[],
				'phones never asked that the Retry does not list as unknown',
			);
			assert(
				final.unknown <= CONCURRENCY,
				`${final.unknown} unknown, more than Max Concurrent Requests`,
			);
			assertEqual(
				final.sentNow + final.alreadySent + final.unknown,
				q.items,
				"the retry's output items",
			);
		},
	},
	{
		name: 'Order → Refund, the workflow failing after it, retried: one refund',
		fn: async (q) => {
			const response = await fetch(`${q.sandbox.url}/api/v1/orders`, {
				method: 'POST',
				headers: { Authorization: q.sandbox.apiKey, 'Content-Type': 'application/json' },
				body: JSON.stringify({
					id: `Q-${randomUUID().slice(0, 6)}`,
					contact: { phone_number: '+919988776655' },
					items: [{ name: 'Mango box', amount: 12000, quantity: 1 }],
				}),
			});
			const order = String(((await response.json()) as Json).id);
			await fetch(`${q.sandbox.url}/__sandbox/orders/${order}/pay`, { method: 'POST' });
			const workflow = await sendWorkflow(q, '+1420', {
				count: 1,
				parameters: {
					resource: 'order',
					operation: 'refund',
					orderId: order,
					refundType: 'partial',
					amount: 5000,
					currency: 'INR',
					speed: 'normal',
				},
				after: [codeNode("throw new Error('the bookkeeping system is down');", 'Book')],
			});
			const refunds = () =>
				q.sandbox.state.requests.filter(
					(request) =>
						request.method === 'POST' && request.path === `/api/v1/orders/${order}/refunds`,
				).length;
			await q.client.callWebhook(workflow.path, {});
			const [failed] = await q.client.waitForExecutions(workflow.workflowId, 1, 60_000);
			const retry = await q.client.retryExecution(String(failed.id), false);
			const again = await q.client.retryExecution(retry.id, true);
			await q.client.deactivate(workflow.workflowId);
			log(
				`      the workflow failed after the refund (${String(failed.status)}), retried twice (${retry.status}, ${again.status}): ${refunds()} refund request(s)`,
			);
			assertEqual(refunds(), 1, 'refund requests');
		},
	},
];
