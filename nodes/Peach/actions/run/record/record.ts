import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { EarlierOutcome } from '../../node.type';
import { type BucketRun, entry, GROUP, placeRun, RunningSum, runSums, tokenOf } from './chain';
import { keepUntilSaved, lookAtDueSoon } from './lifetime';
import { isRetry, lineageOf, nodeContextOf, runIndexOf, savedExecutionsOf, storeOf } from './n8n';
import { type EarlierResult, rebuildBucket } from './rebuild';
import { batched, factEntries, RecordStore } from './store';
import { type PeachShows, Witness, type Witnessed } from './witness';

/**
 * The delivery record: what a delivering operation already did, so that none of n8n's ways of
 * recovering from a failure makes a request Peach accepted again. Only the delivering runner uses it.
 * What it relies on from n8n is in n8n.ts; what a delivery is, and its entries, in chain.ts.
 *
 * - **The node context** (n8n keeps it between Retry On Fail tries and hands the saved copy back to
 *   the editor's Retry) holds each delivery's outcome and Peach's answer.
 * - **n8n's deduplication store** (the one thing a node writes that survives a killed process) holds a
 *   claim before each delivering request and its outcome after, folded as it goes, and a run that sent
 *   everything as one entry; a Retry reads it back (rebuild.ts). lifetime.ts decides when it goes.
 * - **Peach** is the witness: in every retry, before anything is sent again, what Peach lists as
 *   queued since the execution began is read (witness.ts), and a delivery Peach shows is never sent.
 */

const RECORD_KEY = 'peachDeliveries';
/** Peach's clock and n8n's may differ: Peach is asked from this long before the execution began. */
const CLOCK_MARGIN_MS = 60_000;
/** Where n8n does not say when an execution began (n8n 1.x): Peach's own default window. */
const WITHOUT_START_MS = 24 * 3600_000;
/** A run that sent everything is matched with one gained delivery up to this size. */
const GAINED_SEARCH_LIMIT = 5000;
/** Peach's list is read again for a later run of the same retry once it is this old. */
const WITNESS_FRESH_MS = 30_000;

interface RecordEntry {
	outcome: 'sent' | 'unknown';
	at: string;
	json?: IDataObject;
	reason?: string;
	/** The contact and template Peach lists it by (a retry whose item changed finds it so). */
	witnessed?: Witnessed;
}

/** The record in the node context. */
interface NodeRecord {
	/** Run number (n8n's run index) → the how-manieth run of the node in this execution it is. */
	ordinals: Record<string, number>;
	/** Per run: each delivery's outcome, by its identity. */
	runs: Record<string, Record<string, RecordEntry>>;
	/** Per run: how many tries opened it (Retry On Fail). */
	tries: Record<string, number>;
	/** When the node first ran in this execution (Peach is asked for what it queued since). */
	startedAt: number;
}

/** The record in the node context (a new one where there is none: `fresh`). */
function nodeRecordIn(
	nodeContext: IDataObject | undefined,
): { record: NodeRecord; fresh: boolean } | undefined {
	if (!nodeContext) return undefined;
	const record = nodeContext[RECORD_KEY] as Partial<NodeRecord> | undefined;
	if (
		record &&
		typeof record.ordinals === 'object' &&
		typeof record.runs === 'object' &&
		typeof record.tries === 'object' &&
		typeof record.startedAt === 'number'
	)
		return { record: record as NodeRecord, fresh: false };
	const fresh: NodeRecord = { ordinals: {}, runs: {}, tries: {}, startedAt: Date.now() };
	nodeContext[RECORD_KEY] = fresh;
	return { record: fresh, fresh: true };
}

/** Peach's list, read once for the runs of one retry, and the messages its deliveries took. */
interface WitnessOfExecution {
	readAt: number;
	witness: Promise<Witness>;
	taken: Set<string>;
}
const witnesses = new WeakMap<object, WitnessOfExecution>();

/** A delivery to record: its lane (recipient or own key), what it sends, and how Peach lists it. */
export interface PlannedDelivery {
	lane: string;
	content: unknown;
	/** The user's Delivery Key: names the delivery instead of its content. */
	deliveryKey?: string;
	/** The contact and template Peach's list of template messages would show it by. */
	witnessed?: Witnessed;
}

