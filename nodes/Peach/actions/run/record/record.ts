import { createHash } from 'crypto';
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { EarlierOutcome } from '../../node.type';
import { type BucketRun, type ChainState, entry, GROUP, placeRun, tokenOf } from './chain';
import { lineageOf } from './lineage';
import { rebuildBucket } from './rebuild';
import { findSlot, takeSlot } from './slots';
import { batchedProbe, entriesKeptFor, RecordStore, storeOf } from './store';

/**
 * The delivery record: what a delivering operation already did, so that none of n8n's ways of
 * recovering from a failure makes a request Peach accepted again. Only the delivering runner uses it.
 *
 * - **In the node context** (`getContext('node')`, the same object for every Retry On Fail try of a
 *   run, saved with a failed execution and handed back by the editor's Retry): each delivery's outcome
 *   and Peach's answer, by what it is: the operation, the recipient, and the how-manieth delivery to
 *   that recipient it is in the run.
 * - **In n8n's deduplication store** (the one thing a node writes that survives a killed process),
 *   for the Retry of a crashed execution: a claim before each delivering request and its outcome
 *   after, kept as fingerprint chains per bucket of recipients and folded into one marker per group
 *   once sent (chain.ts), so that it stays small however long the run; read back by rebuild.ts. It
 *   is kept while n8n holds the execution, and removed once n8n has let it go (store.ts).
 */

const RECORD_KEY = 'peachDeliveries';

interface RecordEntry {
	outcome: 'sent' | 'unknown';
	at: string;
	json?: IDataObject;
	reason?: string;
}

/** The record in the node context: runs numbered in the order they ran, with their deliveries. */
interface NodeRecord {
	/** Run number (n8n's run index) → the how-manieth run of this try it is. */
	ordinals: Record<string, number>;
	runs: Record<string, Record<string, RecordEntry>>;
	/** Per run: each bucket's fingerprint before it (what this try wrote). */
	chains: Record<string, ChainState>;
	/** Per run, in a Retry of a crashed execution: the crashed try's fingerprints ('' unknown). */
	crashed?: Record<string, ChainState>;
	/** Which execution of its millisecond this is (n8n 2.x); -1: a Retry that cannot tell. */
	slot?: number;
}

/** What the first run was given: its deliveries and its input items (a Retry is given them again). */
function inputDigestOf(context: IExecuteFunctions, tokens: string[]): string {
	const hash = createHash('sha256');
	for (const token of tokens) hash.update(`${token}\u0000`);
	for (const item of context.getInputData()) hash.update(`${JSON.stringify(item.json)}\u0000`);
	return hash.digest('base64url').slice(0, 22);
}

const CRASH_REASON =
	'The request was under way when the n8n process running this execution stopped (for example a worker that was killed), so whether Peach got it is unknown.';

function nodeRecordOf(
	context: IExecuteFunctions,
): { record: NodeRecord; token: object } | undefined {
	if (typeof context.getContext !== 'function') return undefined;
	const nodeContext = context.getContext('node');
	const record = nodeContext[RECORD_KEY] as Partial<NodeRecord> | undefined;
	if (
		record &&
		typeof record.ordinals === 'object' &&
		typeof record.runs === 'object' &&
		typeof record.chains === 'object'
	)
		return { record: record as NodeRecord, token: nodeContext };
	const fresh: NodeRecord = { ordinals: {}, runs: {}, chains: {} };
	nodeContext[RECORD_KEY] = fresh;
	return { record: fresh, token: nodeContext };
}

function runIndexOf(context: IExecuteFunctions): number {
	try {
		const runIndex = context.getWorkflowDataProxy(0).$runIndex;
		return typeof runIndex === 'number' ? runIndex : 0;
	} catch {
		// Without a data proxy (a node run as a tool by some n8n versions) every run is the first.
		return 0;
	}
}

type Status = 'pending' | 'sent' | 'notSent' | 'unknown';

/** One bucket's part of this run in the store: how far it is folded, and whether it can be. */
interface BucketState {
	run: BucketRun;
	folded: number;
	/** A delivery that was not sent: the bucket's part of this run is not folded any further. */
	stopped: boolean;
}

export class DeliveryRecord {
	private readonly status: Status[];
	private readonly earlierOf: Array<EarlierOutcome | undefined>;
	private readonly buckets = new Map<number, BucketState>();
	/** Deliveries whose outcome the store already holds (read back in a retry). */
	private readonly fromStore = new Set<number>();

