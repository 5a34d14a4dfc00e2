import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { EarlierOutcome } from '../../operation/node.type';
import { type BucketRun, entry, runSums } from './chain';
import { type ReadingEarlier, readEarlierTries } from './earlier';
import { anchorOf, type BucketState, bucketState, fold, type Status } from './fold';
import { keepUntilSaved, lookAtDueSoon } from './lifetime';
import {
	isRetry,
	lineageOf,
	nodeContextOf,
	runIndexOf,
	savedExecutionsOf,
	storeOf,
	storeRowOf,
} from './n8n';
import { nodeRecordIn, openRun } from './nodeRecord';
import type { RunWitness } from './peachWitness';
import { RunInContext } from './runInContext';
import { RecordStore } from './store';
import { factEntries } from './storeCalls';
import { peachAskedSince, type PlannedDelivery, type RunOf, thisRun } from './thisRun';

/**
 * The delivery record ("never twice", what other APIs call idempotency): what a delivering operation
 * already did, so that none of n8n's ways of recovering from a failure makes a request Peach accepted
 * again. Only the delivering runner uses it.
 * What it relies on from n8n is in n8n.ts; what a delivery is, and its entries, in chain.ts; how this
 * run names its deliveries, in thisRun.ts; how it reads what earlier tries did, in earlier.ts.
 *
 * - **The node context** (nodeRecord.ts; n8n keeps it between Retry On Fail tries and hands the saved
 *   copy back to the editor's Retry) holds each delivery's outcome and Peach's answer (this run's
 *   part: runInContext.ts).
 * - **n8n's deduplication store** (the one thing a node writes that survives a killed process) holds a
 *   claim before each delivering request and its outcome after, folded as it goes (fold.ts), and a
 *   run that sent everything as one entry; a Retry reads it back (readBack.ts); lifetime.ts decides
 *   when it goes.
 * - **Peach** is the witness: in every later try (Retry On Fail or a Retry), before anything is sent
 *   again, what Peach lists as queued since the execution began decides what the record does not
 *   know (resolve.ts).
 */

/** Another try of the same execution claimed the delivery first: it is not made by this one. */
export class ClaimedElsewhere extends Error {
	constructor() {
		super(
			'another try of this execution, running at the same time, claimed this delivery first (the Retry was pressed twice?), so this one does not make it',
		);
	}
}

export class DeliveryRecord {
	private readonly status: Status[];
	private readonly earlierOf: Array<EarlierOutcome | undefined>;
	private readonly buckets = new Map<number, BucketState>();
	/** Entries of a crashed try this Retry found: they belong to that execution's record. */
	private readonly found = new Set<string>();
	/**
	 * Whether what this run writes must stay for later Retries of the execution it retries (n8n lets the
	 * user Retry that one again, from its own data): in any Retry, and where a crashed try's record was
	 * found.
	 */
	private forLaterRetries = false;
	/** Retry On Fail or a Retry: another try of the same execution may be under way at the same time. */
	private retrying = false;
	/** Deliveries an earlier try claimed, whose outcome was unknown when this one began. */
	private readonly claimedBefore = new Set<number>();

	private constructor(
		private readonly context: IExecuteFunctions,
		private readonly run: RunOf,
		buckets: Map<number, BucketRun>,
		private readonly inContext: RunInContext,
		private readonly store: RecordStore | undefined,
		/** The operation's own witness in Peach (an order, its refunds, a broadcast), if it has one. */
		private readonly witness: RunWitness | undefined,
	) {
		this.status = run.identities.map(() => 'pending');
		this.earlierOf = inContext.earlierOf();
		for (const [bucket, bucketRun] of buckets) this.buckets.set(bucket, bucketState(bucketRun));
	}

	/**
	 * Opens the record for this run of the node (`operationKey`: the resource and operation) and, in a
	 * later try (Retry On Fail or a Retry), reads what earlier tries did: the node context, n8n's
	 * store, then Peach (`peach`: the operation's own witness, and whether it is made only on
	 * evidence: DeliveringOperation.madeOnEvidence).
	 */
	static async open(
		context: IExecuteFunctions,
		operationKey: string,
		planned: PlannedDelivery[],
		peach: { witness?: RunWitness; onEvidence: boolean },
	): Promise<DeliveryRecord> {
		lookAtDueSoon();
		const nodeContext = nodeContextOf(context);
		const held = nodeRecordIn(nodeContext);
		const runIndex = runIndexOf(context);
		const opened = held ? openRun(held.record, runIndex) : undefined;
		const lineage = lineageOf(context);
		const { run, buckets } = thisRun(operationKey, planned, {
			lineage: lineage.name,
			ordinal: opened?.ordinal ?? 0,
			runIndex,
		});
		const helpers = storeOf(context);
		const record = new DeliveryRecord(
			context,
			run,
			buckets,
			new RunInContext(run, opened?.entries, opened?.planned ?? {}),
			helpers && held ? new RecordStore(helpers, storeRowOf(context)) : undefined,
			peach.witness,
		);
		await record.readEarlier(nodeContext ?? {}, {
			retry: isRetry(context),
			earlierTry: opened?.earlierTry ?? false,
			since: peachAskedSince(lineage, held),
			// A Retry reads n8n's store (a crashed try's record is there); so does every run on n8n 1.x,
			// whose stalled queue jobs run again as the same execution without saying so.
			readStore: isRetry(context) || lineage.establishedAt === undefined,
			findsItsRecord: lineage.establishedAt !== undefined,
			onEvidence: peach.onEvidence,
		});
		return record;
	}