type Status = 'pending' | 'sent' | 'notSent' | 'unknown';

/** What the store says a crashed try did with a delivery; `absent`: nothing was read. */
type FromStore = EarlierResult | 'notReached' | 'absent';

/** One bucket's part of this run in the store: how far it is folded. */
interface BucketState {
	run: BucketRun;
	folded: number;
	/** The folded deliveries' tokens, summed (the folded set). */
	sum: RunningSum;
	/** Whether a folded group held a refused or unknown delivery. */
	exceptions: boolean;
}

const CRASH_REASON =
	'The request was under way when the n8n process running this execution stopped (for example a worker that was killed), so whether Peach got it is unknown.';
const RECORD_SAYS_SENT_NOTE =
	"n8n's record of the execution says it was sent, but Peach does not list it: check the contact's conversation in Peach.";
const CANNOT_TELL_REASON =
	"n8n's record of this execution cannot say whether it was sent (rows changed since, or the record was cut), and Peach's list of template messages does not name contacts and templates, so it cannot tell either.";
const AMBIGUOUS = (listed: number, deliveries: number) =>
	`Peach lists ${listed} message${listed === 1 ? '' : 's'} of this template to this contact since the execution began for ${deliveries} such deliveries here, and n8n's record cannot say which of them were sent.`;
const PEACH_UNREADABLE = (message: string) =>
	`Peach's list of template messages could not be read (${message}), so it was not asked.`;

export class DeliveryRecord {
	private readonly status: Status[];
	private readonly earlierOf: Array<EarlierOutcome | undefined>;
	private readonly buckets = new Map<number, BucketState>();
	/** Entries of a crashed try this Retry found: they belong to that execution's record. */
	readonly found = new Set<string>();
	/** Whether this Retry found a record of a crashed try (then it stays for later Retries). */
	private crashed = false;

	private constructor(
		private readonly context: IExecuteFunctions,
		private readonly lineage: string,
		private readonly ordinal: number,
		private readonly runIndex: number,
		private readonly identities: string[],
		private readonly tokens: string[],
		private readonly places: ReturnType<typeof placeRun>['places'],
		buckets: Map<number, BucketRun>,
		private readonly entries: Record<string, RecordEntry> | undefined,
		private readonly store: RecordStore | undefined,
		private readonly witnessed: Array<Witnessed | undefined>,
	) {
		this.status = identities.map(() => 'pending');
		this.earlierOf = identities.map((identity) => {
			const earlier = entries?.[identity];
			return earlier
				? { outcome: earlier.outcome, at: earlier.at, json: earlier.json, reason: earlier.reason }
				: undefined;
		});
		for (const [bucket, run] of buckets)
			this.buckets.set(bucket, { run, folded: 0, sum: new RunningSum(), exceptions: false });
	}

