/**
 * npm run test:queue, the delivery record at the size the package is for: Loop Over Items over 3,000
 * contacts with a worker killed near the end and another execution before the Retry; a Retry whose
 * input gained a row; 1,000 single-send executions on both workers at once, one worker killed.
 * Counted per phone at the sandbox.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

import {
	codeNode,
	type Json,
	log,
	N8N_VERSION,
	nodeOutputs,
	nodeRuns,
	peachNode,
	webhookNode,
} from '../e2e/n8n.mts';
import { PROOF_WAIT_MS, PROOF_WAIT_SLOWEST_TIMES } from '../../nodes/Peach/actions/run/record/n8n';
import { assert, assertEqual, pool } from '../e2e/suite.mts';
import {
	addFault,
	CONCURRENCY,
	executionOf,
	kill,
	more,
	outcomes,
	queuedPerPhone,
	type RecoveryContext,
	sendsSince,
	sendWithConcurrency,
	sleep,
	workerRunning,
} from './recovery.mts';

const N8N_1 = N8N_VERSION.startsWith('1.');

/** Creates and activates a workflow; its webhook's path. */
async function activate(q: RecoveryContext, name: string, nodes: Json[], connections: Json) {
	const workflowId = await q.client.createWorkflow({ name, nodes, connections });
	await q.client.activate(workflowId);
	return workflowId;
}

const link = (node: string, index = 0) => ({ node, type: 'main', index });

/** Items from the webhook's body ({prefix, count}): one phone each. */
function itemsNode(): Json {
	return codeNode(
		`const { prefix, count } = $input.first().json.body;
return Array.from({ length: count }, (_, i) => ({ json: { phone: prefix + String(5000000 + i) } }));`,
		'Items',
	);
}

/**
 * A list of contacts on a local address, as a query would return them ([{phone}]), answering after
 * `delayMs`; `set` changes it.
 */
