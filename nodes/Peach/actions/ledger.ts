import { type IDataObject, type IExecuteFunctions, sleep } from 'n8n-workflow';

import type { EarlierOutcome } from './node.type';

/**
 * The record of what a delivering operation already did, so that n8n's ways of recovering from a
 * failure never make a request Peach accepted again. Only the router uses it. Two records:
 *
 * - **The node's own record** in n8n's node context (`getContext('node')`): the same object for
 *   every Retry On Fail try of a run, saved with a failed execution and handed back by the editor's
 *   Retry. It keeps each delivery's outcome and Peach's answer (its `event_id`).
 * - **n8n's deduplication store** (`checkProcessedAndRecord`, the table Remove Duplicates uses), the
 *   one thing a node can write that survives a killed process: before each delivering request its
 *   claim is recorded, after Peach accepted it a mark that it was sent. The Retry of a crashed
 *   execution finds them: claimed and sent is sent; claimed without the mark was in flight when the
 *   process died (at most one per lane), its outcome unknown. Each call rewrites the node's whole
 *   list, so every write is one of a queue (per node, in this process), carrying all the claims and
 *   marks waiting at that moment.
 *
 * A delivery is the same between tries when it is the same operation, at the same input position (or
 * the same whole-input broadcast), for the same recipient, in the same run of the node (runs are
 * counted per try, so Loop Over Items' runs stay apart) of the same execution (lineageOf).
 */

const RECORD_KEY = 'peachDeliveries';
/** Entries of other executions n8n's store keeps besides this run's (it drops the oldest). */
const STORE_HISTORY = 5000;

interface RecordEntry {
	outcome: 'sent' | 'unknown';
	at: string;
	json?: IDataObject;
	reason?: string;
}

/** The node's record in its context: runs numbered in the order they ran, and their deliveries. */
interface NodeRecord {
	/** Run number (n8n's run index) → the how-manieth run of this try it is. */
	ordinals: Record<string, number>;
	runs: Record<string, Record<string, RecordEntry>>;
}

type DeduplicationStore = Pick<
	IExecuteFunctions['helpers'],
	'checkProcessedAndRecord' | 'removeProcessed'
>;

/** One queue of writes per node and workflow in this process: each store call rewrites their list. */
const writeQueues = new Map<string, Promise<void>>();

async function inQueue<T>(scope: string, write: () => Promise<T>): Promise<T> {
	const before = writeQueues.get(scope) ?? Promise.resolve();
	const run = before.then(write);
	const settled = run.then(
		() => undefined,
		() => undefined,
	);
	writeQueues.set(scope, settled);
	try {
		return await run;
	} finally {
		if (writeQueues.get(scope) === settled) writeQueues.delete(scope);
	}
}

interface PendingClaim {
	key: string;
	resolve: (earlier: 'sent' | 'unknown' | undefined) => void;
	reject: (error: Error) => void;
}

/** n8n's deduplication store, written in batches: claims wait for their write, marks ride along. */
class CrashRecord {
	private claims: PendingClaim[] = [];
	private marks: string[] = [];
	private releases: string[] = [];
	private draining: Promise<void> | undefined;
	private failure: Error | undefined;
	private waking = false;

	constructor(
		private readonly store: DeduplicationStore,
		private readonly scope: string,
		private readonly maxEntries: number,
		/** Whether a claim already there is an earlier try's (a retry), not a coincidence. */
		private readonly consult: boolean,
	) {}

	/** Records the claim before the request; says what an earlier try did when it claimed it already. */
	async claim(key: string): Promise<'sent' | 'unknown' | undefined> {
		return await new Promise((resolve, reject) => {
			this.claims.push({ key, resolve, reject });
			this.drain();
		});
	}

	sent(key: string): void {
		this.marks.push(`s|${key}`);
		this.soon();
	}

	/** The request did not happen: the claim is taken back, so a retry sends it. */
	release(key: string): void {
		this.releases.push(`c|${key}`);
		this.soon();
	}

	/** Writes what is still waiting; rejects when a mark or a release could not be written. */
	async close(): Promise<void> {
		this.drain();
		while (this.draining) await this.draining;
		if (this.failure) throw this.failure;
	}

