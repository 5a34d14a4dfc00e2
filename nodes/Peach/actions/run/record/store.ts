import type { IExecuteFunctions } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

/**
 * n8n's deduplication store (`checkProcessedAndRecord`, the table Remove Duplicates uses) as the
 * delivery record writes it: the one thing a node can write that survives n8n being killed. n8n keeps
 * one list per node and rewrites it whole on every call (n8n 2.40 `DeduplicationHelper`), so:
 *
 * - calls for one node take turns in this process, each carrying everything waiting at that moment;
 * - nothing is ever trimmed (no `maxEntries`): n8n trims the oldest entries of every run, so a trim
 *   could cut what a running or crashed execution still needs; the record removes its own entries;
 * - another process (a queue-mode worker) may read the list before one of these calls and write it
 *   after, dropping what the call added: each call adds the previous call's entries again, and a run's
 *   last entries are checked once more a moment after it ends;
 * - two processes' first calls for a node may both find no list and insert one: the second insert
 *   fails, writing nothing, and its call is made again;
 * - once this process has seen that (or an entry of its own dropped), for a while a claim is trusted
 *   only when a call half a second later found it: a process that dies right after its request leaves
 *   no next call to put a dropped claim back, and the Retry would send again;
 * - removals wait for the additions queued before them, and go in batches (n8n looks each one up in
 *   the whole list).
 */

export type DeduplicationStore = Pick<
	IExecuteFunctions['helpers'],
	'checkProcessedAndRecord' | 'removeProcessed'
>;

const OPTIONS = { mode: 'entries' as const };
/** Removals waiting before a call makes them (a run's close makes the rest). */
const REMOVAL_BATCH = 512;
/** The most removals in one call: n8n looks each one up in the node's whole list. */
const REMOVALS_PER_CALL = 2000;
/** A run's last entries are checked again this long after it ends (another process's rewrite). */
const CHECK_AGAIN_AFTER_MS = 1000;

/** Calls to n8n's store for one node, in this process, one after another. */
const turns = new Map<string, Promise<void>>();

async function inTurn<T>(scope: string, call: () => Promise<T>): Promise<T> {
	const before = turns.get(scope) ?? Promise.resolve();
	const run = before.then(call);
	const settled = run.then(
		() => undefined,
		() => undefined,
	);
	turns.set(scope, settled);
	try {
		return await run;
	} finally {
		if (turns.get(scope) === settled) turns.delete(scope);
	}
}

/**
 * When this process last saw another process rewrite a node's list from an older copy (an entry it
 * wrote was gone when written again, or the first insert raced). For a while after, a claim there is
 * trusted only once a call made a moment later found it.
 */
const rewritten = new Map<string, number>();
/** How long a list seen rewritten by another process keeps its claims confirmed. */
const REWRITTEN_FOR_MS = 10 * 60_000;
/**
 * The wait before a claim is looked for: longer than another process's read-and-write of the list
 * (a database round trip), so a copy it read before the claim has been written by then.
 */
const CONFIRM_AFTER_MS = 500;
/** Looks that may find a claim dropped again before the delivery is given up, not made. */
const CONFIRMS = 5;

const seenRewritten = (scope: string) => rewritten.set(scope, Date.now());
const isRewritten = (scope: string) =>
	Date.now() - (rewritten.get(scope) ?? -Infinity) < REWRITTEN_FOR_MS;

/** Tries of a call that found no row for the node and lost the race to insert it. */
const FIRST_ROW_TRIES = 3;

/** The database's refusal of a second row with the same key (PostgreSQL, SQLite, MySQL). */
function isDuplicateRow(error: unknown): boolean {
	const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
	return (
		['23505', 'SQLITE_CONSTRAINT', 'ER_DUP_ENTRY'].includes(String(code)) ||
		/duplicate key|unique constraint failed|duplicate entry/i.test(String(message))
	);
}

/**
 * Records `items` in the node's list. n8n inserts the list when it reads none, so when another
 * process (a queue-mode worker) inserted it in between, the insert fails and writes nothing: the
 * call is made again, and adds to the list that is there now.
 */
async function checkAndRecord(
	store: DeduplicationStore,
	scope: string,
	items: string[],
	tries = FIRST_ROW_TRIES,
): ReturnType<DeduplicationStore['checkProcessedAndRecord']> {
	return await store
		.checkProcessedAndRecord(items, 'node', OPTIONS)
		.catch(async (error: unknown) => {
			if (tries <= 1 || !isDuplicateRow(error)) throw error;
			seenRewritten(scope);
			return await checkAndRecord(store, scope, items, tries - 1);
		});
}