async function listServer(phones: string[], delayMs = 0) {
	let rows = phones;
	const server = createServer((_, response) => {
		const answer = () => {
			response.writeHead(200, { 'Content-Type': 'application/json' });
			response.end(JSON.stringify(rows.map((phone) => ({ phone }))));
		};
		if (delayMs) setTimeout(answer, delayMs);
		else answer();
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
	return {
		url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/contacts`,
		set: (next: string[]) => {
			rows = next;
		},
		close: () => server.close(),
	};
}

const phonesOf = (prefix: string, count: number) =>
	Array.from({ length: count }, (_, i) => `${prefix}${String(5000000 + i)}`);

/** The phones the Retry's Send outputs list as unknown. */
const unknownPhones = (output: Json[]) =>
	new Set(
		output
			.map((item) => (item.outcomeUnknown as Json | undefined)?.recipient)
			.filter((recipient) => recipient !== undefined)
			.map(String),
	);

/** Waits until `count` sends reached the sandbox since `from`, for at most `ms`. */
async function untilSends(q: RecoveryContext, from: number, count: number, ms = 180_000) {
	const started = Date.now();
	while (sendsSince(q, from).sends.length < count && Date.now() - started < ms) await sleep(50);
}

/**
 * n8n's own Remove Duplicates (v2, scope node) before the send: one `checkProcessedAndRecord` call
 * per execution on a row of its own, in the same executions and processes as the record's calls.
 * Its run's time is the longest its read-and-write of the row can have taken.
 */
function storeProbe(): Json {
	return {
		id: randomUUID(),
		name: 'Probe',
		type: 'n8n-nodes-base.removeDuplicates',
		typeVersion: 2,
		position: [200, 0],
		parameters: {
			operation: 'removeItemsSeenInPreviousExecutions',
			logic: 'removeItemsWithAlreadySeenKeyValues',
			dedupeValue: '={{ $json.body.phone }}',
			options: { scope: 'node' },
		},
	};
}

/**
 * The Probe's run times over the workflow's executions: how long n8n's store calls took; and each
 * execution's time, from its start to its end as n8n saved them.
 */
async function storeCalls(q: RecoveryContext, workflowId: string) {
	const ids = await q.client.executionIds(workflowId);
	const read = await pool(
		10,
		ids.map((id) => async () => {
			const execution = await executionOf(q, id);
			const runs = nodeRuns(execution, 'Probe');
			const took =
				Date.parse(String(execution.stoppedAt)) - Date.parse(String(execution.startedAt));
			return { probe: runs.map((run) => Number(run.executionTime)), took };
		}),
	);
	const executionMs = read.map(({ took }) => took).filter((took) => Number.isFinite(took));
	const times = read
		.map(({ probe }) => probe)
		.flat()
		.filter((time) => Number.isFinite(time))
		.sort((a, b) => a - b);
	const at = (fraction: number) =>
		times[Math.min(times.length - 1, Math.floor(fraction * times.length))] ?? 0;
	return {
		count: times.length,
		longest: times.at(-1) ?? 0,
		p99: at(0.99),
		median: at(0.5),
		executionMs,
	};
}

/** n8n's HTTP Request node making Send's request, with the Peach credential. */
function httpSend(q: RecoveryContext): Json {
	return {
		id: randomUUID(),
		name: 'Send',
		type: 'n8n-nodes-base.httpRequest',
		typeVersion: 4.2,
		position: [400, 0],
		parameters: {
			method: 'POST',
			url: `${q.sandbox.url}/api/v1/events`,
			authentication: 'predefinedCredentialType',
			nodeCredentialType: 'peachMessagingApi',
			sendBody: true,
			specifyBody: 'json',
			jsonBody:
				'={ "event_type": "send_template_message", "contact": { "phone_number": "{{ $json.body.phone }}" }, "template_message": { "whats_app_template_id": "wat_welcome", "liquid_values": { "first_name": "Guest" } } }',
			options: {},
		},
		credentials: { peachMessagingApi: q.credential },
	};
}

export const recordChecks: Array<{ name: string; fn: (q: RecoveryContext) => Promise<void> }> = [
	{
		name: `Loop Over Items (batches of 100) over 3,000 contacts, the worker killed after 2,900 sends, one ordinary execution of the workflow, two Retries of the crashed execution, then README's way on: ${N8N_1 ? 'measured (n8n 1.x)' : 'no phone twice, every phone once'}`,
		fn: async (q) => {
			// From the 2,901st send on, Peach takes 5 s: the kill finds requests under way.
			await addFault(q, {
				kind: 'slow',
				path: '/api/v1/events',
				after: 2900,
				delayMs: 5000,
				times: 1000,
			});
			await addFault(q, { kind: 'slow', path: '/api/v1/events', delayMs: 10, times: 100_000 });
			const path = `queue-loop-${randomUUID().slice(0, 8)}`;
			const nodes = [
				webhookNode(path, 'Webhook', { responseMode: 'onReceived' }),
				itemsNode(),
				{
					id: randomUUID(),
					name: 'Loop',
					type: 'n8n-nodes-base.splitInBatches',
					typeVersion: 3,
					position: [400, 0],
					parameters: { batchSize: 100, options: {} },
				},
				peachNode(sendWithConcurrency(), q.credential, 'Send'),
			];
			const connections = {
				Webhook: { main: [[link('Items')]] },
				Items: { main: [[link('Loop')]] },
				Loop: { main: [[], [link('Send')]] },
				Send: { main: [[link('Loop')]] },
			};
			const workflowId = await activate(q, `queue ${path}`, nodes, connections);
			const prefix = '+1421';
			const phones = phonesOf(prefix, 3000);
			const from = q.sandbox.state.requests.length;
			await q.client.callWebhook(path, { prefix, count: 3000 });
			await untilSends(q, from, 2905);
			const [executionId] = await q.client.executionIds(workflowId);
			await kill(q, workerRunning(q, executionId));
			q.sandbox.faults.length = 0;
			const atKill = sendsSince(q, from).sends.length;
			// An ordinary execution of the workflow (other contacts) before the Retries.
			await q.client.callWebhook(path, { prefix: '+1422', count: 1 });
			const [ordinary] = await q.client.waitForExecutions(workflowId, 1, 60_000);
			if (N8N_1) {
				await sleep(10_000);
				log(`      n8n ${N8N_VERSION}: killed after ${atKill} sends; measured only`);
				await q.client.deactivate(workflowId);
				return;
			}
			// Two Retries of the crashed execution, one after the other, while n8n offers them (before
			// its stall check replaces the execution's data); then README's way on: On Error → Continue
			// (using error output) and a Retry of the crashed execution with the saved workflow.
			const first = await q.client.retryExecution(executionId, false);
			const firstOutcomes = outcomes(await executionOf(q, first.id));
			const second = await q.client.retryExecution(executionId, false);
			const secondOutcomes = outcomes(await executionOf(q, second.id));
			await q.client.updateWorkflow(workflowId, {
				name: `queue ${path}`,
				nodes: nodes.map((node) =>
					node.name === 'Send' ? { ...node, onError: 'continueErrorOutput' } : node,
				),
				connections,
			});
			const onward = await q.client.retryExecution(executionId, true);
			await q.client.deactivate(workflowId);
			const final = outcomes(await executionOf(q, onward.id));
			const { requests } = sendsSince(q, from);
			const asked = new Map(phones.map((phone) => [phone, requests.get(phone) ?? 0]));
			const queued = queuedPerPhone(q, phones);
			log(
				`      killed after ${atKill} sends; the ordinary execution: ${String(ordinary?.status)}; Retry 1: ${first.status} (${firstOutcomes.sentNow} sent, ${firstOutcomes.alreadySent} already sent, ${firstOutcomes.unknown} unknown); Retry 2: ${second.status} (${secondOutcomes.sentNow} sent, ${secondOutcomes.alreadySent} already sent, ${secondOutcomes.unknown} unknown); README's way on: ${onward.status} (${final.sentNow} sent, ${final.alreadySent} already sent, ${final.unknown} unknown); ${[...asked.values()].filter((count) => count > 0).length} of 3,000 phones asked, ${more(asked)} twice; Peach queued ${[...queued.values()].filter((count) => count === 1).length} once`,
			);
			assertEqual(more(asked), 0, 'phones asked twice');
			assertEqual(
				phones.filter((phone) => asked.get(phone) !== 1),
				[],
				'phones not asked exactly once',
			);
			assertEqual(onward.status, 'success', "the Retry on README's way");
			assertEqual(
				final.sentNow + final.alreadySent + final.errors,
				3000,
				"the last Retry's Send outputs",
			);
		},
	},
	{
		name: `the Retry of a crashed execution whose query gained a row at the front and lost one in the middle: ${N8N_1 ? 'measured (n8n 1.x)' : 'the new row sent once, no phone twice'}`,
		fn: async (q) => {
			await addFault(q, { kind: 'slow', path: '/api/v1/events', delayMs: 20, times: 100_000 });
			const gained = '+14235999999';
			const phones = phonesOf('+1423', 1000);
			// The contacts a query returns (an HTTP Request node reads them): one more before the Retry.
			const list = await listServer(phones);
			const path = `queue-gain-${randomUUID().slice(0, 8)}`;
			const workflowId = await activate(
				q,
				`queue ${path}`,
				[
					webhookNode(path, 'Webhook', { responseMode: 'onReceived' }),
					{
						id: randomUUID(),
						name: 'Items',
						type: 'n8n-nodes-base.httpRequest',
						typeVersion: 4.2,
						position: [200, 0],
						parameters: { url: list.url, options: {} },
					},
					peachNode(sendWithConcurrency(), q.credential, 'Send'),
				],
				{ Webhook: { main: [[link('Items')]] }, Items: { main: [[link('Send')]] } },
			);
			try {
				const from = q.sandbox.state.requests.length;
				await q.client.callWebhook(path, {});
				await untilSends(q, from, 500);
				const [executionId] = await q.client.executionIds(workflowId);
				await kill(q, workerRunning(q, executionId));
				q.sandbox.faults.length = 0;
				const atKill = sendsSince(q, from).sends.length;
				// One more row at the front, one row of the middle gone (not sent before the crash).
				const lost = phones[900];
				const now = [gained, ...phones.filter((phone) => phone !== lost)];
				list.set(now);
				if (N8N_1) {
					log(`      n8n ${N8N_VERSION}: killed after ${atKill} sends; measured only`);
					return;
				}
				const retry = await q.client.retryExecution(executionId, false);
				const retried = await executionOf(q, retry.id);
				const final = outcomes(retried);
				const { requests } = sendsSince(q, from);
				const unknown = unknownPhones(final.output);
				log(
					`      killed after ${atKill} sends; the Retry (${final.output.length} rows, one new at the front, one lost in the middle): ${retry.status}, ${final.sentNow} sent, ${final.alreadySent} already sent, ${final.unknown} unknown; the new phone asked ${requests.get(gained) ?? 0} time(s), the lost one ${requests.get(lost) ?? 0}, ${more(requests)} phones twice`,
				);
				assertEqual(final.output.length, 1000, "the Retry's Send outputs");
				assertEqual(requests.get(gained), 1, 'the new row, asked');
				assertEqual(requests.get(lost), undefined, 'the lost row, asked');
				assertEqual(more(requests), 0, 'phones asked twice');
				assertEqual(
					now.filter((phone) => !requests.has(phone) && !unknown.has(phone)),
					[],
					'phones never asked that the Retry does not list as unknown',
				);
				assert(final.unknown <= CONCURRENCY, `${final.unknown} unknown, more than in flight`);
				// With outcomes unknown the Retry fails, its error listing everything sent (this run's too);
				// an output it gives never says the new row was sent by an earlier try.
				assertEqual(
					nodeOutputs(retried, 'Send')[0]?.alreadySent,
					undefined,
					'the new row is not said to be sent before',
				);
			} finally {
				await q.client.deactivate(workflowId);
				list.close();
			}
		},
	},
	{
		name: `1,000 single-send executions, 20 at a time over 2 workers, one worker killed, each execution it was running retried three times in a row: ${N8N_1 ? 'measured (n8n 1.x)' : 'nothing sent twice'}`,
		fn: async (q) => {
			const slow = await listServer([], 1000);
			const path = `queue-single-${randomUUID().slice(0, 8)}`;
			const workflowId = await activate(
				q,
				`queue ${path}`,
				[
					webhookNode(path, 'Webhook', { responseMode: 'onReceived' }),
					peachNode(
						{ ...sendWithConcurrency(), phoneNumber: '={{ $json.body.phone }}' },
						q.credential,
						'Send',
					),
					// A node after the send that takes a second (a slow service), as workflows have: many
					// executions die after their send.
					{
						id: randomUUID(),
						name: 'After',
						type: 'n8n-nodes-base.httpRequest',
						typeVersion: 4.2,
						position: [400, 0],
						parameters: { url: slow.url, options: {} },
					},
				],
				{ Webhook: { main: [[link('Send')]] }, Send: { main: [[link('After')]] } },
			);
			const phones = phonesOf('+1424', 1000);
			const from = q.sandbox.state.requests.length;
			let posted = 0;
			const posting = pool(
				20,
				phones.map((phone) => async () => {
					await q.client.callWebhook(path, { phone });
					posted++;
				}),
			);
			await untilSends(q, from, 600);
			// The worker that ran the most recent send's execution.
			const ids = await q.client.executionIds(workflowId);
			const running = workerRunning(q, ids[0]);
			await kill(q, running);
			// Read after the kill: a job it took just before names its execution there too.
			const runningLog = readFileSync(running.logFile, 'utf8');
			const atKill = sendsSince(q, from).sends.length;
			await posting;
			// What the killed worker was running stays "running" until n8n's stall check (about 80 s).
			await sleep(5000);
			const stuck: string[] = [];
			for (const id of await q.client.executionIds(workflowId)) {
				const execution = await executionOf(q, id);
				if (execution.status === 'running' && runningLog.includes(`execution ${id}`))
					stuck.push(id);
			}
			if (N8N_1) {
				log(
					`      n8n ${N8N_VERSION}: ${posted} posted, killed after ${atKill} sends, ${stuck.length} running on it; measured only`,
				);
				await q.client.deactivate(workflowId);
				return;
			}
			// Each execution the killed worker was running is retried at once, before n8n's stall check
			// (about 80 s after the kill) replaces its data so that a Retry would run no node (README,
			// Troubleshooting); the Retries then queue behind the rest on the other worker. (Waiting for
			// the rest first let a busy machine pass the stall check: 9 Retries ran nothing.)
			// Each lineage is retried three times in a row, as a person does in the executions list: the
			// newest failed execution of it (a Retry that failed, with outcomes unknown, is retried in its
			// turn; n8n offers no Retry of one that succeeded, so then the crashed one is retried again).
			// A Retry of a failed Retry runs Send whatever n8n's stall check did to the crashed one; a
			// Retry of the crashed one after its stall check runs nothing (it cannot send).
			const lineages = await Promise.all(
				stuck.map(async (id) => {
					const tries: Array<{ id: string; status: string; ofRetry: boolean }> = [];
					let newestFailed = id;
					for (let round = 0; round < 3; round++) {
						const retry = await q.client.retryExecution(newestFailed, false);
						tries.push({ ...retry, ofRetry: newestFailed !== id });
						// As n8n saved it (what its Retry button reads): `finished` once it succeeded.
						if ((await executionOf(q, retry.id)).finished !== true) newestFailed = retry.id;
					}
					return tries;
				}),
			);
			const retries = lineages.flat();
			const finals = await Promise.all(
				lineages.map(async ([retry]) => outcomes(await executionOf(q, retry.id))),
			);
			const laterRuns = await Promise.all(
				lineages
					.flatMap((tries) => tries.slice(1))
					.map(async (retry) => {
						const execution = await executionOf(q, retry.id);
						return {
							ofRetry: retry.ofRetry,
							ran: nodeRuns(execution, 'Send').length > 0,
							...outcomes(execution),
						};
					}),
			);
			const later = laterRuns.filter((run) => run.ran);
			await q.client.deactivate(workflowId);
			const { requests } = sendsSince(q, from);
			const unknown = new Set(finals.flatMap((final) => [...unknownPhones(final.output)]));
			const sum = (key: 'sentNow' | 'alreadySent' | 'unknown') =>
				finals.reduce((total, final) => total + final[key], 0);
			log(
				`      ${posted} posted; the worker killed after ${atKill} sends, with ${stuck.length} executions running; their first Retries: ${sum('sentNow')} sent, ${sum('alreadySent')} already sent, ${sum('unknown')} unknown; the second and third (${laterRuns.filter((run) => run.ofRetry).length} of ${laterRuns.length} of a failed Retry; ${later.length} ran Send): ${later.reduce((total, final) => total + final.sentNow, 0)} sent, ${later.reduce((total, final) => total + final.alreadySent, 0)} already sent, ${later.reduce((total, final) => total + final.unknown, 0)} unknown; ${requests.size} of 1,000 phones asked, ${more(requests)} twice`,
			);
			// n8n's stall check (about 80 s after the kill) ends what the killed worker held.
			for (let waited = 0; waited < 180_000; waited += 2000) {
				if (!(await q.client.executionIds(workflowId, ['new', 'running'])).length) break;
				await sleep(2000);
			}
			// The other executions that did not succeed: one the killed worker had taken but not started
			// (n8n cannot retry a queued execution; its stall check fails it) sent nothing; any other is a
			// failure of the node.
			const retried = new Set([...stuck, ...retries.map((retry) => String(retry.id))]);
			let lostBeforeSend = 0;
			const otherFailures: string[] = [];
			for (const id of await q.client.executionIds(workflowId, ['error', 'crashed', 'new'])) {
				if (retried.has(id)) continue;
				const execution = await executionOf(q, id);
				const error = ((execution.data as Json)?.resultData as Json)?.error as Json | undefined;
				// n8n's words for a job whose worker died.
				if (
					nodeRuns(execution, 'Send').length === 0 &&
					String(error?.message).includes('failed to be processed too many times')
				)
					lostBeforeSend++;
				else otherFailures.push(`${id}: ${String(error?.message)}`);
			}
			if (lostBeforeSend)
				log(
					`      ${lostBeforeSend} execution(s) taken by the killed worker but not started: nothing sent`,
				);
			assertEqual(otherFailures, [], 'executions whose Send failed without the kill');
			assert(stuck.length > 0, 'the killed worker was running no execution');
			assertEqual(
				sum('sentNow') + sum('alreadySent') + sum('unknown'),
				stuck.length,
				"the Retries' Send outputs (one each)",
			);
			assertEqual(more(requests), 0, 'phones asked twice');
			// Every Retry of a failed Retry runs Send (from the node that failed); with a Send in flight at
			// the kill, some first Retry fails with its outcome unknown, so the later Retries do send.
			assertEqual(
				laterRuns.filter((run) => run.ofRetry && !run.ran).length,
				0,
				'Retries of a failed Retry that did not run Send',
			);
			assert(
				later.length > 0,
				'no second or third Retry ran Send (no first Retry failed, none before the stall check)',
			);
			assertEqual(
				later.reduce((total, final) => total + final.sentNow, 0),
				0,
				'sent by the second and third Retries',
			);
			// A phone never asked is unknown to a Retry, or its execution was never started.
			assertEqual(
				phones.filter((phone) => !requests.has(phone) && !unknown.has(phone)).length,
				lostBeforeSend,
				'phones never asked that no Retry lists as unknown',
			);
			slow.close();
		},
	},
	{
		name: `1,000 single-send executions, 20 at a time over 2 workers, Peach answering in 100 ms, no fault: every one sent once, none failed, the node's row at most 16 KB and emptied`,
		fn: async (q) => {
			await addFault(q, { kind: 'slow', path: '/api/v1/events', delayMs: 100, times: 100_000 });
			const path = `queue-load-${randomUUID().slice(0, 8)}`;
			const send = peachNode(
				{ ...sendWithConcurrency(), phoneNumber: '={{ $json.body.phone }}' },
				q.credential,
				'Send',
			);
			const workflowId = await activate(
				q,
				`queue ${path}`,
				[webhookNode(path, 'Webhook', { responseMode: 'onReceived' }), storeProbe(), send],
				{ Webhook: { main: [[link('Probe')]] }, Probe: { main: [[link('Send')]] } },
			);
			// n8n's HTTP Request making the same send, executions of both workflows interleaved: the
			// same load, so their execution times compare (docs/performance.md: the aim of 1.15×, not met).
			const httpPath = `queue-http-${randomUUID().slice(0, 8)}`;
			const httpWorkflowId = await activate(
				q,
				`queue ${httpPath}`,
				[
					webhookNode(httpPath, 'Webhook', { responseMode: 'onReceived' }),
					storeProbe(),
					httpSend(q),
				],
				{ Webhook: { main: [[link('Probe')]] }, Probe: { main: [[link('Send')]] } },
			);
			// One execution first: n8n's Remove Duplicates does not survive two processes inserting its
			// row at once (a duplicate-key error, n8n's own), so the row exists before the load.
			await q.client.callWebhook(path, { phone: '+14259999999' });
			await q.client.callWebhook(httpPath, { phone: '+14269999999' });
			await q.client.waitForExecutions(workflowId, 1, 60_000);
			await q.client.waitForExecutions(httpWorkflowId, 1, 60_000);
			const phones = phonesOf('+1425', 1000);
			const httpPhones = phonesOf('+1426', 1000);
			const from = q.sandbox.state.requests.length;
			const row = storeRow(q, workflowId, String(send.id));
			const before = await row.table();
			const started = Date.now();
			const sampling = row.sample();
			await pool(
				20,
				phones.flatMap((phone, index) => [
					async () => {
						await q.client.callWebhook(path, { phone });
					},
					async () => {
						await q.client.callWebhook(httpPath, { phone: httpPhones[index] });
					},
				]),
			);
			for (let waited = 0; waited < 300_000; waited += 1000) {
				const busy = await Promise.all(
					[workflowId, httpWorkflowId].map(
						async (id) => (await q.client.executionIds(id, ['new', 'running', 'waiting'])).length,
					),
				);
				if (busy.every((count) => count === 0)) break;
				await sleep(1000);
			}
			const seconds = (Date.now() - started) / 1000;
			const sampled = await sampling.stop();
			// What the finished executions left after the looks 1.5 s and 10 s after each run (lifetime.ts).
			await sleep(15_000);
			const after = await row.table();
			const left = await row.bytes();
			// No run of the node comes after these: what is left a minute later stays until one does.
			await sleep(60_000);
			const leftLater = await row.bytes();
			const entriesLater = await row.entries();
			await q.client.deactivate(workflowId);
			await q.client.deactivate(httpWorkflowId);
			const failed = await q.client.executionIds(workflowId, ['error', 'crashed']);
			const reasons = await Promise.all(
				failed.slice(0, 5).map(async (id) => {
					const execution = await executionOf(q, id);
					return `${id}: ${String((((execution.data as Json)?.resultData as Json)?.error as Json | undefined)?.message)}`;
				}),
			);
			const sent = sendsSince(q, from).requests;
			const requests = new Map([...sent].filter(([phone]) => phone.startsWith('+1425')));
			const cycles = await storeCalls(q, workflowId);
			const peachTimes = cycles.executionMs;
			const httpCycles = await storeCalls(q, httpWorkflowId);
			const httpTimes = httpCycles.executionMs;
			const mean = (times: number[]) => times.reduce((a, b) => a + b, 0) / (times.length || 1);
			const middle = (times: number[]) => [...times].sort((a, b) => a - b)[times.length >> 1] ?? 0;
			log(
				`      each execution, Peach Send / HTTP Request (the same send, interleaved, ${peachTimes.length} and ${httpTimes.length} executions): ${(mean(peachTimes) / mean(httpTimes)).toFixed(2)}× on average (${mean(peachTimes).toFixed(0)} vs ${mean(httpTimes).toFixed(0)} ms), ${(middle(peachTimes) / middle(httpTimes)).toFixed(2)}× at the median (${middle(peachTimes)} vs ${middle(httpTimes)} ms)`,
			);
			log(
				`      1,000 executions (and 1,000 of HTTP Request beside them) in ${seconds.toFixed(1)} s; ${failed.length} failed; ${requests.size} of 1,000 phones asked, ${more(requests)} twice; n8n's store under this load (Remove Duplicates in the same executions, ${cycles.count} calls): longest ${cycles.longest} ms, 99th percentile ${cycles.p99} ms, median ${cycles.median} ms; the record's proof waits ${PROOF_WAIT_MS} ms, or ${PROOF_WAIT_SLOWEST_TIMES} times the slowest store call its process made lately when that is longer${cycles.longest >= PROOF_WAIT_MS ? ' (calls above the 1 s floor here: the wait rose with them)' : ''}`,
			);
			// Both workflows' Probes write rows of their own.
			const writes = after.writes - before.writes - cycles.count - httpCycles.count;
			const kb = (bytes: number) => (bytes / 1024).toFixed(1);
			log(
				`      the Send node's row in n8n's store (sampled ${sampled.count} times): largest ${kb(sampled.largest)} KB, ${kb(sampled.mean)} KB on average, ${kb(left)} KB 15 s after the last execution, ${kb(leftLater)} KB 75 s after (${entriesLater} entries); about ${writes} writes of it (PostgreSQL's row writes to processed_data less the probes' ${cycles.count + httpCycles.count}), about ${kb((writes * sampled.mean) / 1000)} KB written per delivery; processed_data ${kb(before.size)} KB before, ${kb(after.size)} KB after`,
			);
			assertEqual(reasons, [], 'failed executions');
			assertEqual(more(requests), 0, 'phones asked twice');
			assertEqual(requests.size, 1000, 'phones asked');
			// The row's bounds (docs/running-at-scale.md: at most 16 KB at its largest and written per delivery), and what
			// the finished executions left is gone a minute after the last (no kill here).
			assert(sampled.largest <= 16 * 1024, `the row reached ${kb(sampled.largest)} KB`);
			assert(
				(writes * sampled.mean) / 1000 <= 16 * 1024,
				`${kb((writes * sampled.mean) / 1000)} KB written per delivery`,
			);
			assertEqual(
				entriesLater,
				0,
				"entries left in the Send node's row 75 s after the last execution",
			);
		},
	},
];

/**
 * A node's row in n8n's store (`processed_data`, one row per workflow and node: docs/n8n-store.md),
 * read from PostgreSQL while a load runs: its size, and the table's size and row writes.
 */
function storeRow(q: RecoveryContext, workflowId: string, nodeId: string) {
	const bytes = async () =>
		Number(
			(await q.sql(
				`SELECT coalesce(sum(length(value::text)), 0) FROM processed_data WHERE "workflowId" = '${workflowId}' AND context = 'n:${nodeId}'`,
			)) || 0,
		);
	return {
		bytes,
		/** The entries the row holds (n8n keeps them under `data`). */
		entries: async () =>
			Number(
				(await q.sql(
					`SELECT coalesce(sum(json_array_length((value::json)->'data')), 0) FROM processed_data WHERE "workflowId" = '${workflowId}' AND context = 'n:${nodeId}'`,
				)) || 0,
			),
		table: async () => {
			const [size, writes] = (
				await q.sql(
					`SELECT pg_total_relation_size('processed_data'), coalesce((SELECT n_tup_ins + n_tup_upd FROM pg_stat_user_tables WHERE relname = 'processed_data'), 0)`,
				)
			)
				.split('|')
				.map(Number);
			return { size, writes };
		},
		/** Reads the row's size every 100 ms until stopped. */
		sample: () => {
			let running = true;
			const sizes: number[] = [];
			const done = (async () => {
				while (running) {
					sizes.push(await bytes());
					await sleep(100);
				}
			})();
			return {
				stop: async () => {
					running = false;
					await done;
					const nonEmpty = sizes.filter((size) => size > 0);
					return {
						count: sizes.length,
						largest: Math.max(0, ...sizes),
						mean: nonEmpty.reduce((total, size) => total + size, 0) / (nonEmpty.length || 1),
					};
				},
			};
		},
	};
}
