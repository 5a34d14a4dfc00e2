import type { IDataObject, IExecuteFunctions, IRunExecutionData } from 'n8n-workflow';

/**
 * Everything the delivery record relies on from n8n, in one file: an n8n upgrade is this file to
 * review. Each fact names the n8n versions it was checked on (read in their built code, then run in
 * a real n8n) and the tests that fail if n8n changes it; docs/n8n-store.md gives file and line, and
 * docs/n8n-assumptions.md indexes these with what the rest of the package assumes of n8n.
 *
 * 1. The deduplication store (`checkProcessedAndRecord`, `removeProcessed`) is one row per workflow
 *    and node (storeRowOf): a list of MD5 hashes that every call reads and writes back whole, with
 *    no lock. The first call inserts the row (a second process's insert is then refused as a
 *    duplicate key: isDuplicateRow); a call with `maxEntries` trims the oldest entries; it keeps
 *    what is written through a killed process; checked: 2.40.7, 1.123.81. Tests:
 *    test/unit/actions/run/record/store.test.ts, record.recovery.test.ts (a row refused as a
 *    duplicate), the queue-mode checks (test/queue/record.mts).
 * 2. The node context (`getContext('node')`) is one object for every Retry On Fail try of a run; n8n
 *    saves it with the execution whenever it saves the execution (at its end, when it waits, after
 *    each node with progress saving) and the editor's Retry hands the saved copy back; nothing of it
 *    survives a process that dies. Checked: 2.40.7, 1.123.81. Tests: record.recovery.test.ts, the real-n8n
 *    checks "Retry On Fail" and "the editor's Retry".
 * 3. The execution context (`getExecutionContext()`): n8n 2.x sets `establishedAt` (a millisecond)
 *    and `triggerNode` when it creates the execution, and every Retry of it inherits them, also the
 *    Retry of a crashed execution; n8n 1.x makes it each time the execution runs, without
 *    `triggerNode`.
 *    Checked: 2.40.7 (inherited), 1.123.81 (not). Tests: record.recovery.test.ts (n8n 1.x), the queue
 *    checks (a crash's Retry finds its record).
 * 4. A Retry (the editor's or the API's) runs with mode `retry`; Retry On Fail runs the node again
 *    in the same execution and mode. Checked: 2.40.7, 1.123.81.
 * 5. `$runIndex` numbers the node's runs in an execution (Loop Over Items: one run per batch); a
 *    Retry runs the failed run at its number. Checked: 2.40.7, 1.123.81.
 * 6. `getExecutionDataById(id)` reads an execution's data as n8n saved it: once it holds this node's
 *    run, the node context with the record is saved with it; `undefined` once the execution is
 *    deleted or pruned. Checked: 2.40.7, 1.123.81. Tests: record.test.ts (processes killed after
 *    their execution ended), bench (g).
 * 7. Nothing a node can read says whether another process writes its store row: n8n's execute
 *    context shows no queue or regular mode (`getInstanceId` only; the mode lives in the process's
 *    environment, which a community node may not read), and in regular mode too a second main or a
 *    webhook process may run the node. So the store is taken as shared wherever it is used, and the
 *    proof (PROOF_WAIT_MS) is paid wherever the record writes it. Checked: n8n-core 2.40.1's
 *    node-execution-context.js.
 * 8. n8n prunes an execution after `EXECUTIONS_DATA_MAX_AGE`, 336 hours (14 days) by default, and a
 *    pruned execution cannot be retried (EXECUTIONS_KEPT_MS). Checked: @n8n/config of 2.40.7 and
 *    1.123.81 (executions.config.js). Tests: n8n.config.test.mts (against the dev dependencies).
 */

/**
 * The wait before a claim (or what replaces one) is read back, at the least: the proof's one
 * assumption is that **no other writer's read-and-write of the row takes longer than the wait**
 * (n8n's `findOne` then `update`, fact 1). Then every copy of the row read before an entry's write is
 * written back within it, so an entry still there when read back this long after its write was not
 * dropped by an older copy (proof.ts). Measured: a store call takes about 3 ms in one process (bench
 * (h): 4 calls in 12.6 ms); under the queue check's load (1,000 single-send executions over 2
 * workers × 10 on 2 cores) n8n's own store calls took 15 to 16 ms at the median, 235 to 388 ms at
 * the 99th percentile and 757 to 1,124 ms at the longest (test/queue/record.mts prints them each
 * run). One second alone did not always hold, so the wait follows the store: it is this, or
 * PROOF_WAIT_SLOWEST_TIMES times the slowest store call this n8n process made lately
 * (STORE_CALLS_WINDOW_MS) when that is longer (proof.ts, proofWaitMs). What stays assumed: another
 * process's call takes no longer than twice the slowest of this one's; both call the same database
 * under the same load. It is paid once per window of entries written together, never per delivery
 * (each lane waits for its claim's proof before its request).
 */
export const PROOF_WAIT_MS = 1000;

/** How many times the slowest recent store call the proof waits, when that is above PROOF_WAIT_MS. */
export const PROOF_WAIT_SLOWEST_TIMES = 2;

