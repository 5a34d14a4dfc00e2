import { type BucketRun, entry, type Place, runSums } from './chain';
import { type EarlierResult, rebuildBucket } from './rebuild';
import type { RecordStore } from './store';
import { batched, factEntries } from './storeCalls';

/**
 * What a Retry reads back from n8n's store of a run of the node (a crashed try's record stays there):
 * per delivery, what the store says; and the entries it found, which belong to that execution.
 */

/** What the store says an earlier try did with a delivery; `absent`: nothing was read. */
export type FromStore = EarlierResult | 'notReached' | 'absent';

/** A run that sent everything is matched with one gained delivery up to this size. */
const GAINED_SEARCH_LIMIT = 5000;

export interface ReadBack {
	outcomes: FromStore[];
	/** Entries of the crashed try's record that were found. */
	found: Set<string>;
}

export async function readBack(
	store: RecordStore,
	run: {
		lineage: string;
		ordinal: number;
		tokens: string[];
		places: Place[];
		buckets: Iterable<BucketRun>;
	},
): Promise<ReadBack> {
	const found = new Set<string>();
	const facts = batched(async (names) => await store.probeFacts(names));
	const whole = await readRunSummary(facts, run, found);
	if (whole) return { outcomes: whole, found };
	const looks = { probe: batched(async (items) => await store.probe(items)), facts };
	const outcomes: FromStore[] = run.tokens.map(() => 'notReached');
	await Promise.all(
		[...run.buckets].map(async (bucket) => {
			const rebuilt = await rebuildBucket(
				looks,
				bucket.anchor,
				bucket.tokens,
				bucket.deliveries.map((index) => run.places[index].name),
			);
			for (const item of rebuilt.found) found.add(item);
			rebuilt.outcomes.forEach((outcome, position) => {
				outcomes[bucket.deliveries[position]] = outcome ?? 'notReached';
			});
		}),
	);
	return { outcomes, found };
}

/**
 * What the run's summary entries say of every delivery at once (the run sent everything, also with
 * one row this input gained; it ended otherwise; the execution's record was retired), adding what
 * was found to `found`; undefined when there is none and each bucket must be read.
 */
async function readRunSummary(
	facts: (names: string[]) => Promise<Set<string>>,
	run: { lineage: string; ordinal: number; tokens: string[] },
	found: Set<string>,
): Promise<FromStore[] | undefined> {
	const { lineage, ordinal, tokens } = run;
	const keep = (names: string[]) => {
		for (const name of names) for (const item of factEntries(name)) found.add(item);
	};
	const all = (outcome: FromStore) => tokens.map(() => outcome);
	const sums = runSums(tokens);
	const summary = [
		entry.retired(lineage),
		entry.ended(lineage, ordinal),
		entry.allSent(lineage, ordinal, sums.all),
	];
	const first = await facts(summary);
	keep(summary.filter((name) => first.has(name)));
	if (first.has(entry.allSent(lineage, ordinal, sums.all))) return all('sent');
	if (first.has(entry.ended(lineage, ordinal))) {
		// The run ended having sent everything, with other deliveries: one this input gained?
		if (tokens.length > 1 && tokens.length <= GAINED_SEARCH_LIMIT) {
			const candidates = tokens.map((_, index) =>
				entry.allSent(lineage, ordinal, sums.without(index)),
			);
			const hits = await facts(candidates);
			const gained = candidates.findIndex((name) => hits.has(name));
			if (gained !== -1) {
				keep([candidates[gained]]);
				return tokens.map((_, index) => (index === gained ? 'notReached' : 'sent'));
			}
		}
		return all('unverifiable');
	}
	if (first.has(entry.retired(lineage))) return all('unverifiable');
	return undefined;
}
