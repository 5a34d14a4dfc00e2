import { sleep } from 'n8n-workflow';

import { writeProven } from './proof';
import { removeForGood } from './removal';
import { factEntries, recordAndRead } from './storeCalls';
import type { DeduplicationStore, SavedExecutions } from './n8n';
import { EXECUTIONS_KEPT_MS, savedStateOf } from './n8n';

/**
 * How long what a run wrote stays in n8n's store: decided by this code from what n8n saved (n8n.ts,
 * fact 6), never by garbage collection. The process that ran the execution looks at n8n's saved data
 * of it a moment after the run and 10 s later, then whenever a run of the node opens a record and, for
 * ten minutes after the run, on a timer: at most once a second at first, then less and less often:
 *
 * - an execution's own record goes once n8n has saved the execution with this node's run (its node
 *   context then holds the record for any Retry: the editor's hands it back) or no longer has it;
 * - what a Retry writes (and what it found of a crashed try) belongs to the execution it retries,
 *   which n8n lets the user Retry again, from that execution's own data, until it prunes it: it stays
 *   through failed Retries and waits, until a Retry of it ends in success (or is gone); then one fact,
 *   `retired`, replaces it (proven first), so that a later Retry knows the record was there and asks
 *   Peach;
 * - what no process removes (a process that stopped right after a run, a crash with no Retry) is
 *   dropped by n8n, oldest first, once the list holds STORE_CAP entries (storeCalls.ts);
 * - after 14 days (n8n's default time to keep executions, n8n.ts fact 8) nothing can Retry the
 *   execution any more.
 */

interface Pending {
	executionId: string;
	store: DeduplicationStore;
	scope: string;
	nodeName: string;
	/** The highest run of the node this execution made: n8n's saved data must hold it. */
	runIndex: number;
	read: SavedExecutions;
	/** Entries of the execution's record (its own, and those found of a crashed try). */
	entries: Set<string>;
	/** Where it was found of a crashed try: the fact that retires it, else undefined. */
	retiredBy?: string;
	/** When the run registered it: after n8n's own time to keep executions, nothing can Retry it. */
	since: number;
	/** When its latest run registered it (the timer looks for TIMED_LOOKS_MS after it). */
	lastRunAt: number;
	nextLookAt: number;
	waitMs: number;
}

/** The first look a moment after the run; then each wait doubles, up to a minute. */
const FIRST_LOOK_MS = 1000;
const LONGEST_WAIT_MS = 60_000;
/** Looks made after a run, whatever else the process runs: n8n saves an execution right after its end. */
const AFTER_THE_RUN_MS = [1500, 10_000];
/** How many saved executions a look reads at once. */
const READS_AT_ONCE = 8;
/**
 * For this long after its run, an execution n8n has not let go yet is looked at again on a timer, so
 * that its record goes within a bounded time in a process that has no more runs of the node; after
 * that (a long wait: Send and Wait), at the process's next run of the node.
 */
const TIMED_LOOKS_MS = 10 * 60_000;

const pending = new Map<string, Pending>();
let looking: Promise<void> | undefined;
/** A look was asked for while one was under way: another follows it. */
let lookAgain = false;

/**
 * Looks at the executions that are due, at the moments this code decides: after each run, whenever
 * a run of the node opens its record in this process, and on one timer for the executions that ran
 * in the last TIMED_LOOKS_MS (a timer already set for a later moment is kept: a look may come up to
 * LONGEST_WAIT_MS late; what a process holds when it stops stays until the store's cap). One look at a time, beside the runs; a moment that comes during a look (a look
 * reads each due execution from the database: long under load) is not lost, another look follows.
 */
export function lookAtDueSoon(): void {
	if (looking) {
		lookAgain = true;
		return;
	}
	lookAgain = false;
	looking = lookAtDue().finally(() => {
		looking = undefined;
		if (lookAgain) lookAtDueSoon();
		else lookWhenNextDue();
	});
}

/** Whether a look is set for when the next recent execution is due (one timer per process). */
let lookSet = false;

/** Sets a look for when the next execution that ran in the last TIMED_LOOKS_MS is due. */
function lookWhenNextDue(): void {
	if (lookSet) return;
	const now = Date.now();
	let next = Infinity;
	for (const item of pending.values())
		if (now - item.lastRunAt < TIMED_LOOKS_MS) next = Math.min(next, item.nextLookAt);
	if (next === Infinity) return;
	lookSet = true;
	void sleep(Math.max(next - now, 0) + 10).then(() => {
		lookSet = false;
		lookAtDueSoon();
	});
}

