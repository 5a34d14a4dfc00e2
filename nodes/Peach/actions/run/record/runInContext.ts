import type { EarlierOutcome } from '../../operation/node.type';
import type { RecordEntry } from './nodeRecord';
import { pairChangedItems } from './resolve';
import type { RunOf } from './thisRun';
import { groupOf, identitiesByGroup, type Witnessed } from './witness';

/**
 * This run's part of the record in the node context (nodeRecord.ts, opened by `openRun`): each
 * delivery's outcome with Peach's answer, by its identity, and per contact and template every
 * identity the run plans for them. Where a node has no context (`entries` undefined), nothing is
 * kept: a Retry cannot tell what this run sent.
 */
export class RunInContext {
	/** The contacts and templates whose planned identities this run wrote to the node context. */
	private readonly plannedKept = new Set<string>();
	/** This run's identities per contact and template (made once, when first needed). */
	private groups: Map<string, string[]> | undefined;

	constructor(
		private readonly run: RunOf,
		readonly entries: Record<string, RecordEntry> | undefined,
		private readonly planned: Record<string, string[]>,
	) {}

	/** What an earlier try did with each delivery, as the node context knows it. */
	earlierOf(): Array<EarlierOutcome | undefined> {
		return this.run.identities.map((identity) => {
			const earlier = this.entries?.[identity];
			return earlier
				? { outcome: earlier.outcome, at: earlier.at, json: earlier.json, reason: earlier.reason }
				: undefined;
		});
	}

	/**
	 * What an earlier try did with an item changed since (pairChangedItems, resolve.ts), filled in
	 * `earlierOf`; returns the contacts and templates of what it sent whose row is gone.
	 */
	pairChanged(earlierOf: Array<EarlierOutcome | undefined>): Witnessed[] {
		const { run } = this;
		return this.entries
			? pairChangedItems(this.entries, this.planned, run.identities, run.witnessed, earlierOf)
			: [];
	}

	/**
	 * A delivery's outcome in the node context, with the contact and template (for a changed item) and
	 * every identity this run plans for them (an item a later try finds among them did not change).
	 */
	keep(index: number, outcome: RecordEntry): void {
		if (!this.entries) return;
		const { identities, witnessed } = this.run;
		const delivery = witnessed[index];
		this.entries[identities[index]] = { ...outcome, ...(delivery ? { witnessed: delivery } : {}) };
		if (!delivery) return;
		const group = groupOf(delivery);
		if (this.plannedKept.has(group)) return;
		this.plannedKept.add(group);
		this.groups ??= identitiesByGroup(identities, witnessed);
		this.planned[group] = [
			...new Set([...(this.planned[group] ?? []), ...(this.groups.get(group) ?? [])]),
		];
	}

	/** A delivery's outcome goes from the node context. */
	forget(index: number): void {
		if (this.entries) delete this.entries[this.run.identities[index]];
	}

	/** A run that sent everything: the node context lets go of it (the outputs hold it). */
	letGo(): void {
		if (!this.entries) return;
		for (const identity of Object.keys(this.entries)) delete this.entries[identity];
		for (const group of Object.keys(this.planned)) delete this.planned[group];
	}
}