/**
 * How long a store call counts as recent: the slowest of the current and the previous window is
 * taken, so a slow spell lengthens the wait at once and stops counting one to two windows after it.
 */
export const STORE_CALLS_WINDOW_MS = 60_000;

export type DeduplicationStore = Pick<
	IExecuteFunctions['helpers'],
	'checkProcessedAndRecord' | 'removeProcessed'
>;

/**
 * Fact 1: n8n's two deduplication functions, alone (not `helpers`, which holds the execution's run
 * data), when this n8n has them and the workflow is saved (a store row needs a workflow ID).
 */
export function storeOf(context: IExecuteFunctions): DeduplicationStore | undefined {
	const { checkProcessedAndRecord, removeProcessed } =
		context.helpers as Partial<DeduplicationStore>;
	if (
		typeof checkProcessedAndRecord !== 'function' ||
		typeof removeProcessed !== 'function' ||
		!context.getWorkflow().id
	)
		return undefined;
	return { checkProcessedAndRecord, removeProcessed };
}

/**
 * Fact 1: the row n8n's store keeps for this node (scope `'node'`: one per workflow and node), as
 * this process names it: its calls to one row take turns (storeCalls.ts).
 */
export function storeRowOf(context: IExecuteFunctions): string {
	return `${context.getWorkflow().id}|${context.getNode().id}`;
}

/**
 * Fact 1: the database's refusal of a second row with the same key (PostgreSQL, SQLite, MySQL), as
 * n8n's first call for a row meets it when another process inserted the row in between.
 */
export function isDuplicateRow(error: unknown): boolean {
	const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
	return (
		['23505', 'SQLITE_CONSTRAINT', 'ER_DUP_ENTRY'].includes(String(code)) ||
		/duplicate key|unique constraint failed|duplicate entry/i.test(String(message))
	);
}

/** Fact 8: how long n8n keeps an execution by default (EXECUTIONS_DATA_MAX_AGE): no Retry comes later. */
export const EXECUTIONS_KEPT_MS = 14 * 24 * 3600_000;

/** Fact 2: the node context, or undefined where a node has none (some tool runs). */
export function nodeContextOf(context: IExecuteFunctions): IDataObject | undefined {
	return typeof context.getContext === 'function' ? context.getContext('node') : undefined;
}

/** The execution every Retry of it belongs to: its name, and when it began where n8n says so. */
export interface Lineage {
	name: string;
	/** When n8n created the execution (n8n 2.x), the same in every Retry of it. */
	establishedAt?: number;
}

/**
 * Fact 3: n8n 2.x names an execution by its context's `establishedAt` and trigger, which every Retry
 * keeps; n8n 1.x only by its execution ID (a stalled queue job run again keeps it, a Retry does not).
 */
export function lineageOf(context: IExecuteFunctions): Lineage {
	const runtime = context.getExecutionContext?.() as
		| { establishedAt?: unknown; triggerNode?: { name?: unknown } }
		| undefined;
	if (typeof runtime?.establishedAt === 'number' && runtime.triggerNode !== undefined)
		return {
			name: `t${runtime.establishedAt}.${String(runtime.triggerNode.name ?? '')}`,
			establishedAt: runtime.establishedAt,
		};
	return { name: `e${context.getExecutionId()}` };
}

/** Fact 4: whether this run is a Retry of an execution (the editor's or the API's). */
export function isRetry(context: IExecuteFunctions): boolean {
	return context.getMode() === 'retry';
}

/** Fact 5: the node's run number in this execution. */
export function runIndexOf(context: IExecuteFunctions): number {
	try {
		const runIndex = context.getWorkflowDataProxy(0).$runIndex;
		return typeof runIndex === 'number' ? runIndex : 0;
	} catch {
		// Without a data proxy (a node run as a tool by some n8n versions) every run is the first.
		return 0;
	}
}

/** Fact 6: an execution's data as n8n saved it. */
export type SavedExecutions = (executionId: string) => Promise<IRunExecutionData | undefined>;

export function savedExecutionsOf(context: IExecuteFunctions): SavedExecutions | undefined {
	if (typeof context.getExecutionDataById !== 'function') return undefined;
	return async (executionId) => await context.getExecutionDataById(executionId);
}

/**
 * What n8n's saved data says of a run of the node: `running` (saved before the run ended: a Retry
 * after a crash would not have its node context), `saved` (saved with the run: its node context is
 * there), `succeeded` (saved with the run, finished without error and not waiting), `gone` (deleted
 * or pruned: nothing can Retry it).
 */
export type SavedState = 'running' | 'saved' | 'succeeded' | 'gone';

export function savedStateOf(
	data: IRunExecutionData | undefined,
	nodeName: string,
	runIndex: number,
): SavedState {
	if (data === undefined || data === null) return 'gone';
	const runs = data.resultData?.runData?.[nodeName];
	if (!Array.isArray(runs) || runs.length <= runIndex) return 'running';
	const waiting = data.waitTill !== undefined && data.waitTill !== null;
	const stack = data.executionData?.nodeExecutionStack;
	const done = !Array.isArray(stack) || stack.length === 0;
	return !data.resultData.error && !waiting && done ? 'succeeded' : 'saved';
}