async function removeInCalls(store: DeduplicationStore, items: string[]): Promise<void> {
	for (let at = 0; at < items.length; at += REMOVALS_PER_CALL)
		await store.removeProcessed(items.slice(at, at + REMOVALS_PER_CALL), 'node', OPTIONS);
}

interface Waiting {
	resolve: () => void;
	reject: (error: Error) => void;
}

/** One run's writes to the store of its node. */
export class RecordStore {
	private adds = new Set<string>();
	private waiting: Waiting[] = [];
	private removals = new Set<string>();
	/** What the last call added: added again with the next, in case another process dropped it. */
	private lastAdded: string[] = [];
	private draining: Promise<void> | undefined;
	private closing = false;
	private failure: Error | undefined;
	private waking = false;
	/** Every entry this run added and did not remove (checked again after the run). */
	readonly kept = new Set<string>();
	/** Every entry this run removed (removed again after the run). */
	private readonly removed = new Set<string>();

	constructor(
		private readonly store: DeduplicationStore,
		readonly scope: string,
		/** What the execution's record keeps in the store (entriesKeptFor): removed when it ends. */
		private readonly execution: Set<string>,
	) {}

	/** Entries an earlier try wrote, which this execution's record now keeps. */
	adopt(items: string[]): void {
		for (const item of items) this.execution.add(item);
	}

	/** Adds entries and waits until n8n has written them (a delivering request follows). */
	async write(items: string[]): Promise<void> {
		await new Promise<void>((resolve, reject) => {
			this.queueAdds(items);
			this.waiting.push({ resolve, reject });
			this.drain();
		});
	}

	/**
	 * Adds entries with the next call (or the run's close). They wait a turn of the event loop, so
	 * that the lane which made them can queue its next claim first and one call carries both.
	 */
	later(items: string[]): void {
		this.queueAdds(items);
		this.soon();
	}

	/** Removes entries once everything added before them is written. */
	remove(items: string[]): void {
		for (const item of items) {
			this.removals.add(item);
			this.adds.delete(item);
			this.kept.delete(item);
			this.execution.delete(item);
			this.removed.add(item);
		}
		if (this.removals.size >= REMOVAL_BATCH) this.soon();
	}

	/**
	 * Which of `items` the store holds. n8n can only answer by recording the ones it lacks, so those
	 * are removed again in the same turn.
	 */
	async probe(items: string[]): Promise<Set<string>> {
		if (!items.length) return new Set();
		return await inTurn(this.scope, async () => {
			const result = await checkAndRecord(this.store, this.scope, items);
			await removeInCalls(this.store, result.new.map(String));
			return new Set(result.processed.map(String));
		});
	}

	/**
	 * Takes `items[0]` if no one has it (in one call, so no other run of this process can take it in
	 * between), recording the rest with it; answers whether it did. What it recorded in vain is
	 * removed again.
	 */
	async take(items: string[]): Promise<boolean> {
		return await inTurn(this.scope, async () => {
			const result = await checkAndRecord(this.store, this.scope, items);
			const added = result.new.map(String);
			const took = added.includes(items[0]);
			if (took) this.adopt(items);
			else await removeInCalls(this.store, added);
			return took;
		});
	}

	/** Writes what is waiting; rejects when something could not be written. */
	async close(): Promise<void> {
		this.closing = true;
		this.drain();
		while (this.draining) await this.draining;
		if (this.failure) throw this.failure;
	}

	/**
	 * A moment after the run, adds its kept entries again and removes its removed ones again: another
	 * process writing the node's list at the same time as the run's last calls may have undone them.
	 */
	checkAgainLater(): void {
		const kept = [...this.kept];
		const removed = [...this.removed];
		if (!kept.length && !removed.length) return;
		void sleep(CHECK_AGAIN_AFTER_MS)
			.then(
				async () =>
					await inTurn(this.scope, async () => {
						// Not what the execution's record has let go since (its end, a later fold).
						const still = kept.filter((item) => this.execution.has(item));
						if (still.length) {
							const result = await checkAndRecord(this.store, this.scope, still);
							if (result.new.length) seenRewritten(this.scope);
						}
						await removeInCalls(this.store, removed);
					}),
			)
			// A check that cannot run leaves the entries as the run's own calls wrote them.
			.catch(() => undefined);
	}

	private queueAdds(items: string[]): void {
		for (const item of items) {
			this.adds.add(item);
			this.kept.add(item);
			this.execution.add(item);
			this.removals.delete(item);
			this.removed.delete(item);
		}
	}

	private soon(): void {
		if (this.waking) return;
		this.waking = true;
		void sleep(0).then(() => {
			this.waking = false;
			this.drain();
		});
	}

