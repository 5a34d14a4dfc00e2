/**
 * npm run test:queue, money and launches under crashes: Order → Refund, Order → Create (with the
 * user's own order ID), Broadcast → Launch and Automation → Trigger, many executions at a time over
 * the workers, a worker killed at a random moment (while requests are under way, while runs close
 * their record), each execution it was running retried the three ways n8n offers (the original
 * workflow, the saved one, a Retry of the failed Retry). Counted per order, order ID, broadcast name
 * and automation payload at the sandbox: nothing made twice; what a crash left unmade is made once by
 * a Retry or named unknown (`outcomeUnknown`).
 *
 * PEACH_QUEUE_MONEY_CRASHES (default 40, about 4 minutes; README names the longer run): how many crashed executions to reach; PEACH_QUEUE_SEED:
 * the kill moments' seed (printed, so a failing run can be replayed).
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';

import { type Json, log, N8N_VERSION, nodeRuns, peachNode, webhookNode } from '../e2e/n8n.mts';
import { assert, assertEqual, pool } from '../e2e/suite.mts';
import { addFault, executionOf, kill, outcomes, type RecoveryContext, sleep } from './recovery.mts';

const N8N_1 = N8N_VERSION.startsWith('1.');
type Kind = 'refund' | 'create' | 'launch' | 'trigger';
const KINDS: Kind[] = ['refund', 'create', 'launch', 'trigger'];
const CRASHES = Number(process.env.PEACH_QUEUE_MONEY_CRASHES ?? 40);
/**
 * Executions of each operation started in a round, all at once: the refunds' node has many executions
 * writing its record at the same moment (as 20 at a time over 2 workers did when one refunded twice).
 */
const PER_ROUND: Record<Kind, number> = { refund: 12, create: 6, launch: 6, trigger: 6 };
/** At most this many rounds, whatever the crashes reached (a busy machine kills later). */
const MAX_ROUNDS = Math.max(12, Math.ceil(CRASHES / 3));