	private constructor(
		private readonly identities: string[],
		private readonly tokens: string[],
		private readonly places: ReturnType<typeof placeRun>['places'],
		buckets: Map<number, BucketRun>,
		private readonly entries: Record<string, RecordEntry> | undefined,
		private readonly store: RecordStore | undefined,
	) {
		this.status = identities.map(() => 'pending');
		this.earlierOf = identities.map((identity) => {
			const earlier = entries?.[identity];
			return earlier
				? { outcome: earlier.outcome, at: earlier.at, json: earlier.json, reason: earlier.reason }
				: undefined;
		});
		for (const [bucket, run] of buckets)
			this.buckets.set(bucket, { run, folded: 0, stopped: false });
	}

	/**
	 * Opens the record for this run of the node: `lanes` are the deliveries' recipients (or own keys),
	 * in input order. In a retry, reads back what the try it retries did.
	 */
	static async open(
		context: IExecuteFunctions,
		operationKey: string,
		lanes: string[],
	): Promise<DeliveryRecord> {
		const held = nodeRecordOf(context);
		const record = held?.record;
		const runIndex = String(runIndexOf(context));
		let ordinal = Object.keys(record?.ordinals ?? {}).length;
		if (record) {
			record.ordinals[runIndex] ??= ordinal;
			ordinal = record.ordinals[runIndex];
		}
		const counts = new Map<string, number>();
		const identities = lanes.map((lane) => {
			const occurrence = counts.get(lane) ?? 0;
			counts.set(lane, occurrence + 1);
			return JSON.stringify([operationKey, lane, occurrence]);
		});
		const tokens = lanes.map((lane) => tokenOf(operationKey, lane));
		const helpers = storeOf(context);
		const node = context.getNode();
		const scope = `${context.getWorkflow().id}|${node.id}`;
		const store =
			helpers && held
				? new RecordStore(helpers, scope, entriesKeptFor(held.token, helpers, scope))
				: undefined;
		// An execution's first run cannot find entries of its own, except when n8n runs a stalled job
		// again as the same execution (n8n 1.x, named by its execution ID).
		const execution = lineageOf(context);
		const retry = context.getMode() === 'retry' || !execution.shared;
		let lineage = execution.name;
		if (execution.shared && store && record) {
			const input = inputDigestOf(context, tokens);
			record.slot ??= retry
				? await findSlot(store, execution.name, input)
				: await takeSlot(store, execution.name, input);
			lineage = `${execution.name}|${record.slot}`;
		}
		const placed = placeRun(lineage, tokens, record?.chains[ordinal] ?? {});
		if (record) {
			record.runs[ordinal] ??= {};
			record.chains[ordinal + 1] = placed.after;
			// A retry runs the last run again at most: older chains are not needed.
			for (const older of Object.keys(record.chains))
				if (Number(older) < ordinal) delete record.chains[older];
		}
		const opened = new DeliveryRecord(
			identities,
			tokens,
			placed.places,
			placed.buckets,
			record?.runs[ordinal],
			store,
		);
		if (store && record && retry) await opened.readBack(store, record, ordinal, record.slot === -1);
		opened.recordEarlier();
		return opened;
	}

	/** Whether a Retry of this execution (or Retry On Fail) can tell what this run sent. */
	get remembers(): boolean {
		return this.entries !== undefined;
	}

	/** What an earlier try did with a delivery (then this run does not make it). */
	earlier(index: number): EarlierOutcome | undefined {
		return this.earlierOf[index];
	}

	/** A delivery whose outcome was unknown is made again, as the user asked. */
	forget(index: number): void {
		this.earlierOf[index] = undefined;
		if (this.entries) delete this.entries[this.identities[index]];
	}

	/** Right before the delivering request: records the claim where a crash cannot lose it. */
	async claim(index: number): Promise<void> {
		const { fingerprint, position, bucket } = this.places[index];
		const { run } = this.bucketOf(bucket);
		await this.store?.write([entry.claim(fingerprint), entry.reach(run.anchor, position)]);
	}

	/** Peach accepted it. */
	sent(index: number, json: IDataObject): void {
		if (this.entries)
			this.entries[this.identities[index]] = {
				outcome: 'sent',
				at: new Date().toISOString(),
				json: { ...json },
			};
		this.settle(index, 'sent');
	}

	/** It may have reached Peach (a server error, a timeout): never made again by a retry. */
	unknown(index: number, reason: string): void {
		if (this.entries)
			this.entries[this.identities[index]] = {
				outcome: 'unknown',
				at: new Date().toISOString(),
				reason,
			};
		this.settle(index, 'unknown');
	}

	/** It did not happen (Peach refused it, or it never left): a retry makes it. */
	notSent(index: number): void {
		if (this.entries) delete this.entries[this.identities[index]];
		this.settle(index, 'notSent');
	}