	/**
	 * Looks for the items a moment after they were written, until one look finds them all (each look
	 * adds back what was dropped). Not in turn while it waits: the process's other runs go on.
	 */
	private async confirm(items: string[]): Promise<void> {
		for (let look = 0; look < CONFIRMS; look++) {
			await sleep(CONFIRM_AFTER_MS);
			const result = await inTurn(
				this.scope,
				async () => await checkAndRecord(this.store, this.scope, items),
			);
			if (!result.new.length) return;
			seenRewritten(this.scope);
		}
		throw new Error(
			`another n8n process rewrote the node's record from an older copy ${CONFIRMS} times in a row`,
		);
	}

	private get removalsDue(): boolean {
		return this.removals.size > 0 && (this.closing || this.removals.size >= REMOVAL_BATCH);
	}

	private drain(): void {
		this.draining ??= (async () => {
			while (this.adds.size || this.removalsDue) {
				const adds = [...this.adds];
				const waiting = this.waiting.splice(0);
				this.adds.clear();
				const removals = this.removalsDue ? [...this.removals] : [];
				for (const item of removals) this.removals.delete(item);
				try {
					let confirming: string[] = [];
					await inTurn(this.scope, async () => {
						if (adds.length) {
							const again = this.lastAdded.filter((item) => this.kept.has(item));
							const written = [...adds, ...again];
							const result = await checkAndRecord(this.store, this.scope, written);
							const dropped = new Set(result.new.map(String));
							if (again.some((item) => dropped.has(item))) seenRewritten(this.scope);
							// Claims wait for a later call that finds them where another process's rewrite
							// could drop them unseen (a crash before the next call would then lose them).
							if (waiting.length && isRewritten(this.scope)) confirming = written;
							this.lastAdded = adds;
						}
						if (removals.length) await removeInCalls(this.store, removals);
					});
					if (confirming.length) await this.confirm(confirming);
					for (const waiter of waiting) waiter.resolve();
				} catch (caught) {
					const error = caught instanceof Error ? caught : new Error(String(caught));
					for (const waiter of waiting) waiter.reject(error);
					this.failure = error;
				}
			}
		})().finally(() => {
			this.draining = undefined;
		});
	}
}

/** What a finished execution's record holds in the store: removed once n8n has let the execution go. */
interface Leftover {
	store: DeduplicationStore;
	scope: string;
	entries: Set<string>;
}

const finished = new FinalizationRegistry<Leftover>((leftover) => {
	const entries = [...leftover.entries];
	leftover.entries.clear();
	if (!entries.length) return;
	void inTurn(leftover.scope, async () => await removeInCalls(leftover.store, entries))
		// Left in the store, they cost its size until the node's list is cleared; nothing depends on them.
		.catch(() => undefined);
});

const leftovers = new WeakMap<object, Map<string, Set<string>>>();

/**
 * The entries an execution's record keeps in the store, for as long as n8n holds the execution in
 * this process: while it runs (a crash then leaves them for the Retry) and until n8n saved it and let
 * it go (its node context, `token`, is garbage collected), when they are removed. A process that dies
 * removes nothing: the Retry of its executions finds their records, and removes them when it ends.
 */
export function entriesKeptFor(
	token: object,
	store: DeduplicationStore,
	scope: string,
): Set<string> {
	let byScope = leftovers.get(token);
	if (!byScope) {
		byScope = new Map();
		leftovers.set(token, byScope);
	}
	let entries = byScope.get(scope);
	if (!entries) {
		entries = new Set();
		byScope.set(scope, entries);
		finished.register(token, { store, scope, entries });
	}
	return entries;
}

/**
 * n8n's two deduplication functions, alone: `helpers` as a whole holds the execution's run data (its
 * request functions do), and what the record keeps for the execution's end must not keep it alive.
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

/** Merges the probes of one turn of the event loop into one call to the store. */
export function batchedProbe(store: RecordStore): (items: string[]) => Promise<Set<string>> {
	let waiting: Array<{
		items: string[];
		resolve: (found: Set<string>) => void;
		reject: (error: Error) => void;
	}> = [];
	return async (items) =>
		await new Promise<Set<string>>((resolve, reject) => {
			waiting.push({ items, resolve, reject });
			if (waiting.length > 1) return;
			void sleep(0).then(async () => {
				const batch = waiting;
				waiting = [];
				try {
					const found = await store.probe([...new Set(batch.flatMap((asked) => asked.items))]);
					for (const asked of batch)
						asked.resolve(new Set(asked.items.filter((item) => found.has(item))));
				} catch (caught) {
					for (const asked of batch) asked.reject(caught as Error);
				}
			});
		});
}
