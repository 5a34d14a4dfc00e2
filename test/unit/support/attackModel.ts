import { createHash } from 'node:crypto';

import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';
import { vi } from 'vitest';

import { Peach } from '../../../nodes/Peach/Peach.node';
import { lookAtDueSoon } from '../../../nodes/Peach/actions/run/record/lifetime';
import { createExecuteContext, type FakeResponse, type RecordedRequest } from './harness';
import {
	type FakeDeduplicationStore,
	type FakeExecutions,
	type Lineage,
	newExecution,
} from './n8nRecovery';
import type { FakePeachList } from './peachList';
import { send } from './recoveryRuns';

/**
 * The attack model of the delivery record (issue 43), used by
 * test/unit/actions/run/record/record.attack.test.ts. It adds to n8nRecovery.ts what an attack needs:
 * - an n8n **process** (a queue-mode worker) that can be killed at any step: after any call to the
 *   store (its write landed, the process never saw the answer), before any call, before or after any
 *   request reached Peach. A killed process makes no further store call and no further request;
 * - **another worker's older copy** of the node's row, written right after a chosen call of a chosen
 *   process (what that call added is gone, or what it removed is back), chosen by what the call
 *   writes (a claim, a fold, a removal, a look, `retired`);
 * - a **ledger** of what Peach accepted, per contact and message content;
 * - a **story**: an execution's tries, checked together against the promise (`violations`).
 *
 * What it assumes: one store row per node (FakeDeduplicationStore), a dead process's pending store
 * call lands within 5 ms, and Peach answers by content (a request's answer is decided when it
 * leaves). Time is real except in `looksAfter`, which fakes Date only.
 */

/** One call to n8n's store or one request to Peach, as a process makes it. */
export interface Step {
	kind: 'check' | 'remove' | 'post';
	/** How many store calls (check or remove) the process made, this one included. */
	call: number;
	/** How many requests that deliver (POST) the process made, this one included / answered. */
	posts: number;
	answered: number;
	/** The raw entries the call passes (before n8n hashes them). */
	items: string[];
	/** The request's content key (post only). */
	content?: string;
}

export interface ProcessPlan {
	/** Killed right after this step completed (a write landed, Peach accepted): it sees no answer. */
	killAfter?: (step: Step) => boolean;
	/** Killed right before this step (nothing of it happens). */
	killBefore?: (step: Step) => boolean;
	/** Another worker that read the row before this store call writes its copy right after it. */
	olderCopyAfter?: (step: Step) => boolean;
	/** How long each request to Peach takes (a real network): 0 by default. */
	requestMs?: number;
}

/** An n8n process (a queue-mode worker). */
export class Process {
	dead = false;
	calls = 0;
	posts = 0;
	answered = 0;
	/** What happened to it, step by step (for failure messages). */
	readonly steps: string[] = [];
	private onDeath: () => void = () => undefined;
	readonly died = new Promise<void>((resolve) => {
		this.onDeath = resolve;
	});

	constructor(
		readonly name: string,
		public plan: ProcessPlan = {},
	) {}

	kill(): void {
		if (this.dead) return;
		this.dead = true;
		this.steps.push('killed');
		this.onDeath();
	}
}

const md5 = (value: string) => createHash('md5').update(value).digest('base64');
let otherWrites = 0;

/**
 * n8n's store as one process sees it: the fake store's calls, made by this process (nothing once it
 * is dead), each possibly followed by another worker's older copy of the row.
 */
