import { createHash } from 'node:crypto';

import type { IDataObject } from 'n8n-workflow';

import { FakePeachList } from './peachList';

/**
 * What n8n keeps between the tries of a node, as n8n 2.40 keeps it (README "What every delivering
 * operation promises" lists the paths):
 * - the node context (`getContext('node')`): one object for every Retry On Fail try of a run; saved
 *   (as JSON) with a failed execution and handed back by the editor's Retry; lost when the process
 *   running the execution dies;
 * - the deduplication store (`checkProcessedAndRecord` / `removeProcessed`, n8n's
 *   `deduplication-helper.ts`): one row per workflow and node holding a list of md5 hashes, read and
 *   written whole by every call (a database round trip each), kept through a crash.
 */

/** n8n's processed_data rows, as DeduplicationHelper reads and writes them. */
export class FakeDeduplicationStore {
	readonly rows = new Map<string, { mode: string; data: string[] }>();
	calls = 0;
	/** How many of the calls were checks (n8n's only look: it records what it lacks). */
	checkCalls = 0;
	/** The bytes of every row n8n wrote (it writes the whole row, as JSON, on every call). */
	bytesWritten = 0;
	/** How many entries n8n dropped, oldest first, to keep a row within a call's maxEntries. */
	trimmed = 0;
	/** The most entries a row held. */
	largestRow = 0;
	/**
	 * Rows another process (a queue-mode worker) inserts while a call that found no row waits for its
	 * own insert: one per call, in order.
	 */
	readonly insertedMeanwhile: string[][] = [];
	/**
	 * A database round trip: the row is read, then written after this many turns of the event loop's
	 * job queue, so that concurrent callers interleave (not n8n's sleep: tests of waiting replace it
	 * with a fake clock).
	 */
	constructor(private readonly latency = 3) {}

	private async roundTrip(): Promise<void> {
		for (let turn = 0; turn < this.latency; turn++) await Promise.resolve();
	}

	private static hash(value: string | number): string {
		return createHash('md5').update(value.toString()).digest('base64');
	}

	/** The helpers a node gets for one workflow and node (scope 'node' → `n:<node id>`). */
	/** n8n processes that were killed: they make no more calls. */
	readonly killed = new Set<string>();

	/** The helpers a node gets in one n8n process, for one workflow and node (scope 'node' → `n:<node id>`). */
	helpersFor(workflowId: string, nodeId: string, process = 'main') {
		const key = `${workflowId}|n:${nodeId}`;
		/** A call of the node's in this process: the row as the call reads it, one round trip later. */
		const called = async (scope: string) => {
			if (this.killed.has(process)) throw new Error(`the n8n process ${process} was killed`);
			if (scope !== 'node') throw new Error(`unexpected scope ${scope}`);
			this.calls++;
			const row = this.rows.get(key);
			const read = row ? { mode: row.mode, data: [...row.data] } : undefined;
			await this.roundTrip();
			return { row, read };
		};
		return {
			checkProcessedAndRecord: async (
				items: Array<string | number>,
				scope: string,
				options: { mode: string; maxEntries?: number },
			) => {
				const { row, read } = await called(scope);
				this.checkCalls++;
				const hashes = items.map((item) => FakeDeduplicationStore.hash(item));
				if (!read) {
					// n8n inserts the row it did not find: another process that inserted it in between
					// makes the insert fail, as PostgreSQL refuses a second row with the same key.
					const other = this.insertedMeanwhile.shift();
					if (other)
						this.write(key, { mode: options.mode, data: other.map(FakeDeduplicationStore.hash) });
					if (this.rows.has(key))
						throw Object.assign(
							new Error(
								'duplicate key value violates unique constraint "PK_ca04b9d8dc72de268fe07a65773"',
							),
							{ code: '23505' },
						);
					const data = [...hashes];
					if (options.maxEntries)
						this.trimmed += data.splice(0, data.length - options.maxEntries).length;
					this.write(key, { mode: options.mode, data });
					return { new: items, processed: [] };
				}
				if (read.mode !== options.mode) throw new Error('incompatible mode');
				// As n8n: the set is the row as read; an item new in this call is pushed (a duplicate
				// within one call is pushed twice).
				const known = new Set(read.data);
				const result = {
					new: [] as Array<string | number>,
					processed: [] as Array<string | number>,
				};
				hashes.forEach((hash, index) => {
					if (known.has(hash)) result.processed.push(items[index]);
					else {
						result.new.push(items[index]);
						read.data.push(hash);
					}
				});
				if (options.maxEntries)
					this.trimmed += read.data.splice(0, read.data.length - options.maxEntries).length;
				this.write(key, read);
				this.rewriteFromOlderCopy(key, row);
				return result;
			},
			removeProcessed: async (items: Array<string | number>, scope: string) => {
				const { row, read } = await called(scope);
				if (!read) return;
				for (const hash of items.map((item) => FakeDeduplicationStore.hash(item))) {
					const index = read.data.indexOf(hash);
					if (index !== -1) read.data.splice(index, 1);
				}
				this.write(key, read);
				this.copyFromBeforeRemoval(key, row);
			},
		};
	}

