import { sleep } from 'n8n-workflow';

import { type DeduplicationStore, isDuplicateRow } from './n8n';
import { storeCalls, type RecordAndRead } from './proof';

/**
 * The calls the delivery record makes to n8n's store, under the rules store.ts gives: one node's calls
 * take turns in this process (`inTurn`), each asks n8n to keep at most STORE_CAP entries, a lost race
 * to insert the node's first row is made again, a look removes what it added in the same turn, and a
 * fact is two entries. RecordStore (store.ts) writes through them; lifetime.ts and readBack.ts use
 * them too.
 */

/** The most entries a node's list keeps: n8n drops the oldest beyond it (a few hundred KB of hashes). */
export const STORE_CAP = 20_000;
const OPTIONS = { mode: 'entries' as const, maxEntries: STORE_CAP };
/** A look adds what it asks for only for a moment: it never trims the list. */
const LOOK_OPTIONS = { mode: 'entries' as const };
const REMOVE_OPTIONS = { mode: 'entries' as const };
/** The most removals in one call: n8n looks each one up in the node's whole list. */
const REMOVALS_PER_CALL = 2000;
/** Tries of a call that found no row for the node and lost the race to insert it. */
const FIRST_ROW_TRIES = 3;

/** A fact's two entries. */
export const factEntries = (name: string): [string, string] => [`${name}|1`, `${name}|2`];

/** Calls to n8n's store for one node, in this process, one after another. */
const turns = new Map<string, Promise<void>>();

export async function inTurn<T>(scope: string, call: () => Promise<T>): Promise<T> {
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
 * Records `items` in the node's list. n8n inserts the list when it reads none, so when another
 * process inserted it in between, the insert fails and writes nothing: the call is made again.
 */
export async function checkAndRecord(
	store: DeduplicationStore,
	items: string[],
	options: typeof OPTIONS | typeof LOOK_OPTIONS = OPTIONS,
	tries = FIRST_ROW_TRIES,
): ReturnType<DeduplicationStore['checkProcessedAndRecord']> {
	return await timed(async () => await store.checkProcessedAndRecord(items, 'node', options)).catch(
		async (error: unknown) => {
			if (tries <= 1 || !isDuplicateRow(error)) throw error;
			return await checkAndRecord(store, items, options, tries - 1);
		},
	);
}

/** Makes one call to n8n's store and tells its duration to the proof's wait (proof.ts). */
async function timed<T>(call: () => Promise<T>): Promise<T> {
	const started = Date.now();
	try {
		return await call();
	} finally {
		storeCalls.took(Date.now() - started);
	}
}

/**
 * n8n's check as a proof reads the row (proof.ts): it records what it lacks, in the scope's turn, and
 * answers that with the moment its write completed.
 */
export function recordAndRead(store: DeduplicationStore, scope: string): RecordAndRead {
	return async (items) =>
		await inTurn(scope, async () => {
			const result = await checkAndRecord(store, items);
			return { missing: new Set(result.new.map(String)), writtenAt: Date.now() };
		});
}

/**
 * Which of `items` the node's row holds. n8n can only answer by recording the ones it lacks, so those
 * are removed again in the same turn.
 */
export async function lookFor(
	store: DeduplicationStore,
	scope: string,
	items: string[],
): Promise<Set<string>> {
	if (!items.length) return new Set();
	return await inTurn(scope, async () => {
		const result = await checkAndRecord(store, items, LOOK_OPTIONS);
		await removeInCalls(store, result.new.map(String));
		return new Set(result.processed.map(String));
	});
}

export async function removeInCalls(store: DeduplicationStore, items: string[]): Promise<void> {
	for (let at = 0; at < items.length; at += REMOVALS_PER_CALL)
		await timed(
			async () =>
				await store.removeProcessed(
					items.slice(at, at + REMOVALS_PER_CALL),
					'node',
					REMOVE_OPTIONS,
				),
		);
}

/**
 * Merges the looks of one turn of the event loop into one (one call to the store, or one fact look):
 * a Retry reads many buckets at once.
 */
export function batched(
	look: (items: string[]) => Promise<Set<string>>,
): (items: string[]) => Promise<Set<string>> {
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
					const found = await look([...new Set(batch.flatMap((asked) => asked.items))]);
					for (const asked of batch)
						asked.resolve(new Set(asked.items.filter((item) => found.has(item))));
				} catch (caught) {
					for (const asked of batch) asked.reject(caught as Error);
				}
			});
		});
}