export function storeOf(base: FakeDeduplicationStore, worker: Process): FakeDeduplicationStore {
	return {
		helpersFor(workflowId: string, nodeId: string) {
			const key = `${workflowId}|n:${nodeId}`;
			const helpers = base.helpersFor(workflowId, nodeId);
			const wrap =
				<A extends unknown[], R>(kind: 'check' | 'remove', call: (...args: A) => Promise<R>) =>
				async (...args: A): Promise<R> => {
					if (worker.dead) throw new Error(`the n8n worker ${worker.name} is gone`);
					const items = (args[0] as Array<string | number>).map(String);
					const step: Step = {
						kind,
						call: ++worker.calls,
						posts: worker.posts,
						answered: worker.answered,
						items,
					};
					if (worker.plan.killBefore?.(step)) {
						worker.kill();
						throw new Error(`the n8n worker ${worker.name} is gone`);
					}
					const before = base.rows.get(key);
					const older = before ? { mode: before.mode, data: [...before.data] } : undefined;
					const result = await call(...args);
					worker.steps.push(`${kind} #${step.call} (${items.length})`);
					if (older && worker.plan.olderCopyAfter?.(step)) {
						base.rows.set(key, {
							mode: older.mode,
							data: [...older.data, md5(`other worker ${otherWrites++}`)],
						});
						worker.steps.push(`older copy after #${step.call}`);
					}
					if (worker.plan.killAfter?.(step)) worker.kill();
					if (worker.dead) throw new Error(`the n8n worker ${worker.name} is gone`);
					return result;
				};
			return {
				checkProcessedAndRecord: wrap('check', helpers.checkProcessedAndRecord),
				removeProcessed: wrap('remove', helpers.removeProcessed),
			};
		},
	} as unknown as FakeDeduplicationStore;
}

/** What a delivering request sends, as a key: the contact (or order) and what it says. */
export function contentOf(body: unknown): string {
	const request = body as {
		contact?: { phone_number?: string };
		template_message?: { whats_app_template_id?: string; liquid_values?: unknown };
		amount?: { value?: unknown };
	};
	if (request.contact)
		return JSON.stringify([
			request.contact.phone_number,
			request.template_message?.whats_app_template_id,
			request.template_message?.liquid_values,
		]);
	return JSON.stringify(['refund', request.amount?.value]);
}

/** What Peach accepted, per content key, over every process and try. */
export class Ledger {
	readonly accepted = new Map<string, number>();
	add(content: string): void {
		this.accepted.set(content, (this.accepted.get(content) ?? 0) + 1);
	}
	count(content: string): number {
		return this.accepted.get(content) ?? 0;
	}
	twice(): Array<[string, number]> {
		return [...this.accepted].filter(([, count]) => count > 1);
	}
}

/** How Peach answers a delivering request (by its content). */
export type PeachAnswer =
	| 'accept'
	/** Peach accepted it, but the answer was lost (a timeout): the outcome is unknown to the node. */
	| 'acceptThenTimeout'
	/** Peach failed (500) without accepting it. */
	| 'serverError'
	/** Peach refused it (422). */
	| 'refuse'
	/** The connection was refused: the request never left (ECONNREFUSED). */
	| 'connectionRefused';

export interface TryOptions {
	continueOnFail?: boolean;
	answer?: (content: string) => PeachAnswer;
	inputs?: IDataObject[];
}

export interface Try {
	output?: INodeExecutionData[][];
	error?: Error;
	killed: boolean;
	requests: RecordedRequest[];
	/** Each input item's content key (what it sends). */
	contents: string[];
}

const never = () => new Promise<never>(() => undefined);
let eventIds = 0;