	/** Whether a Retry of this execution (or Retry On Fail) can tell what this run sent. */
	get remembers(): boolean {
		return this.inContext.entries !== undefined;
	}

	/** What an earlier try did with a delivery (then this run does not make it). */
	earlier(index: number): EarlierOutcome | undefined {
		return this.earlierOf[index];
	}

	/** A delivery whose outcome was unknown is made again, as the user asked. */
	forget(index: number): void {
		this.earlierOf[index] = undefined;
		this.status[index] = 'pending';
		this.inContext.forget(index);
	}

	/**
	 * Right before the delivering request: records the claim where a crash cannot lose it, and proves
	 * it survived other processes' older copies of the row (proof.ts; a claim the store keeps losing
	 * rejects with RecordNotKept: the delivery is not made). In a later try (Retry On Fail or a
	 * Retry), a claim n8n already held is another try's, under way at the same time (two Retries
	 * pressed at once): the delivery is then not made (ClaimedElsewhere).
	 */
	async claim(index: number): Promise<void> {
		const { name, bucket } = this.run.places[index];
		const held = await this.store?.claim(
			[entry.claim(name), entry.reached(anchorOf(this.buckets, bucket))],
			[entry.claim(name)],
		);
		if (this.retrying && !this.claimedBefore.has(index) && held?.has(entry.claim(name)))
			throw new ClaimedElsewhere();
	}

	/** Peach accepted it. */
	sent(index: number, json: IDataObject): void {
		this.inContext.keep(index, {
			outcome: 'sent',
			at: new Date().toISOString(),
			json: { ...json },
		});
		this.store?.later(factEntries(entry.sent(this.run.places[index].name)));
		this.settle(index, 'sent');
	}

	/**
	 * It may have reached Peach (a server error, a timeout): never made again by Retry On Fail or a
	 * Retry by itself.
	 */
	unknown(index: number, reason: string): void {
		this.inContext.keep(index, { outcome: 'unknown', at: new Date().toISOString(), reason });
		this.settle(index, 'unknown');
	}

	/**
	 * It did not happen (Peach refused it, or it never left): its claim goes (Retry On Fail or a Retry
	 * makes it; a later try's claim of it is then its own).
	 */
	notSent(index: number): void {
		this.inContext.forget(index);
		this.store?.remove([entry.claim(this.run.places[index].name)]);
		this.settle(index, 'notSent');
	}

	/**
	 * After the run: a run that sent everything is summed up in one entry where that is smaller (its
	 * bucket entries go once the summary is proven) and the node context lets go of it (the outputs
	 * hold it); otherwise what can be folded is. Once those replacements are settled (beside the next
	 * runs: the run does not wait for their proofs), what the execution's record holds waits in
	 * lifetime.ts until n8n no longer needs it.
	 */
	async close(): Promise<void> {
		const allSent = this.status.length > 0 && this.status.every((status) => status === 'sent');
		if (allSent) this.inContext.letGo();
		for (const state of this.buckets.values())
			fold(state, this.status, this.run.places, this.store, true);
		const { store, run } = this;
		if (!store) return;
		// `retired` speaks for every run of the lineage (Loop Over Items' other batches, later
		// Retries): no run's summary replaces it, and no process lets it go with a run's record.
		const retired = new Set(factEntries(entry.retired(run.lineage)));
		for (const item of retired) this.found.delete(item);
		let removed: string[] = [];
		const summary = allSent
			? [
					...factEntries(entry.ended(run.lineage, run.ordinal)),
					...factEntries(entry.allSent(run.lineage, run.ordinal, runSums(run.tokens).all)),
				]
			: [];
		const replaced = [...store.kept, ...this.found].filter((item) => !summary.includes(item));
		// A summary no smaller than what it replaces (a single send's claim and outcome) is not
		// written: three whole-row writes fewer (the summary, its proof, the removal), the same size.
		if (allSent && replaced.length > summary.length) {
			// What the summary replaces goes only once it is proven.
			removed = replaced;
			store.replace(summary, removed);
			for (const item of removed) this.found.delete(item);
		}
		await store.close();
		const lifetime = {
			store: storeOf(this.context) as NonNullable<ReturnType<typeof storeOf>>,
			scope: store.scope,
			executionId: this.context.getExecutionId(),
			nodeName: this.context.getNode().name,
			runIndex: run.runIndex,
			read: savedExecutionsOf(this.context),
			removed,
			retiredBy: this.forLaterRetries ? entry.retired(run.lineage) : undefined,
		};
		void store
			.settled()
			.then(() => keepUntilSaved({ ...lifetime, entries: [...store.kept, ...this.found] }));
	}

	/**
	 * What earlier tries did, before this run makes anything (earlier.ts). In a later try, another try
	 * of the same execution may be under way at the same time; in a Retry, or where a crashed try's
	 * record was found, what this run writes stays for later Retries.
	 */
	private async readEarlier(nodeContext: object, how: ReadingEarlier): Promise<void> {
		this.retrying = how.retry || how.earlierTry;
		const { context, run, buckets, inContext, store, witness, earlierOf, status } = this;
		const { found, claimedBefore } = this;
		await readEarlierTries(
			{ context, run, buckets, inContext, store, witness, earlierOf, status, found, claimedBefore },
			nodeContext,
			how,
		);
		this.forLaterRetries = how.retry || found.size > 0;
	}

	private settle(index: number, status: Exclude<Status, 'pending'>): void {
		this.status[index] = status;
		const state = this.buckets.get(this.run.places[index].bucket) as BucketState;
		fold(state, this.status, this.run.places, this.store, false);
	}
}