	/**
	 * Another process (a queue-mode worker) that read the row before the node's next `n` calls wrote
	 * it, and writes its copy right after each: what those calls added is gone, its own entry is in.
	 */
	rewritesFromOlderCopies = 0;
	/**
	 * Another process that read the row before every `olderCopyEvery`-th check of the node and
	 * writes its copy right after it (0: none); `olderCopiesWritten` counts them.
	 */
	olderCopyEvery = 0;
	olderCopiesWritten = 0;
	private checks = 0;
	private rewrites = 0;

	private rewriteFromOlderCopy(key: string, older: { mode: string; data: string[] } | undefined) {
		const every = this.olderCopyEvery > 0 && ++this.checks % this.olderCopyEvery === 0;
		if ((this.rewritesFromOlderCopies <= 0 && !every) || !older) return;
		if (every) this.olderCopiesWritten++;
		else this.rewritesFromOlderCopies--;
		const own = FakeDeduplicationStore.hash(`other worker rewrite ${this.rewrites++}`);
		this.write(key, { mode: older.mode, data: [...older.data, own] });
	}

	/**
	 * Another process that read the row just before the node's next `n` removals and writes its copy
	 * right after each: what the removal took out is back (with its own entry).
	 */
	removalsUndoneByOlderCopies = 0;

	private copyFromBeforeRemoval(key: string, before: { mode: string; data: string[] } | undefined) {
		if (this.removalsUndoneByOlderCopies <= 0 || !before) return;
		this.removalsUndoneByOlderCopies--;
		const own = FakeDeduplicationStore.hash(`other worker rewrite ${this.rewrites++}`);
		this.write(key, { mode: before.mode, data: [...before.data, own] });
	}

	/** n8n's update of the whole row. */
	private write(key: string, row: { mode: string; data: string[] }): void {
		this.bytesWritten += JSON.stringify(row).length;
		this.largestRow = Math.max(this.largestRow, row.data.length);
		this.rows.set(key, row);
	}

	/** Whether the row holds an entry (as n8n hashes it). */
	has(item: string, workflowId = 'wf-1', nodeId = 'node-1'): boolean {
		const row = this.rows.get(`${workflowId}|n:${nodeId}`);
		return row?.data.includes(FakeDeduplicationStore.hash(item)) ?? false;
	}

	/** How many entries the row of a workflow's node holds. */
	size(workflowId = 'wf-1', nodeId = 'node-1'): number {
		return this.rows.get(`${workflowId}|n:${nodeId}`)?.data.length ?? 0;
	}
}

/**
 * n8n's saved executions, as `getExecutionDataById` reads them (n8n 2.40 `getRunExecutionData`: the
 * execution's data as saved, or undefined once it is deleted or pruned). An execution is saved when
 * it is created (before any node ran), and again when it ends or waits.
 */
export class FakeExecutions {
	private readonly saved = new Map<string, IDataObject>();
	/** How often each execution's saved data was read. */
	readonly reads = new Map<string, number>();
	/** Reads answer once this is settled (a database slow to answer). */
	readsWait: Promise<void> = Promise.resolve();

	/** n8n created the execution: saved before any node ran. */
	created(executionId: string): void {
		this.saved.set(executionId, {
			resultData: { runData: {} },
			executionData: { nodeExecutionStack: [{}] },
		});
	}