/**
 * Looks at one execution: when n8n no longer needs its record, answers the entries to remove (after
 * proving `retired` where it replaces them), else schedules the next look.
 */
async function lookAt(key: string, item: Pending): Promise<string[] | undefined> {
	const state = savedStateOf(await item.read(item.executionId), item.nodeName, item.runIndex);
	const done =
		Date.now() - item.since > EXECUTIONS_KEPT_MS ||
		(item.retiredBy === undefined
			? state !== 'running'
			: state === 'succeeded' || state === 'gone');
	if (!done) {
		item.waitMs = Math.min(item.waitMs * 2, LONGEST_WAIT_MS);
		item.nextLookAt = Date.now() + item.waitMs;
		return undefined;
	}
	pending.delete(key);
	const { retiredBy } = item;
	// `retired` replaces the record: it goes only once `retired` is proven (proof.ts).
	if (retiredBy !== undefined)
		await writeProven(recordAndRead(item.store, item.scope), factEntries(retiredBy));
	return [...item.entries];
}

async function lookAtDue(): Promise<void> {
	const now = Date.now();
	const due = [...pending].filter(([, item]) => item.nextLookAt <= now);
	// What the executions n8n no longer needs leave, per row: removed together, in as few calls as
	// their number allows (each call rewrites the whole row).
	const leaving = new Map<string, { store: DeduplicationStore; entries: string[] }>();
	// A few executions read at a time: a look over hundreds (a loaded worker) is not their sum.
	for (let at = 0; at < due.length; at += READS_AT_ONCE)
		await Promise.all(
			due.slice(at, at + READS_AT_ONCE).map(async ([key, item]) => {
				// A look that fails (the database busy) is made again later; the entries stay meanwhile.
				const entries = await lookAt(key, item).catch(() => {
					item.waitMs = Math.min(item.waitMs * 2, LONGEST_WAIT_MS);
					item.nextLookAt = Date.now() + item.waitMs;
					return undefined;
				});
				if (!entries?.length) return;
				const row = leaving.get(item.scope) ?? { store: item.store, entries: [] };
				row.entries.push(...entries);
				leaving.set(item.scope, row);
			}),
		);
	for (const [scope, { store, entries }] of leaving)
		// A removal that fails leaves the entries to the store's cap (storeCalls.ts), as a stopped
		// process does.
		await removeForGood(store, scope, entries).catch(() => undefined);
}

/**
 * After a run of the node: what the execution's record holds in the store now, to remove once n8n
 * no longer needs it. Without a way to read saved executions (an older n8n), nothing is removed by
 * the process: the store's cap bounds it.
 */
export function keepUntilSaved(run: {
	store: DeduplicationStore;
	scope: string;
	executionId: string;
	nodeName: string;
	runIndex: number;
	read: SavedExecutions | undefined;
	entries: Iterable<string>;
	removed: Iterable<string>;
	retiredBy?: string;
}): void {
	if (!run.read) return;
	const key = JSON.stringify([run.scope, run.executionId]);
	let item = pending.get(key);
	if (!item) {
		item = {
			executionId: run.executionId,
			store: run.store,
			scope: run.scope,
			nodeName: run.nodeName,
			runIndex: run.runIndex,
			read: run.read,
			entries: new Set(),
			since: Date.now(),
			lastRunAt: Date.now(),
			nextLookAt: 0,
			waitMs: FIRST_LOOK_MS,
		};
		pending.set(key, item);
	}
	for (const removed of run.removed) item.entries.delete(removed);
	for (const kept of run.entries) item.entries.add(kept);
	item.runIndex = Math.max(item.runIndex, run.runIndex);
	item.retiredBy ??= run.retiredBy;
	item.read = run.read;
	item.lastRunAt = Date.now();
	item.waitMs = FIRST_LOOK_MS;
	item.nextLookAt = Date.now() + FIRST_LOOK_MS;
	lookAtDueSoon();
	// And once n8n has had time to save it (a process that then has no more runs lets go too).
	void sleep(AFTER_THE_RUN_MS[0])
		.then(lookAtDueSoon)
		.then(async () => await sleep(AFTER_THE_RUN_MS[1]))
		.then(lookAtDueSoon);
}