/** A small seeded random source (mulberry32): the kill moments of a run can be replayed. */
function randomFrom(seed: number): () => number {
	let state = seed >>> 0;
	return () => {
		state = (state + 0x6d2b79f5) >>> 0;
		let t = state;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}

/** The operation each workflow runs: its target (an order, an order ID, a name, a key) from the body. */
const PARAMETERS: Record<Kind, Json> = {
	refund: {
		resource: 'order',
		operation: 'refund',
		orderId: '={{ $json.body.target }}',
		refundType: 'partial',
		amount: 5000,
		currency: 'INR',
		speed: 'normal',
	},
	create: {
		resource: 'order',
		operation: 'create',
		phoneNumber: '={{ $json.body.phone }}',
		items: { item: [{ name: 'Mango box', amount: 12000, quantity: 1, saleAmount: 0 }] },
		contactFields: {},
		additionalFields: { orderId: '={{ $json.body.target }}' },
	},
	launch: {
		resource: 'broadcast',
		operation: 'launch',
		name: '={{ $json.body.target }}',
		templateId: { __rl: true, mode: 'id', value: 'wat_welcome' },
		variablesInput: 'fields',
		variables: { values: [{ key: 'first_name', value: 'Asha' }] },
		recipients: 'items',
		contactPhoneNumber: '={{ $json.body.phone }}',
		deliveryMode: 'instant',
		additionalFields: {},
	},
	trigger: {
		resource: 'automation',
		operation: 'trigger',
		automationId: { __rl: true, mode: 'id', value: 'strm_welcome' },
		phoneNumber: '={{ $json.body.phone }}',
		contactFields: {},
		payloadInput: 'fields',
		payload: { values: [{ key: 'order_ref', value: '={{ $json.body.target }}' }] },
	},
};

/** Which request of the sandbox makes a target, and the target it makes. */
function madeTarget(request: { method: string; path: string; body?: unknown }): string | undefined {
	const body = (request.body ?? {}) as Json;
	if (request.method !== 'POST') return undefined;
	const refund = /^\/api\/v1\/orders\/([^/]+)\/refunds$/.exec(request.path);
	if (refund) return `refund:${refund[1]}`;
	if (request.path === '/api/v1/orders' && typeof body.id === 'string') return `create:${body.id}`;
	if (request.path === '/api/v1/events' && body.event_type === 'send_broadcast')
		return `launch:${String((body.broadcast as Json | undefined)?.name)}`;
	if (/^\/api\/v1\/streams\/[^/]+\/events$/.test(request.path))
		return `trigger:${String(body.order_ref)}`;
	return undefined;
}

/** A paid order of ₹120 to refund ₹50 of, made at the sandbox directly. */
export async function paidOrder(q: RecoveryContext, phone: string): Promise<string> {
	const response = await fetch(`${q.sandbox.url}/api/v1/orders`, {
		method: 'POST',
		headers: { Authorization: q.sandbox.apiKey, 'Content-Type': 'application/json' },
		body: JSON.stringify({
			id: `M-${randomUUID().slice(0, 8)}`,
			contact: { phone_number: phone },
			items: [{ name: 'Mango box', amount: 12000, quantity: 1 }],
		}),
	});
	const order = String(((await response.json()) as Json).id);
	await fetch(`${q.sandbox.url}/__sandbox/orders/${order}/pay`, { method: 'POST' });
	return order;
}

/**
 * The target the webhook gave an execution: its body, in the Webhook's run or, while the execution
 * has not run further, in the input n8n queued for Send.
 */
function targetOf(execution: Json): string {
	const data = (execution.data ?? {}) as Json;
	const firstJson = (main: unknown) =>
		((main as Json[][] | undefined)?.[0]?.[0] as Json | undefined)?.json as Json | undefined;
	const runData = (data.resultData as Json | undefined)?.runData as Json | undefined;
	const stack = ((data.executionData as Json | undefined)?.nodeExecutionStack ?? []) as Json[];
	const candidates = [
		firstJson(((runData?.Webhook as Json[] | undefined)?.[0]?.data as Json | undefined)?.main),
		...stack.map((entry) => firstJson((entry.data as Json | undefined)?.main)),
	];
	const found = candidates.find(
		(json) => typeof (json?.body as Json | undefined)?.target === 'string',
	);
	return String((found?.body as Json | undefined)?.target ?? '');
}

interface Started {
	kind: Kind;
	target: string;
}

/** Every Retry of a crashed execution the check made: the original, the saved workflow, a Retry's Retry. */
async function retryThreeWays(q: RecoveryContext, id: string, tookMs: number[]) {
	const tries: Array<{ id: string; status: string }> = [];
	const timed = async (retried: string, loadWorkflow: boolean) => {
		const began = Date.now();
		const retry = await q.client.retryExecution(retried, loadWorkflow);
		tookMs.push(Date.now() - began);
		return retry;
	};
	const first = await timed(id, false);
	tries.push(first);
	if (first.status === 'success') return tries;
	tries.push(await timed(id, true));
	tries.push(await timed(first.id, false));
	return tries;
}

export const moneyChecks: Array<{ name: string; fn: (q: RecoveryContext) => Promise<void> }> = [
	{
		name: `Order → Refund, Order → Create, Broadcast → Launch, Automation → Trigger: ${CRASHES}+ crashed executions (workers killed at random moments), each retried three ways: ${N8N_1 ? 'measured (n8n 1.x)' : 'nothing made twice, nothing lost unnamed'}`,
		fn: async (q) => {
			assert(q.restartWorkers, 'the queue run gives this check a way to restart its workers');
			const seed = Number(process.env.PEACH_QUEUE_SEED ?? Date.now() % 1_000_000);
			const random = randomFrom(seed);
			// Peach takes 2 s for each of them: a kill finds requests under way and runs closing.
			for (const path of ['/api/v1/orders', '/api/v1/events', '/api/v1/streams'])
				await addFault(q, { kind: 'slow', path, delayMs: 2000, times: 1_000_000 });
			const workflows = new Map<Kind, { workflowId: string; path: string }>();
			for (const kind of KINDS) {
				const path = `queue-money-${kind}-${randomUUID().slice(0, 8)}`;
				const workflowId = await q.client.createWorkflow({
					name: `queue ${path}`,
					nodes: [
						webhookNode(path, 'Webhook', { responseMode: 'onReceived' }),
						peachNode(PARAMETERS[kind], q.credential, 'Send'),
					],
					connections: { Webhook: { main: [[{ node: 'Send', type: 'main', index: 0 }]] } },
				});
				await q.client.activate(workflowId);
				workflows.set(kind, { workflowId, path });
			}
			const from = q.sandbox.state.requests.length;
			const byExecution = new Map<string, Started>();
			const crashed: string[] = [];
			const retriesOf = new Map<string, Array<{ id: string; status: string }>>();
			let rounds = 0;
			let phone = 0;
			while (crashed.length < CRASHES && rounds < MAX_ROUNDS) {
				rounds++;
				const round: Array<Started & { phone: string }> = [];
				for (const kind of KINDS)
					for (let index = 0; index < PER_ROUND[kind]; index++) {
						const to = `+91990${String(1_000_000 + phone++).slice(1)}`;
						const target =
							kind === 'refund'
								? await paidOrder(q, to)
								: `${kind}-${rounds}-${index}-${randomUUID().slice(0, 6)}`;
						round.push({ kind, target, phone: to });
					}
				const known = new Set<string>();
				for (const { workflowId } of workflows.values())
					for (const id of await q.client.executionIds(workflowId)) known.add(id);
				const posting = pool(
					round.length,
					round.map((started) => async () => {
						const { path } = workflows.get(started.kind) as { path: string };
						await q.client.callWebhook(path, { target: started.target, phone: started.phone });
					}),
				);
				// A random moment: while the first requests are under way, or while runs close.
				const killAfter = 800 + Math.floor(random() * 4000);
				await sleep(killAfter);
				const victim = q.workers[Math.floor(random() * q.workers.length)];
				await kill(q, victim);
				// Read after the kill: a job it took just before names its execution there too.
				const victimLog = readFileSync(victim.logFile, 'utf8');
				// Another worker starts in its place while the crashed executions are retried.
				const restarting = q.restartWorkers();
				await posting;
				// The live worker finishes what it holds; what the killed one ran stays running.
				await sleep(6000);
				const stuck: string[] = [];
				for (const [kind, { workflowId }] of workflows) {
					for (const id of await q.client.executionIds(workflowId)) {
						if (known.has(id) || byExecution.has(id)) continue;
						const execution = await executionOf(q, id);
						const target = targetOf(execution);
						assert(target, `execution ${id} (${String(execution.status)}): no target in its data`);
						byExecution.set(id, { kind, target });
						if (execution.status === 'running' && victimLog.includes(`execution ${id}`))
							stuck.push(id);
					}
				}
				// Retried at once, before n8n's stall check replaces their data.
				const tookMs: number[] = [];
				const tries = await Promise.all(
					stuck.map(async (id) => await retryThreeWays(q, id, tookMs)),
				);
				stuck.forEach((id, index) => retriesOf.set(id, tries[index]));
				crashed.push(...stuck);
				await restarting;
				log(
					`      round ${rounds}: a worker killed ${killAfter} ms after the first webhook; ${stuck.length} crashed (${crashed.length} in all); ${tookMs.length} Retries answered in ${Math.round(Math.max(0, ...tookMs) / 1000)} s at the longest`,
				);
			}
			// n8n's stall check ends what the killed workers held (about a minute after the last kill).
			for (let waited = 0; waited < 180_000; waited += 2000) {
				let open = 0;
				for (const { workflowId } of workflows.values())
					open += (await q.client.executionIds(workflowId, ['new', 'running'])).length;
				if (!open) break;
				await sleep(2000);
			}
			for (const { workflowId } of workflows.values()) await q.client.deactivate(workflowId);
			q.sandbox.faults.length = 0;

			// What Peach accepted, per target.
			const made = new Map<string, number>();
			for (const request of q.sandbox.state.requests.slice(from)) {
				const target = madeTarget(request);
				if (!target || (request.status ?? 0) < 200 || (request.status ?? 0) >= 300) continue;
				made.set(target, (made.get(target) ?? 0) + 1);
			}
			const twice = [...made].filter(([, count]) => count > 1).map(([target]) => target);
			// Each crashed execution: its target made once, or named unknown by one of its Retries.
			const lost: string[] = [];
			const perKind = new Map<Kind, { crashed: number; made: number; unknown: number }>();
			for (const id of crashed) {
				const { kind, target } = byExecution.get(id) as Started;
				const tally = perKind.get(kind) ?? { crashed: 0, made: 0, unknown: 0 };
				tally.crashed++;
				const count = made.get(`${kind}:${target}`) ?? 0;
				let unknown = false;
				for (const retry of retriesOf.get(id) ?? []) {
					const execution = await executionOf(q, retry.id);
					if (nodeRuns(execution, 'Send').length && outcomes(execution).unknown > 0) unknown = true;
				}
				if (count === 1) tally.made++;
				else if (unknown) tally.unknown++;
				else if (count === 0) lost.push(`${kind} ${target} (execution ${id})`);
				perKind.set(kind, tally);
			}
			// The other executions: a success made its target once; one a killed worker took but never
			// started made nothing.
			const retried = new Set([...crashed, ...[...retriesOf.values()].flat().map((r) => r.id)]);
			let neverStarted = 0;
			const wrong: string[] = [];
			for (const [id, { kind, target }] of byExecution) {
				if (retried.has(id)) continue;
				const execution = await executionOf(q, id);
				const count = made.get(`${kind}:${target}`) ?? 0;
				if (execution.status === 'success' && count === 1) continue;
				if (nodeRuns(execution, 'Send').length === 0 && count === 0) neverStarted++;
				else
					wrong.push(
						`${kind} ${target} (execution ${id}, ${String(execution.status)}, made ${count})`,
					);
			}
			log(
				`      seed ${seed}; ${rounds} rounds, ${byExecution.size} executions, ${crashed.length} crashed, ${neverStarted} taken but never started; ${[
					...perKind,
				]
					.map(
						([kind, tally]) =>
							`${kind}: ${tally.crashed} crashed, ${tally.made} made once, ${tally.unknown} named unknown`,
					)
					.join('; ')}; ${twice.length} made twice`,
			);
			if (N8N_1) return;
			assertEqual(twice, [], 'targets made twice');
			assertEqual(
				lost,
				[],
				'crashed executions whose target was never made and never named unknown',
			);
			assertEqual(wrong, [], 'executions not crashed that did not make their target once');
			assert(
				crashed.length >= CRASHES,
				`${crashed.length} crashed executions in ${rounds} rounds, fewer than ${CRASHES}`,
			);
		},
	},
];
