import type { IExecuteFunctions } from 'n8n-workflow';

import type { EarlierOutcome } from '../../operation/node.type';
import { entry } from './chain';
import { anchorOf, type BucketState, fold, type Status } from './fold';
import { peachDecides, unwitnessedStayUnknown } from './peachDecides';
import type { RunWitness } from './peachWitness';
import { type FromStore, readBack } from './readBack';
import { resolveEarlier } from './resolve';
import type { RunInContext } from './runInContext';
import type { RecordStore } from './store';
import { factEntries } from './storeCalls';
import type { RunOf } from './thisRun';

/**
 * What earlier tries did, read when the delivery record opens (record.ts), before this run makes
 * anything: the node context, then (in a later try) n8n's store and Peach; written to the store too
 * (a crash of this try must not lose it). `readEarlierTries` takes its named steps: `readStore`,
 * resolveEarlier (resolve.ts), `askOwnWitness`, `keepEarlier`.
 */

/** The record's state that reading earlier tries fills in. */
export interface EarlierOf {
	context: IExecuteFunctions;
	run: RunOf;
	buckets: Map<number, BucketState>;
	inContext: RunInContext;
	store: RecordStore | undefined;
	/** The operation's own witness in Peach (an order, its refunds, a broadcast), if it has one. */
	witness: RunWitness | undefined;
	earlierOf: Array<EarlierOutcome | undefined>;
	status: Status[];
	/** Entries of a crashed try this Retry found: they belong to that execution's record. */
	found: Set<string>;
	/** Deliveries an earlier try claimed, whose outcome was unknown when this one began. */
	claimedBefore: Set<number>;
}

/** How this run reads earlier tries (DeliveryRecord.open says why). */
export interface ReadingEarlier {
	retry: boolean;
	earlierTry: boolean;
	since: number;
	readStore: boolean;
	findsItsRecord: boolean;
	/** The operation is made only on evidence (DeliveringOperation.madeOnEvidence). */
	onEvidence: boolean;
}

export async function readEarlierTries(
	of: EarlierOf,
	nodeContext: object,
	how: ReadingEarlier,
): Promise<void> {
	const gone = of.inContext.pairChanged(of.earlierOf);
	const fromStore = await readStore(of, how.readStore);
	if (how.retry || how.earlierTry || of.found.size > 0)
		await resolveEarlier({
			context: of.context,
			witnessed: of.run.witnessed,
			earlierOf: of.earlierOf,
			fromStore,
			retry: how.retry,
			findsItsRecord: how.findsItsRecord,
			runSeen: of.found.size > 0,
			nodeContext,
			since: how.since,
			gone,
		});
	await askOwnWitness(of, fromStore, {
		since: how.since,
		askNotShown: how.retry && (of.found.size > 0 || !how.findsItsRecord),
		// In every Retry, also where the node context knows the run: the Retry of a crashed Retry gets
		// back the context of the failed execution it was made from, which knows nothing of what the
		// crashed Retry made.
		onEvidence: how.onEvidence,
	});
	keepEarlier(of, fromStore);
}

/** What n8n's store holds of this run's deliveries (readBack.ts), where it is read; else nothing. */
async function readStore(of: EarlierOf, read: boolean): Promise<FromStore[]> {
	const { run, store } = of;
	if (!store || !read) return run.tokens.map(() => 'absent');
	const back = await readBack(store, {
		...run,
		buckets: [...of.buckets.values()].map((state) => state.run),
	});
	for (const item of back.found) of.found.add(item);
	return back.outcomes;
}

/**
 * The operation's own witness decides what the record leaves in doubt (peachDecides.ts): an
 * unknown outcome and, where the table says the record may have lost it (notShown), a delivery it
 * shows nothing of; never one the store shows nothing of its run: never claimed, it is made. What is
 * made only on evidence and has no witness (an automation's run) stays unknown where the record may
 * have lost it.
 */
async function askOwnWitness(
	of: EarlierOf,
	fromStore: FromStore[],
	how: { since: number; askNotShown: boolean; onEvidence: boolean },
): Promise<void> {
	const { earlierOf, witness } = of;
	if (!witness) {
		if (how.askNotShown && how.onEvidence) unwitnessedStayUnknown(earlierOf, fromStore);
		return;
	}
	const cleared = await peachDecides({ witness, earlierOf, fromStore, ...how });
	for (const index of cleared) {
		of.claimedBefore.add(index);
		of.inContext.forget(index);
	}
}

/**
 * What an earlier try did becomes this run's status, and is written to the store again (claim, and
 * the fact it was sent); a delivery whose outcome was unknown counts as claimed before.
 */
function keepEarlier(of: EarlierOf, fromStore: FromStore[]): void {
	const { run, store } = of;
	of.earlierOf.forEach((earlier, index) => {
		if (earlier?.outcome === 'unknown' || fromStore[index] === 'unknown')
			of.claimedBefore.add(index);
		if (!earlier) return;
		const { name, bucket } = run.places[index];
		store?.later([
			entry.claim(name),
			entry.reached(anchorOf(of.buckets, bucket)),
			...(earlier.outcome === 'sent' ? factEntries(entry.sent(name)) : []),
		]);
		of.status[index] = earlier.outcome;
	});
	for (const state of of.buckets.values()) fold(state, of.status, run.places, store, false);
}