	/**
	 * n8n saved the execution after the node's `runs` runs: finished (`succeeded` or with an error),
	 * or waiting.
	 */
	ended(
		executionId: string,
		runs: number,
		how: 'succeeded' | 'failed' | 'waiting' = 'succeeded',
		nodeName = 'Peach',
	): void {
		this.saved.set(executionId, {
			resultData: {
				runData: { [nodeName]: Array.from({ length: runs }, () => ({ startTime: 0 })) },
				...(how === 'failed' ? { error: { message: 'a node failed' } } : {}),
			},
			executionData: { nodeExecutionStack: how === 'waiting' ? [{}] : [] },
			...(how === 'waiting' ? { waitTill: new Date(Date.now() + 3600_000) } : {}),
		});
	}

	/** Deleted (not saved on success, or pruned). */
	deleted(executionId: string): void {
		this.saved.delete(executionId);
	}

	read(executionId: string): IDataObject | undefined {
		this.reads.set(executionId, (this.reads.get(executionId) ?? 0) + 1);
		const data = this.saved.get(executionId);
		return data === undefined ? undefined : structuredClone(data);
	}
}

/** What an execution carries into its tries and retries (n8n's runExecutionData, in part). */
export interface Lineage {
	/** The node context object (getContext('node')). */
	nodeContext: IDataObject;
	/**
	 * The node context n8n saved with the execution when it created it (a Retry of a failed execution
	 * is created with that execution's data, its context included: n8n 2.40 active-executions.js
	 * L55); what the Retry of a crash of it gets back (the recovery amends only the run data).
	 */
	createdWith?: IDataObject;
	store: FakeDeduplicationStore;
	/** What Peach lists of the messages it queued: kept whatever n8n does (peachList.ts). */
	peach: FakePeachList;
	/** n8n's saved executions (its database), shared by an execution and its retries. */
	executions: FakeExecutions;
	/**
	 * runtimeData.establishedAt: n8n 2.x sets it (with triggerNode) when the execution is created, and
	 * a retry inherits it; n8n 1.x sets it (without triggerNode) each time the execution starts running.
	 */
	establishedAt?: number;
	/** Which n8n line runs it: 2 (the default) or 1. */
	n8nLine?: 1 | 2;
	/** What the trigger started the execution with (its output items' JSON), kept by its retries. */
	trigger: IDataObject[];
	/**
	 * The workflow (by default the harness's): an n8n process remembers per workflow and node that
	 * another process rewrites the node's list, so a test of that uses a workflow of its own.
	 */
	workflowId?: string;
	executionId: string;
	mode: string;
	runIndex: number;
	/** The n8n process running it (FakeDeduplicationStore.killed stops one); 'main' by default. */
	process?: string;
}

let executions = 100;

/** A new execution (a trigger, a webhook, a manual run) of the workflow. */
export function newExecution(
	store = new FakeDeduplicationStore(),
	overrides: Partial<Lineage> = {},
): Lineage {
	executions++;
	const saved = overrides.executions ?? new FakeExecutions();
	saved.created(String(overrides.executionId ?? executions));
	return {
		nodeContext: {},
		store,
		peach: new FakePeachList(),
		executions: saved,
		establishedAt: 1_700_000_000_000 + executions,
		executionId: String(executions),
		mode: 'webhook',
		runIndex: 0,
		trigger: [{ body: { delivery: executions } }],
		...overrides,
	};
}

/**
 * The editor's Retry of a failed execution (both choices): a new execution with the failed one's
 * data as saved in the database (JSON), its execution context, mode 'retry', the same run index.
 */
export function editorRetry(failed: Lineage): Lineage {
	executions++;
	failed.executions.created(String(executions));
	const saved = JSON.stringify(failed.nodeContext);
	return {
		...failed,
		nodeContext: JSON.parse(saved) as IDataObject,
		createdWith: JSON.parse(saved) as IDataObject,
		executionId: String(executions),
		mode: 'retry',
	};
}

/**
 * The Retry of an execution whose process died while the node ran: nothing of what the node's
 * context became in that run was saved, only what the execution was created with (a Retry's: the
 * failed execution's); the store keeps what was written; n8n 2.x stored the execution context
 * before it ran.
 */
export function crashRetry(crashed: Lineage): Lineage {
	executions++;
	crashed.executions.created(String(executions));
	return {
		...crashed,
		nodeContext: JSON.parse(JSON.stringify(crashed.createdWith ?? {})) as IDataObject,
		executionId: String(executions),
		mode: 'retry',
	};
}
