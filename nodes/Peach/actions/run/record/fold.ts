import { type BucketRun, entry, GROUP, type Place, RunningSum } from './chain';
import type { RecordStore } from './store';
import { factEntries } from './storeCalls';

/**
 * Folding a bucket as its deliveries settle (chain.ts): each settled group of GROUP deliveries, in
 * order, is replaced in n8n's store by the bucket's marker (the fingerprint through it) and its folded
 * set (how many, and the sum of their names); a refused or unknown delivery in it keeps a note by
 * name. So a run's record stays the same size however long it is, past refusals too.
 */

export type Status = 'pending' | 'sent' | 'notSent' | 'unknown';

/** One bucket's part of a run in the store: how far it is folded. */
export interface BucketState {
	run: BucketRun;
	folded: number;
	/** The folded deliveries' tokens, summed (the folded set). */
	sum: RunningSum;
	/** Whether a folded group held a refused or unknown delivery. */
	exceptions: boolean;
}

export const bucketState = (run: BucketRun): BucketState => ({
	run,
	folded: 0,
	sum: new RunningSum(),
	exceptions: false,
});

/** The anchor of a bucket of the run (its first entry's name, chain.ts). */
export const anchorOf = (buckets: Map<number, BucketState>, bucket: number): string =>
	(buckets.get(bucket) as BucketState).run.anchor;

/**
 * A folded delivery's own entries, which its group's marker replaces (a refused one has none left),
 * and the notes an earlier try's fold left of it that this outcome makes stale: a delivery an earlier
 * try refused and this one made must not read as refused beside its marker.
 */
function ownEntries(name: string, status: Status): string[] {
	if (status === 'notSent') return [];
	const stale = [
		...factEntries(entry.refusedAt(name)),
		...(status === 'sent' ? [entry.unknownAt(name)] : []),
	];
	return [entry.claim(name), ...(status === 'sent' ? factEntries(entry.sent(name)) : []), ...stale];
}

/**
 * The notes a folded group keeps of its refused or unknown deliveries, by name; the bucket's first
 * such group also marks the bucket (`exceptions`).
 */
function exceptionsOf(state: BucketState, names: string[], statuses: Status[]): string[] {
	const exceptions = names.flatMap((name, offset) =>
		statuses[offset] === 'notSent'
			? factEntries(entry.refusedAt(name))
			: statuses[offset] === 'unknown'
				? [entry.unknownAt(name)]
				: [],
	);
	if (exceptions.length && !state.exceptions) {
		state.exceptions = true;
		exceptions.push(entry.exceptions(state.run.anchor));
	}
	return exceptions;
}

/**
 * Folds the bucket's groups that are settled (`status`, by delivery), in order. At the run's end
 * (`closing`), a short last group of two or more is folded too.
 */
export function fold(
	state: BucketState,
	status: Status[],
	places: Place[],
	store: RecordStore | undefined,
	closing: boolean,
): void {
	const { run } = state;
	const count = run.deliveries.length;
	while (state.folded * GROUP < count) {
		const from = state.folded * GROUP;
		const to = Math.min(from + GROUP, count);
		if (to - from < GROUP && !(closing && to - from >= 2)) return;
		const positions = Array.from({ length: to - from }, (_, offset) => from + offset);
		const statuses = positions.map((position) => status[run.deliveries[position]]);
		if (statuses.includes('pending')) return;
		const names = positions.map((position) => places[run.deliveries[position]].name);
		const exceptions = exceptionsOf(state, names, statuses);
		const before = state.sum.count
			? entry.foldedSet(run.anchor, state.sum.count, state.sum.text)
			: undefined;
		for (const position of positions) state.sum.add(run.tokens[position]);
		const group = state.folded;
		// What the group's marker replaces goes only once the marker is proven (store.ts).
		store?.replace(
			[
				entry.group(run.anchor, group),
				...factEntries(entry.marker(run.fingerprints[to - 1])),
				...factEntries(entry.foldedSet(run.anchor, state.sum.count, state.sum.text)),
				entry.folded(run.anchor),
				...exceptions,
			],
			[
				...(group > 0
					? [
							entry.group(run.anchor, group - 1),
							...factEntries(entry.marker(run.fingerprints[from - 1])),
						]
					: []),
				...(before ? factEntries(before) : []),
				...names.flatMap((name, offset) => ownEntries(name, statuses[offset])),
			],
		);
		state.folded++;
	}
}