	/**
	 * Opens the record for this run of the node (`operationKey`: the resource and operation) and, in a
	 * retry, reads what earlier tries did: the node context, n8n's store, then Peach.
	 */
	static async open(
		context: IExecuteFunctions,
		operationKey: string,
		planned: PlannedDelivery[],
	): Promise<DeliveryRecord> {
		lookAtDueSoon();
		const nodeContext = nodeContextOf(context);
		const held = nodeRecordIn(nodeContext);
		const record = held?.record;
		const runIndex = runIndexOf(context);
		let ordinal = 0;
		let earlierTry = false;
		if (record) {
			record.ordinals[runIndex] ??= Object.keys(record.ordinals).length;
			ordinal = record.ordinals[runIndex];
			earlierTry = (record.tries[ordinal] ?? 0) > 0;
			record.tries[ordinal] = (record.tries[ordinal] ?? 0) + 1;
			record.runs[ordinal] ??= {};
		}
		const tokens = planned.map((delivery) =>
			tokenOf(operationKey, delivery.lane, delivery.content, delivery.deliveryKey),
		);
		const seen = new Map<string, number>();
		const identities = tokens.map((token) => {
			const occurrence = seen.get(token) ?? 0;
			seen.set(token, occurrence + 1);
			return JSON.stringify([token, occurrence]);
		});
		const lineage = lineageOf(context);
		const helpers = storeOf(context);
		const store =
			helpers && record
				? new RecordStore(helpers, `${context.getWorkflow().id}|${context.getNode().id}`)
				: undefined;
		const placed = placeRun(
			lineage.name,
			ordinal,
			tokens,
			planned.map((delivery) => delivery.lane),
		);
		const opened = new DeliveryRecord(
			context,
			lineage.name,
			ordinal,
			runIndex,
			identities,
			tokens,
			placed.places,
			placed.buckets,
			record?.runs[ordinal],
			store,
			planned.map((delivery) => delivery.witnessed),
		);
		// A Retry reads n8n's store (a crashed try's record is there); so does every run on n8n 1.x,
		// whose stalled queue jobs run again as the same execution without saying so.
		opened.pairChangedItems();
		const retry = isRetry(context);
		const fromStore =
			store && (retry || lineage.establishedAt === undefined)
				? await opened.readStore(store)
				: planned.map((): FromStore => 'absent');
		if (retry || earlierTry || opened.found.size > 0) {
			// Peach is asked what it queued since the execution began: n8n 2.x says when; n8n 1.x only
			// through the node's own record (not after a crash: then Peach's own default window).
			const since =
				lineage.establishedAt ??
				(held && !held.fresh ? held.record.startedAt : Date.now() - WITHOUT_START_MS);
			await opened.resolve(planned, fromStore, retry, nodeContext ?? {}, since - CLOCK_MARGIN_MS);
		}
		opened.recordEarlier();
		return opened;
	}

	/**
	 * An item that changed since an earlier try (the editor's Retry with the currently saved workflow):
	 * this run names it differently, but the node context knows what that try did for the same contact
	 * and template, one delivery for one: sent (with Peach's answer then) or unknown. It is not made
	 * again.
	 */
	private pairChangedItems(): void {
		if (!this.entries) return;
		const own = new Set(this.identities);
		const others = Object.entries(this.entries)
			.filter(([identity, earlier]) => !own.has(identity) && earlier.witnessed)
			.map(([, earlier]) => earlier);
		const same = (a: Witnessed, b: Witnessed) =>
			a.templateId === b.templateId &&
			a.recipient.replace(/\D/g, '') === b.recipient.replace(/\D/g, '');
		this.earlierOf.forEach((earlier, index) => {
			const witnessed = this.witnessed[index];
			if (earlier || !witnessed) return;
			const at = others.findIndex((other) => same(other.witnessed as Witnessed, witnessed));
			if (at === -1) return;
			const [other] = others.splice(at, 1);
			this.earlierOf[index] = {
				outcome: other.outcome,
				at: other.at,
				json: other.json,
				reason: other.reason,
				changed: true,
			};
		});
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
		this.status[index] = 'pending';
		if (this.entries) delete this.entries[this.identities[index]];
	}

	/** Right before the delivering request: records the claim where a crash cannot lose it. */
	async claim(index: number): Promise<void> {
		const { name, bucket } = this.places[index];
		await this.store?.write([entry.claim(name), entry.reached(this.anchorOf(bucket))]);
	}

	/** Peach accepted it. */
	sent(index: number, json: IDataObject): void {
		if (this.entries)
			this.entries[this.identities[index]] = {
				outcome: 'sent',
				at: new Date().toISOString(),
				json: { ...json },
				...(this.witnessed[index] ? { witnessed: this.witnessed[index] } : {}),
			};
		this.store?.later(factEntries(entry.sent(this.places[index].name)));
		this.settle(index, 'sent');
	}

	/** It may have reached Peach (a server error, a timeout): never made again by a retry by itself. */
	unknown(index: number, reason: string): void {
		if (this.entries)
			this.entries[this.identities[index]] = {
				outcome: 'unknown',
				at: new Date().toISOString(),
				reason,
				...(this.witnessed[index] ? { witnessed: this.witnessed[index] } : {}),
			};
		this.settle(index, 'unknown');
	}

	/** It did not happen (Peach refused it, or it never left): a retry makes it. */
	notSent(index: number): void {
		if (this.entries) delete this.entries[this.identities[index]];
		this.store?.later(factEntries(entry.notSent(this.places[index].name)));
		this.settle(index, 'notSent');
	}