	/**
	 * After the run: folds what can be folded, writes what is still waiting for n8n's store. When
	 * everything was delivered, the node context's record of this run is dropped (the outputs hold it),
	 * so a saved execution stays small.
	 */
	async close(everythingDelivered: boolean): Promise<void> {
		if (everythingDelivered && this.entries)
			for (const identity of Object.keys(this.entries)) delete this.entries[identity];
		for (const state of this.buckets.values()) this.fold(state, true);
		await this.store?.close();
		this.store?.checkAgainLater();
	}

	private bucketOf(bucket: number): BucketState {
		return this.buckets.get(bucket) as BucketState;
	}

	/** In a Retry: what the crashed try did, read back from the store, where the node context has nothing. */
	private async readBack(
		store: RecordStore,
		record: NodeRecord,
		ordinal: number,
		/** Several executions of this millisecond, none with this input: which one is this? */
		cannotTell: boolean,
	): Promise<void> {
		const probe = batchedProbe(store);
		const crashed = record.crashed?.[ordinal];
		const next: ChainState = { ...crashed };
		await Promise.all(
			[...this.buckets.values()].map(async (state) => {
				const { run } = state;
				const known = crashed?.[run.bucket];
				const anchor = cannotTell
					? undefined
					: known === undefined
						? run.anchor
						: known || undefined;
				const tokens = run.deliveries.map((index) => this.tokens[index]);
				const rebuilt = await rebuildBucket(probe, anchor, tokens);
				state.folded = rebuilt.folded;
				next[run.bucket] = rebuilt.end ?? '';
				store.adopt(rebuilt.found);
				rebuilt.outcomes.forEach((outcome, position) => {
					const index = run.deliveries[position];
					if (this.earlierOf[index] || outcome === undefined || outcome === 'notSent') return;
					this.earlierOf[index] =
						outcome === 'sent'
							? { outcome: 'sent', at: null }
							: { outcome: 'unknown', at: null, reason: CRASH_REASON };
					this.status[index] = outcome;
					this.fromStore.add(index);
				});
			}),
		);
		record.crashed = { [ordinal + 1]: next, ...(crashed ? { [ordinal]: crashed } : {}) };
	}

	/**
	 * What an earlier try did, as this run's outcome; what the node context knew is written to the store
	 * too (a crash of this try must not lose it).
	 */
	private recordEarlier(): void {
		this.earlierOf.forEach((earlier, index) => {
			if (!earlier || this.fromStore.has(index)) return;
			const { fingerprint, position, bucket } = this.places[index];
			const { run } = this.bucketOf(bucket);
			this.store?.later([
				entry.claim(fingerprint),
				entry.reach(run.anchor, position),
				...(earlier.outcome === 'sent' ? [entry.sent(fingerprint)] : []),
			]);
			this.status[index] = earlier.outcome;
		});
		for (const state of this.buckets.values()) {
			if (state.run.deliveries.some((index) => this.status[index] === 'unknown'))
				state.stopped = true;
			this.fold(state, false);
		}
	}

	private settle(index: number, status: Exclude<Status, 'pending'>): void {
		this.status[index] = status;
		const { fingerprint, bucket } = this.places[index];
		const state = this.bucketOf(bucket);
		if (status === 'sent') this.store?.later([entry.sent(fingerprint)]);
		else {
			if (status === 'notSent') this.store?.later([entry.notSent(fingerprint)]);
			state.stopped = true;
		}
		this.fold(state, false);
	}

	/**
	 * Folds the bucket's groups that are all sent, in order, into one marker: the group's position,
	 * and the fingerprint through its last delivery, replace its entries. At the run's end
	 * (`closing`), a short last group of two or more is folded too.
	 */
	private fold(state: BucketState, closing: boolean): void {
		const { run } = state;
		const count = run.deliveries.length;
		while (!state.stopped && state.folded * GROUP < count) {
			const from = state.folded * GROUP;
			const to = Math.min(from + GROUP, count);
			const full = to - from === GROUP;
			if (!full && !(closing && to - from >= 2)) return;
			const positions = Array.from({ length: to - from }, (_, offset) => from + offset);
			if (positions.some((position) => this.status[run.deliveries[position]] !== 'sent')) return;
			const group = state.folded;
			this.store?.later([
				entry.group(run.anchor, group),
				entry.marker(run.fingerprints[to - 1]),
				entry.folded(run.anchor),
			]);
			this.store?.remove([
				...(group > 0
					? [entry.group(run.anchor, group - 1), entry.marker(run.fingerprints[from - 1])]
					: []),
				...positions.flatMap((position) => [
					entry.claim(run.fingerprints[position]),
					entry.sent(run.fingerprints[position]),
					...(position > 0 ? [entry.reach(run.anchor, position)] : []),
				]),
			]);
			state.folded++;
		}
	}
}