	/**
	 * Marks and releases wait for the next turn of the event loop: the lane that made them claims its
	 * next delivery first, so one write carries both (one write per request in a lane, not two).
	 */
	private soon(): void {
		if (this.waking) return;
		this.waking = true;
		void sleep(0).then(() => {
			this.waking = false;
			this.drain();
		});
	}

	private drain(): void {
		this.draining ??= (async () => {
			while (this.claims.length || this.marks.length || this.releases.length) {
				const claims = this.claims.splice(0);
				const marks = this.marks.splice(0);
				const releases = this.releases.splice(0);
				try {
					const earlier = await inQueue(
						this.scope,
						async () => await this.write(claims, marks, releases),
					);
					claims.forEach((claim, index) => claim.resolve(earlier[index]));
				} catch (caught) {
					const error = caught instanceof Error ? caught : new Error(String(caught));
					for (const claim of claims) claim.reject(error);
					this.failure = error;
				}
			}
		})().finally(() => {
			this.draining = undefined;
		});
	}

	private async write(
		claims: PendingClaim[],
		marks: string[],
		releases: string[],
	): Promise<Array<'sent' | 'unknown' | undefined>> {
		const options = { mode: 'entries' as const, maxEntries: this.maxEntries };
		const remove = [...releases];
		let claimedBefore = new Set<string>();
		let sentBefore = new Set<string>();
		if (claims.length || marks.length) {
			const claimKeys = claims.map((claim) => `c|${claim.key}`);
			const result = await this.store.checkProcessedAndRecord(
				[...claimKeys, ...marks],
				'node',
				options,
			);
			claimedBefore = new Set(
				this.consult ? result.processed.map(String).filter((key) => key.startsWith('c|')) : [],
			);
			if (claimedBefore.size) {
				// Claimed by an earlier try: its mark says whether Peach accepted it. Asking records the
				// mark where there is none, so those are taken back at once (until then, a crash would
				// show an unknown delivery as sent: it is still never sent again).
				const asked = [...claimedBefore].map((key) => `s|${key.slice(2)}`);
				const answer = await this.store.checkProcessedAndRecord(asked, 'node', options);
				sentBefore = new Set(answer.processed.map(String));
				remove.push(...answer.new.map(String));
			}
		}
		if (remove.length) await this.store.removeProcessed(remove, 'node', { mode: 'entries' });
		return claims.map((claim) => {
			if (!claimedBefore.has(`c|${claim.key}`)) return undefined;
			return sentBefore.has(`s|${claim.key}`) ? 'sent' : 'unknown';
		});
	}
}

/**
 * The execution this try belongs to, the same across n8n's retries of it (see above). n8n 2.x stores
 * the execution context (`establishedAt`, and the `triggerNode` it was started by) with the execution
 * when it creates it, so every retry inherits it, also after a crash. n8n 1.x makes one only when the
 * execution runs (without `triggerNode`): there the execution ID stands for it, which a stalled job run
 * again (1.x's default) keeps.
 */