	/**
	 * After the run: a run that sent everything is summed up in one entry (its bucket entries go) and
	 * the node context lets go of it (the outputs hold it); otherwise what can be folded is. What the
	 * execution's record holds then waits in lifetime.ts until n8n no longer needs it.
	 */
	async close(): Promise<void> {
		const allSent = this.status.length > 0 && this.status.every((status) => status === 'sent');
		if (allSent && this.entries)
			for (const identity of Object.keys(this.entries)) delete this.entries[identity];
		for (const state of this.buckets.values()) this.fold(state, true);
		const store = this.store;
		if (!store) return;
		let removed: string[] = [];
		if (allSent) {
			const summary = [
				...factEntries(entry.ended(this.lineage, this.ordinal)),
				...factEntries(entry.allSent(this.lineage, this.ordinal, runSums(this.tokens).all)),
			];
			// The summary first: what it replaces goes only once it is written.
			await store.write(summary);
			removed = [...store.kept, ...this.found].filter((item) => !summary.includes(item));
			store.remove(removed);
			for (const item of removed) this.found.delete(item);
		}
		await store.close();
		keepUntilSaved({
			store: this.storeFunctions(),
			scope: store.scope,
			executionId: this.context.getExecutionId(),
			nodeName: this.context.getNode().name,
			runIndex: this.runIndex,
			read: savedExecutionsOf(this.context),
			entries: [...store.kept, ...this.found],
			removed,
			retiredBy: this.crashed ? entry.retired(this.lineage) : undefined,
		});
	}

	private storeFunctions() {
		return storeOf(this.context) as NonNullable<ReturnType<typeof storeOf>>;
	}

	private anchorOf(bucket: number): string {
		return (this.buckets.get(bucket) as BucketState).run.anchor;
	}

	/**
	 * In a Retry: what n8n's store says earlier tries of this run did (a crashed one's entries stay
	 * there), per delivery.
	 */
	private async readStore(store: RecordStore): Promise<FromStore[]> {
		const count = this.tokens.length;
		const sums = runSums(this.tokens);
		const facts = batched(async (names) => await store.probeFacts(names));
		const summary = [
			entry.retired(this.lineage),
			entry.ended(this.lineage, this.ordinal),
			entry.allSent(this.lineage, this.ordinal, sums.all),
		];
		const first = await facts(summary);
		const keep = (names: string[]) => {
			for (const name of names) for (const item of factEntries(name)) this.found.add(item);
		};
		keep(summary.filter((name) => first.has(name)));
		if (first.size) this.crashed = true;
		if (first.has(entry.allSent(this.lineage, this.ordinal, sums.all)))
			return this.tokens.map(() => 'sent');
		if (first.has(entry.ended(this.lineage, this.ordinal))) {
			// The run ended having sent everything, with other deliveries: one this input gained?
			if (count > 1 && count <= GAINED_SEARCH_LIMIT) {
				const candidates = this.tokens.map((_, index) =>
					entry.allSent(this.lineage, this.ordinal, sums.without(index)),
				);
				const hits = await facts(candidates);
				const gained = candidates.findIndex((name) => hits.has(name));
				if (gained !== -1) {
					keep([candidates[gained]]);
					return this.tokens.map((_, index) => (index === gained ? 'notReached' : 'sent'));
				}
			}
			return this.tokens.map(() => 'unverifiable');
		}
		if (first.has(entry.retired(this.lineage))) return this.tokens.map(() => 'unverifiable');
		const looks = {
			probe: batched(async (items) => await store.probe(items)),
			facts,
		};
		const outcomes: FromStore[] = this.tokens.map(() => 'notReached');
		await Promise.all(
			[...this.buckets.values()].map(async ({ run }) => {
				const rebuilt = await rebuildBucket(
					looks,
					run.anchor,
					run.deliveries.map((index) => this.tokens[index]),
					run.deliveries.map((index) => this.places[index].name),
				);
				for (const item of rebuilt.found) this.found.add(item);
				rebuilt.outcomes.forEach((outcome, position) => {
					outcomes[run.deliveries[position]] = outcome ?? 'notReached';
				});
			}),
		);
		if (this.found.size) this.crashed = true;
		return outcomes;
	}

