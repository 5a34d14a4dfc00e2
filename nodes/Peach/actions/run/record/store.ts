import { sleep } from 'n8n-workflow';

import type { DeduplicationStore } from './n8n';
import { Prover } from './proof';
import {
	checkAndRecord,
	factEntries,
	inTurn,
	lookFor,
	recordAndRead,
	removeInCalls,
} from './storeCalls';

/**
 * n8n's deduplication store as the delivery record writes it (n8n.ts, fact 1): one list per node,
 * read and written back whole by every call, with no lock. So:
 *
 * - calls for one node take turns in this process, each carrying everything waiting at that moment;
 * - every call asks n8n to keep at most STORE_CAP entries (it drops the oldest): the list stays
 *   bounded whatever happened before (records no process removed: one that stopped, a crash with no
 *   Retry); the record's own entries are far fewer, and it removes them itself (lifetime.ts);
 * - another process may read the list before one of these calls and write it back after, dropping
 *   what the call added: a claim, and whatever replaces entries, is proven (proof.ts) before the
 *   request it guards is made or before what it replaces is removed; each call adds the previous
 *   call's other entries again;
 * - two processes' first calls for a node may both find no list and insert one: the second insert
 *   is refused, writing nothing, and its call is made again;
 * - what a folded group or a run's summary replaces is removed once the replacement is proven;
 * - checking is recording (n8n answers which items it had by adding the others): a look removes what
 *   it added in the same turn, and a *fact* is two entries believed only together, so that a look's
 *   entry that another process's older copy put back never reads as a fact.
 *
 * The calls themselves, and the constants they keep to, are in storeCalls.ts.
 */

interface Waiting {
	items: string[];
	resolve: (written: Written) => void;
	reject: (error: Error) => void;
}

/** What a call wrote: which of the items n8n already held, and when its write completed. */
interface Written {
	held: Set<string>;
	writtenAt: number;
}

/** One run's writes to the store of its node. */
export class RecordStore {
	private adds = new Set<string>();
	private waiting: Waiting[] = [];
	private removals = new Set<string>();
	/**
	 * What the last call added: added again with the next, in case another process dropped it (not
	 * what is proven: the proof writes it again itself).
	 */
	private lastAdded: string[] = [];
	/** Entries proven, or being proven (proof.ts). */
	private readonly proving = new Set<string>();
	private readonly prover: Prover;
	/** Replacements whose proof or removal is under way. */
	private readonly replacing = new Set<Promise<void>>();
	private draining: Promise<void> | undefined;
	private failure: Error | undefined;
	private waking = false;
	/** Every entry this run added and did not remove: its part of the record, for lifetime.ts. */
	readonly kept = new Set<string>();

	constructor(
		private readonly store: DeduplicationStore,
		readonly scope: string,
	) {
		const read = recordAndRead(store, scope);
		// What the run removed meanwhile is not written again: a proven replacement covers it.
		this.prover = new Prover(
			async (items) => await read(items.filter((item) => this.kept.has(item))),
		);
	}

	/**
	 * Adds entries and waits until n8n has written them and `proven` of them are proven (a delivering
	 * request follows); answers those of them n8n already held. Claims made at the same time share
	 * the call, and the proof's wait and read.
	 */
	async claim(items: string[], proven: string[]): Promise<Set<string>> {
		for (const item of proven) this.proving.add(item);
		const { held, writtenAt } = await this.write(items, true);
		await this.prover.prove(proven, writtenAt);
		return held;
	}

	/**
	 * Adds `adds` with the next call, and removes `removals` once `adds` are proven: what replaces
	 * entries (a folded group, a run's summary) never leaves them unproven. When the proof fails, what
	 * it replaces stays (it only makes a Retry more careful).
	 */
	replace(adds: string[], removals: string[]): void {
		if (!adds.length) {
			this.remove(removals);
			return;
		}
		for (const item of adds) this.proving.add(item);
		const done = this.write(adds, false)
			.then(async ({ writtenAt }) => await this.prover.prove(adds, writtenAt))
			.then(
				() => this.remove(removals),
				() => undefined,
			);
		this.replacing.add(done);
		void done.finally(() => this.replacing.delete(done));
	}

	/** Once every replacement under way is proven and its removal written (or given up). */
	async settled(): Promise<void> {
		while (this.replacing.size) await Promise.all([...this.replacing]);
		await this.close().catch(() => undefined);
	}

	private async write(items: string[], now: boolean): Promise<Written> {
		return await new Promise<Written>((resolve, reject) => {
			this.queueAdds(items);
			this.waiting.push({ items, resolve, reject });
			if (now) this.drain();
			else this.soon();
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

	/** Removes entries once everything added before them is written (in the same call). */
	remove(items: string[]): void {
		for (const item of items) {
			this.removals.add(item);
			this.adds.delete(item);
			this.kept.delete(item);
		}
		this.soon();
	}

	/** Which of `items` the store holds (lookFor). */
	async probe(items: string[]): Promise<Set<string>> {
		return await lookFor(this.store, this.scope, items);
	}

	/**
	 * Which of the facts `names` the store holds: the first entries are looked for, and the second
	 * only of those found, so no look ever adds both of a fact; a first entry without its second is
	 * no fact (it is removed).
	 */
	async probeFacts(names: string[]): Promise<Set<string>> {
		if (!names.length) return new Set();
		const firsts = await this.probe(names.map((name) => factEntries(name)[0]));
		const candidates = names.filter((name) => firsts.has(factEntries(name)[0]));
		const seconds = await this.probe(candidates.map((name) => factEntries(name)[1]));
		const facts = new Set(candidates.filter((name) => seconds.has(factEntries(name)[1])));
		const lone = candidates.filter((name) => !facts.has(name)).map((name) => factEntries(name)[0]);
		if (lone.length) await inTurn(this.scope, async () => await removeInCalls(this.store, lone));
		return facts;
	}

	/** Writes what is waiting; rejects when something could not be written. */
	async close(): Promise<void> {
		this.drain();
		while (this.draining) await this.draining;
		if (this.failure) throw this.failure;
	}

	private queueAdds(items: string[]): void {
		for (const item of items) {
			this.adds.add(item);
			this.kept.add(item);
			this.removals.delete(item);
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

	private drain(): void {
		this.draining ??= (async () => {
			while (this.adds.size || this.removals.size) {
				const adds = [...this.adds];
				const waiting = this.waiting.splice(0);
				this.adds.clear();
				const removals = [...this.removals];
				this.removals.clear();
				try {
					let held = new Set<string>();
					let writtenAt = Date.now();
					await inTurn(this.scope, async () => {
						if (adds.length) {
							const again = this.lastAdded.filter(
								(item) => this.kept.has(item) && !this.proving.has(item),
							);
							const result = await checkAndRecord(this.store, [...adds, ...again]);
							writtenAt = Date.now();
							held = new Set(result.processed.map(String));
							this.lastAdded = adds;
						}
						if (removals.length) await removeInCalls(this.store, removals);
					});
					for (const waiter of waiting)
						waiter.resolve({
							held: new Set(waiter.items.filter((item) => held.has(item))),
							writtenAt,
						});
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