function lineageOf(context: IExecuteFunctions): string {
	const runtime = context.getExecutionContext?.() as
		| { establishedAt?: unknown; triggerNode?: unknown }
		| undefined;
	if (typeof runtime?.establishedAt === 'number' && runtime.triggerNode !== undefined)
		return `t${runtime.establishedAt}`;
	return `e${context.getExecutionId()}`;
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

function nodeRecordOf(context: IExecuteFunctions): NodeRecord | undefined {
	if (typeof context.getContext !== 'function') return undefined;
	const nodeContext = context.getContext('node');
	const record = nodeContext[RECORD_KEY] as Partial<NodeRecord> | undefined;
	if (record && typeof record.ordinals === 'object' && typeof record.runs === 'object')
		return record as NodeRecord;
	const fresh: NodeRecord = { ordinals: {}, runs: {} };
	nodeContext[RECORD_KEY] = fresh;
	return fresh;
}

function storeOf(context: IExecuteFunctions): DeduplicationStore | undefined {
	const helpers = context.helpers as Partial<DeduplicationStore>;
	if (
		typeof helpers.checkProcessedAndRecord !== 'function' ||
		typeof helpers.removeProcessed !== 'function' ||
		!context.getWorkflow().id
	)
		return undefined;
	return helpers as DeduplicationStore;
}

/** What the router asks of the record for one run of a delivering operation. */
export class DeliveryLedger {
	private readonly entries: Record<string, RecordEntry>;
	private readonly crashRecord: CrashRecord | undefined;
	private readonly storePrefix: string;

	private constructor(
		private readonly operationKey: string,
		private readonly record: NodeRecord | undefined,
		ordinal: number,
		crashRecord: CrashRecord | undefined,
		lineage: string,
	) {
		this.crashRecord = crashRecord;
		this.storePrefix = `${lineage}|${ordinal}`;
		const runs = record?.runs ?? {};
		runs[ordinal] ??= {};
		this.entries = runs[ordinal];
	}

	/** Opens the record for this run of the node, for `deliveries` deliveries of `operationKey`. */
	static open(
		context: IExecuteFunctions,
		operationKey: string,
		deliveries: number,
	): DeliveryLedger {
		const record = nodeRecordOf(context);
		const runIndex = String(runIndexOf(context));
		let ordinal = Object.keys(record?.ordinals ?? {}).length;
		if (record) {
			record.ordinals[runIndex] ??= ordinal;
			ordinal = record.ordinals[runIndex];
		}
		const lineage = lineageOf(context);
		const store = storeOf(context);
		const node = context.getNode();
		const crashRecord = store
			? new CrashRecord(
					store,
					`${context.getWorkflow().id}|${node.id}`,
					deliveries * 2 + STORE_HISTORY,
					// An execution's first run cannot find claims of its own, except when n8n runs a
					// stalled job again as the same execution (n8n 1.x).
					context.getMode() === 'retry' || lineage.startsWith('e'),
				)
			: undefined;
		return new DeliveryLedger(operationKey, record, ordinal, crashRecord, lineage);
	}

	/** Whether a Retry of this execution (or Retry On Fail) can tell what this run sent. */
	get remembers(): boolean {
		return this.record !== undefined;
	}

	/** The delivery's name between tries: operation, position (or its own key) and recipient. */
	identityOf(key: string, recipient: string | undefined): string {
		return JSON.stringify([this.operationKey, key, recipient ?? null]);
	}

	/** What an earlier try of this run did, by the node's own record. */
	earlier(identity: string): EarlierOutcome | undefined {
		const entry = this.entries[identity];
		if (!entry) return undefined;
		return { outcome: entry.outcome, at: entry.at, json: entry.json, reason: entry.reason };
	}

	/**
	 * Right before the delivering request: records the claim where a crash cannot lose it. Answers
	 * what an earlier try did when it had claimed it already (then the request is not made).
	 */
	async claim(identity: string): Promise<EarlierOutcome | undefined> {
		if (!this.crashRecord) return undefined;
		const earlier = await this.crashRecord.claim(this.storeKey(identity));
		if (earlier === undefined) return undefined;
		return {
			outcome: earlier,
			at: null,
			reason:
				earlier === 'unknown'
					? 'The request was under way when the n8n process running this execution stopped (for example a worker that was killed), so whether Peach got it is unknown.'
					: undefined,
		};
	}

	/** Peach accepted it. */
	sent(identity: string, json: IDataObject): void {
		this.entries[identity] = { outcome: 'sent', at: new Date().toISOString(), json: { ...json } };
		this.crashRecord?.sent(this.storeKey(identity));
	}

	/** It may have reached Peach (a server error, a timeout): never made again by a retry. */
	unknown(identity: string, reason: string): void {
		this.entries[identity] = { outcome: 'unknown', at: new Date().toISOString(), reason };
	}

	/** It did not happen (Peach refused it, or it never left): a retry makes it. */
	notSent(identity: string): void {
		delete this.entries[identity];
		this.crashRecord?.release(this.storeKey(identity));
	}

	/** A delivery whose outcome was unknown is made again, as the user asked. */
	forget(identity: string): void {
		delete this.entries[identity];
	}

	/**
	 * After the run: writes what is still waiting for n8n's store. When everything was delivered,
	 * the node's record of this run is dropped (the outputs hold it), so a saved execution stays small.
	 */
	async close(everythingDelivered: boolean): Promise<void> {
		if (everythingDelivered)
			for (const identity of Object.keys(this.entries)) delete this.entries[identity];
		await this.crashRecord?.close();
	}

	private storeKey(identity: string): string {
		return `${this.storePrefix}|${identity}`;
	}
}