	/**
	 * In a retry: each delivery's earlier outcome from what the node context knows, what the store
	 * says, and what Peach lists (read once per retry where a delivery depends on it). Peach's
	 * messages go first to what is known sent, then to unknown outcomes, then to what the record
	 * cannot tell, then to what it never reached (a record that shows nothing of this run).
	 */
	private async resolve(
		planned: PlannedDelivery[],
		fromStore: FromStore[],
		retry: boolean,
		nodeContext: object,
		since: number,
	): Promise<void> {
		// Whether the store shows anything of this run: where it does, what it never reached is known
		// as not sent; where it shows nothing in a Retry, the record may be missing, and Peach is asked.
		const evidence = fromStore.some((from) => from !== 'notReached' && from !== 'absent');
		const rankOf = (index: number): number | undefined => {
			const from = fromStore[index];
			const earlier = this.earlierOf[index];
			if (planned[index].witnessed === undefined || from === 'notSent') return undefined;
			if (earlier) return earlier.outcome === 'sent' ? 0 : 1;
			if (from === 'sent') return 0;
			if (from === 'unknown') return 1;
			if (from === 'unverifiable') return 2;
			if (from === 'notReached' && retry && !evidence) return 3;
			return undefined;
		};
		const ranked = planned
			.map((_, index) => ({ index, rank: rankOf(index) }))
			.filter((item): item is { index: number; rank: number } => item.rank !== undefined)
			.sort((a, b) => a.rank - b.rank || a.index - b.index);
		// Peach is read only where it decides something; what is known sent then takes its own
		// messages first.
		let witness: Witness | undefined;
		let unreadable: string | undefined;
		if (ranked.some(({ index, rank }) => rank > 0 || this.earlierOf[index] === undefined)) {
			try {
				witness = await this.witnessOf(nodeContext, since);
			} catch (error) {
				unreadable = PEACH_UNREADABLE((error as Error).message);
			}
		}
		// Per contact and template: what is known sent takes its own messages first; the others take
		// the rest only where Peach lists one for each of them (else it cannot say which were sent).
		const shown = new Map<number, PeachShows>();
		const ambiguous = new Map<number, string>();
		const byContactAndTemplate = new Map<string, Array<{ index: number; rank: number }>>();
		for (const item of ranked) {
			const { recipient, templateId } = planned[item.index].witnessed as Witnessed;
			const key = JSON.stringify([recipient.replace(/\D/g, ''), templateId]);
			byContactAndTemplate.set(key, [...(byContactAndTemplate.get(key) ?? []), item]);
		}
		for (const members of witness ? byContactAndTemplate.values() : []) {
			const take = async (index: number) => {
				const shows = await witness?.take(planned[index].witnessed as Witnessed);
				if (shows) shown.set(index, shows);
			};
			for (const { index } of members.filter(({ rank }) => rank === 0)) await take(index);
			const rest = members.filter(({ rank }) => rank > 0);
			if (!rest.length) continue;
			const left = (await witness?.untaken(planned[rest[0].index].witnessed as Witnessed)) ?? [];
			if (left.length >= rest.length) for (const { index } of rest) await take(index);
			else if (left.length > 0)
				for (const { index } of rest) ambiguous.set(index, AMBIGUOUS(left.length, rest.length));
		}
		const canTell = witness?.canTell === true;
		fromStore.forEach((from, index) => {
			const known = this.earlierOf[index];
			const peach = shown.get(index);
			if (known?.outcome === 'sent') {
				if (peach) known.peach = peach;
				return;
			}
			if (peach) {
				this.earlierOf[index] = {
					outcome: 'sent',
					at: known?.at ?? null,
					peach,
					...(from === 'sent' || known ? {} : { byPeachOnly: true }),
				};
				return;
			}
			const unknown = (reason: string) => {
				this.earlierOf[index] = {
					outcome: 'unknown',
					at: known?.at ?? null,
					reason: unreadable ? `${reason} ${unreadable}` : reason,
				};
			};
			const cannotSay = ambiguous.get(index);
			if (cannotSay) unknown(cannotSay);
			else if (known) unknown(known.reason ?? CRASH_REASON);
			else if (from === 'sent') {
				if (canTell) unknown(RECORD_SAYS_SENT_NOTE);
				else this.earlierOf[index] = { outcome: 'sent', at: null };
			} else if (from === 'unknown') unknown(CRASH_REASON);
			else if (from === 'unverifiable' && !canTell) unknown(CANNOT_TELL_REASON);
		});
	}