/** One try of the node in `process`, over `params` (one per item). */
export async function runIn(
	worker: Process,
	lineage: Lineage,
	params: Array<Record<string, unknown>>,
	ledger: Ledger,
	options: TryOptions = {},
): Promise<Try> {
	const answerOf = options.answer ?? (() => 'accept' as const);
	/** Each request's answer, decided once when it leaves (a test's answer may change between tries). */
	const decided = new Map<string, PeachAnswer[]>();
	const harness = createExecuteContext({
		params,
		lineage: { ...lineage, store: storeOf(lineage.store, worker) },
		continueOnFail: options.continueOnFail,
		inputs: options.inputs,
		answer: (request): FakeResponse => {
			// A read (an order, as Peach documents it: its id and status) tells nothing: the record decides.
			if (request.options.method !== 'POST')
				return { statusCode: 200, body: { id: 'wa_ord_read', status: 'completed' } };
			const answer = decided.get(contentOf(request.body))?.shift() ?? 'accept';
			if (answer === 'refuse')
				return {
					statusCode: 422,
					body: { status: 'failed', reason: { contact: { phone_number: ['is blocked'] } } },
				};
			if (answer === 'serverError') return { statusCode: 500, body: { message: 'Internal error' } };
			return { statusCode: 201, body: { status: 'success', event_id: `evt_${++eventIds}` } };
		},
	});
	const helpers = harness.context.helpers as unknown as Record<string, unknown>;
	const http = helpers.httpRequestWithAuthentication as (
		...args: unknown[]
	) => Promise<{ statusCode: number }>;
	helpers.httpRequestWithAuthentication = async (...args: unknown[]) => {
		if (worker.dead) return await never();
		if (worker.plan.requestMs) await sleep(worker.plan.requestMs);
		if (worker.dead) return await never();
		const options = args[1] as { method?: string; body?: unknown };
		if (options.method !== 'POST') {
			const answer = await http(...args);
			if (worker.dead) return await never();
			return answer;
		}
		const body = typeof options.body === 'string' ? JSON.parse(options.body) : options.body;
		const content = contentOf(body);
		const step = (): Step => ({
			kind: 'post',
			call: worker.calls,
			posts: worker.posts,
			answered: worker.answered,
			items: [],
			content,
		});
		worker.posts++;
		if (worker.plan.killBefore?.(step())) {
			worker.kill();
			return await never();
		}
		const decision = answerOf(content);
		if (decision === 'connectionRefused') {
			worker.steps.push(`post ${worker.posts}: ECONNREFUSED`);
			throw Object.assign(new Error('connect ECONNREFUSED 10.0.0.1:443'), { code: 'ECONNREFUSED' });
		}
		decided.set(content, [...(decided.get(content) ?? []), decision]);
		const answer = await http(...args);
		const acceptedNow = answer.statusCode >= 200 && answer.statusCode < 300;
		if (acceptedNow) ledger.add(content);
		worker.steps.push(`post ${worker.posts}: ${answer.statusCode}`);
		if (worker.plan.killAfter?.(step())) worker.kill();
		if (worker.dead) return await never();
		worker.answered++;
		if (acceptedNow && decision === 'acceptThenTimeout')
			throw Object.assign(new Error('timeout of 30000ms exceeded'), { code: 'ECONNABORTED' });
		return answer;
	};
	const contents = params.map((param) =>
		param.operation === 'refund'
			? contentOf({ amount: { value: param.amount } })
			: contentOf({
					contact: { phone_number: param.phoneNumber },
					template_message: {
						whats_app_template_id: (param.templateId as { value: string }).value,
						liquid_values: Object.fromEntries(
							(param.variables as { values: Array<{ key: string; value: string }> }).values.map(
								({ key, value }) => [key, value],
							),
						),
					},
				}),
	);
	const run = new Peach().execute
		.call(harness.context as IExecuteFunctions)
		.then((output) => ({ output }))
		.catch((error: unknown) => ({ error: error as Error }));
	const ended = await Promise.race([run, worker.died.then(() => 'killed' as const)]);
	if (ended === 'killed') {
		// What was under way in the store lands (or not) now; nothing else of the worker happens.
		await sleep(5);
		return { killed: true, requests: harness.requests, contents };
	}
	return { ...ended, killed: false, requests: harness.requests, contents };
}

/** What a try's outputs say of each input item. */
type Said = 'sentNow' | 'alreadySent' | 'unknown' | 'error' | 'missing';

export function saidOf(result: Try): Said[] {
	const said: Said[] = result.contents.map(() => 'missing');
	for (const item of result.output?.[0] ?? []) {
		const paired = item.pairedItem as { item: number } | Array<{ item: number }>;
		const index = Array.isArray(paired) ? paired[0].item : paired.item;
		const json = item.json;
		said[index] =
			json.alreadySent !== undefined
				? 'alreadySent'
				: json.outcomeUnknown !== undefined
					? 'unknown'
					: json.error !== undefined
						? 'error'
						: json.event_id !== undefined
							? 'sentNow'
							: 'missing';
	}
	return said;
}

/**
 * The promise, checked over an execution's tries (all of one lineage, in order):
 * 1. per content, Peach accepted at most as many requests as any one try's input holds of it;
 * 2. after each finished try, what it says is sent (now or already) of a content is at most what
 *    Peach accepted of it by then;
 * 3. a finished try with Continue On Fail says something of every input item.
 */
function violations(tries: Array<Try & { acceptedAfter: Map<string, number> }>, ledger: Ledger) {
	const found: string[] = [];
	const most = new Map<string, number>();
	for (const result of tries)
		for (const [content, count] of multiplicity(result.contents))
			most.set(content, Math.max(most.get(content) ?? 0, count));
	for (const [content, count] of ledger.accepted)
		if (count > (most.get(content) ?? 0))
			found.push(`sent ${count} times, asked at most ${most.get(content) ?? 0}: ${content}`);
	tries.forEach((result, at) => {
		if (result.killed || !result.output) return;
		const said = saidOf(result);
		const claimed = new Map<string, number>();
		said.forEach((what, index) => {
			if (what === 'missing') found.push(`try ${at}: item ${index} missing from the output`);
			if (what === 'sentNow' || what === 'alreadySent')
				claimed.set(result.contents[index], (claimed.get(result.contents[index]) ?? 0) + 1);
		});
		for (const [content, count] of claimed)
			if (count > (result.acceptedAfter.get(content) ?? 0))
				found.push(
					`try ${at}: ${count} said sent, Peach accepted ${result.acceptedAfter.get(content) ?? 0}: ${content}`,
				);
	});
	return found;
}

function multiplicity(contents: string[]): Map<string, number> {
	const counts = new Map<string, number>();
	for (const content of contents) counts.set(content, (counts.get(content) ?? 0) + 1);
	return counts;
}

/** An execution's tries, checked together. */
export class Story {
	readonly ledger = new Ledger();
	readonly tries: Array<Try & { acceptedAfter: Map<string, number> }> = [];

	async run(
		process: Process,
		lineage: Lineage,
		params: Array<Record<string, unknown>>,
		options: TryOptions = {},
	): Promise<Try> {
		const result = await runIn(process, lineage, params, this.ledger, options);
		this.tries.push({ ...result, acceptedAfter: new Map(this.ledger.accepted) });
		return result;
	}

	violations(): string[] {
		return violations(this.tries, this.ledger);
	}
}

export const withWidth = (
	items: Array<Record<string, unknown>>,
	width: number,
	more: IDataObject = {},
) => items.map((item) => ({ ...item, requestOptions: { concurrency: width, ...more } }));

/** The node's row exists (an earlier execution wrote it): another worker's copies apply from the start. */
export async function seeded(store: FakeDeduplicationStore, peach: FakePeachList): Promise<void> {
	const story = new Story();
	const lineage = newExecution(store, { peach });
	await story.run(new Process('seed'), lineage, [send('+10000000099', 'seed')]);
}

export const wrote = (prefix: string) => (step: Step) =>
	step.kind === 'check' && step.items.some((item) => item.startsWith(prefix));

/** The first step that matches `test` only: an older copy that lands once. */
export function once(test: (step: Step) => boolean): (step: Step) => boolean {
	let landed = false;
	return (step) => {
		if (landed || !test(step)) return false;
		landed = true;
		return true;
	};
}

/**
 * Time passes (Date only: the store's turns still run) and the processes look at the executions
 * whose records they hold (lifetime.ts), until n8n's saved data of each was read.
 */
export async function looksAfter(executions: FakeExecutions, ids: string[]): Promise<void> {
	vi.useFakeTimers({ toFake: ['Date'] });
	const before = ids.map((id) => executions.reads.get(id) ?? 0);
	for (let round = 0; round < 50; round++) {
		vi.setSystemTime(Date.now() + 61_000);
		lookAtDueSoon();
		await sleep(20);
		if (ids.every((id, index) => (executions.reads.get(id) ?? 0) > before[index])) break;
	}
	await sleep(20);
	vi.useRealTimers();
}