	private async witnessOf(nodeContext: object, since: number): Promise<Witness> {
		let held = witnesses.get(nodeContext);
		if (!held || Date.now() - held.readAt > WITNESS_FRESH_MS) {
			const taken = held?.taken ?? new Set<string>();
			held = { readAt: Date.now(), witness: Witness.read(this.context, since, taken), taken };
			witnesses.set(nodeContext, held);
			// A failed read is not kept: the next run asks again.
			held.witness.catch(() => witnesses.delete(nodeContext));
		}
		return await held.witness;
	}

	/**
	 * What an earlier try did, as this run's outcome, also written to the store (a crash of this try
	 * must not lose it).
	 */
	private recordEarlier(): void {
		this.earlierOf.forEach((earlier, index) => {
			if (!earlier) return;
			const { name, bucket } = this.places[index];
			this.store?.later([
				entry.claim(name),
				entry.reached(this.anchorOf(bucket)),
				...(earlier.outcome === 'sent' ? factEntries(entry.sent(name)) : []),
			]);
			this.status[index] = earlier.outcome;
		});
		for (const state of this.buckets.values()) this.fold(state, false);
	}

	private settle(index: number, status: Exclude<Status, 'pending'>): void {
		this.status[index] = status;
		this.fold(this.buckets.get(this.places[index].bucket) as BucketState, false);
	}

	/**
	 * Folds the bucket's groups that are settled, in order, into one marker: the group's position and
	 * the fingerprint through its last delivery replace its entries; a refused or unknown delivery in
	 * it is noted by its position. At the run's end (`closing`), a short last group of two or more is
	 * folded too.
	 */
	private fold(state: BucketState, closing: boolean): void {
		const { run } = state;
		const count = run.deliveries.length;
		while (state.folded * GROUP < count) {
			const from = state.folded * GROUP;
			const to = Math.min(from + GROUP, count);
			if (to - from < GROUP && !(closing && to - from >= 2)) return;
			const positions = Array.from({ length: to - from }, (_, offset) => from + offset);
			const statuses = positions.map((position) => this.status[run.deliveries[position]]);
			if (statuses.includes('pending')) return;
			const nameAt = (position: number) => this.places[run.deliveries[position]].name;
			const exceptions = positions.flatMap((position, offset) =>
				statuses[offset] === 'notSent'
					? factEntries(entry.refusedAt(nameAt(position)))
					: statuses[offset] === 'unknown'
						? [entry.unknownAt(nameAt(position))]
						: [],
			);
			if (exceptions.length && !state.exceptions) {
				state.exceptions = true;
				exceptions.push(entry.exceptions(run.anchor));
			}
			const before = state.sum.count
				? entry.foldedSet(run.anchor, state.sum.count, state.sum.text)
				: undefined;
			for (const position of positions) state.sum.add(run.tokens[position]);
			const group = state.folded;
			this.store?.later([
				entry.group(run.anchor, group),
				...factEntries(entry.marker(run.fingerprints[to - 1])),
				...factEntries(entry.foldedSet(run.anchor, state.sum.count, state.sum.text)),
				entry.folded(run.anchor),
				...exceptions,
			]);
			this.store?.remove([
				...(group > 0
					? [
							entry.group(run.anchor, group - 1),
							...factEntries(entry.marker(run.fingerprints[from - 1])),
						]
					: []),
				...(before ? factEntries(before) : []),
				...positions.flatMap((position, offset) => {
					const name = nameAt(position);
					const outcome =
						statuses[offset] === 'sent'
							? factEntries(entry.sent(name))
							: statuses[offset] === 'notSent'
								? factEntries(entry.notSent(name))
								: [];
					return [entry.claim(name), ...outcome];
				}),
			]);
			state.folded++;
		}
	}
}
