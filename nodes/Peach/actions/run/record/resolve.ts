import type { IExecuteFunctions } from 'n8n-workflow';

import type { EarlierOutcome } from '../../operation/node.type';
import type { RecordEntry } from './nodeRecord';
import type { FromStore } from './readBack';
import { type PeachSays, reasonOf, RETRY_DECIDES, recordSays as says } from './retryTable';
import { groupOf, type PeachShows, Witness, type Witnessed } from './witness';

/**
 * In a later try (Retry On Fail or a Retry), each delivery's earlier outcome: what the node context
 * knows, what n8n's store says (readBack.ts), and what Peach lists (witness.ts, read once per
 * execution where a delivery depends on it), decided by one table, RETRY_DECIDES.
 */

/** Peach's list is read again for a later run of the same execution once it is this old. */
const WITNESS_FRESH_MS = 30_000;

const AMBIGUOUS = (listed: number, deliveries: number) =>
	`Peach lists ${listed} message${listed === 1 ? '' : 's'} of this template to this contact since the execution began for ${deliveries} such deliveries here, and n8n's record cannot say which of them were sent.`;
const PEACH_UNREADABLE = (message: string) =>
	`Peach's list of template messages could not be read (${message}), so it was not asked.`;

/**
 * An item that changed since an earlier try (the editor's Retry with the currently saved workflow):
 * this run names it differently, but the node context knows what that try did for the same contact
 * and template, one delivery for one: sent (with Peach's answer then) or unknown. It is not made again.
 * An item an earlier try planned too (`planned`) did not change: it is not paired. Returns the
 * contacts and templates of what an earlier try sent that no item of this run is (its row is gone):
 * their messages in Peach's list are theirs, not another item's.
 */
export function pairChangedItems(
	entries: Record<string, RecordEntry>,
	planned: Record<string, string[]>,
	identities: string[],
	witnessed: Array<Witnessed | undefined>,
	earlierOf: Array<EarlierOutcome | undefined>,
): Witnessed[] {
	const own = new Set(identities);
	const others = Object.entries(entries)
		.filter(([identity, earlier]) => !own.has(identity) && earlier.witnessed)
		.map(([, earlier]) => earlier);
	const plannedSets = new Map<string, Set<string>>();
	const wasPlanned = (group: string, identity: string): boolean => {
		let set = plannedSets.get(group);
		if (!set) plannedSets.set(group, (set = new Set(planned[group])));
		return set.has(identity);
	};
	earlierOf.forEach((earlier, index) => {
		const delivery = witnessed[index];
		if (earlier || !delivery) return;
		if (wasPlanned(groupOf(delivery), identities[index])) return;
		const at = others.findIndex(
			(other) => groupOf(other.witnessed as Witnessed) === groupOf(delivery),
		);
		if (at === -1) return;
		const [other] = others.splice(at, 1);
		earlierOf[index] = {
			outcome: other.outcome,
			at: other.at,
			json: other.json,
			reason: other.reason,
			changed: true,
		};
	});
	return others
		.filter((other) => other.outcome === 'sent')
		.map((other) => other.witnessed as Witnessed);
}

/** Peach's list, read once for the runs of one execution, and the messages its deliveries took. */
interface WitnessOfExecution {
	readAt: number;
	witness: Promise<Witness>;
	taken: Set<string>;
}
const witnesses = new WeakMap<object, WitnessOfExecution>();

async function witnessOf(
	context: IExecuteFunctions,
	nodeContext: object,
	since: number,
): Promise<Witness> {
	let held = witnesses.get(nodeContext);
	if (!held || Date.now() - held.readAt > WITNESS_FRESH_MS) {
		const taken = held?.taken ?? new Set<string>();
		held = { readAt: Date.now(), witness: Witness.read(context, since, taken), taken };
		witnesses.set(nodeContext, held);
		// A failed read is not kept: the next run asks again.
		held.witness.catch(() => witnesses.delete(nodeContext));
	}
	return await held.witness;
}

export interface Resolving {
	context: IExecuteFunctions;
	/** Per delivery: how Peach's list shows it (template messages), else undefined. */
	witnessed: Array<Witnessed | undefined>;
	/** What the node context knows (filled in here). */
	earlierOf: Array<EarlierOutcome | undefined>;
	fromStore: FromStore[];
	/** A Retry (the editor's or the API's); else a later try of Retry On Fail, or a run on n8n 1.x. */
	retry: boolean;
	/**
	 * Whether n8n's store names this execution as every Retry of it does (n8n 2.x, n8n.ts fact 3):
	 * then a delivery it shows nothing of was never requested. On n8n 1.x a crash's Retry cannot
	 * find the record.
	 */
	findsItsRecord: boolean;
	/** Whether n8n's store showed entries of this run (it ran in this execution). */
	runSeen: boolean;
	/** The node context object: Peach's list is kept with it for the runs of one execution. */
	nodeContext: object;
	/** From when Peach is asked what it queued. */
	since: number;
	/** What an earlier try sent whose row is gone (pairChangedItems): it takes its message first. */
	gone: Witnessed[];
}

/**
 * Which deliveries Peach is asked about, in the order they take its messages: what is known sent
 * first (0), then unknown outcomes (1), what the record cannot tell (2), and what a Retry's record
 * shows nothing of in a run it shows (3: `notShown`, retryTable.ts). A delivery of a run the record
 * shows nothing of was never requested (its claim is proven before its request, store.ts): Peach is
 * not asked, so that another node's message to the same contact never stands for it.
 */
function ranked(r: Resolving): Array<{ index: number; rank: number }> {
	const rankOf = (index: number): number | undefined => {
		if (r.witnessed[index] === undefined) return undefined;
		return {
			contextSent: 0,
			storeSent: 0,
			contextUnknown: 1,
			storeUnknown: 1,
			storeCannotSay: 2,
			notShown: 3,
		}[says(r.earlierOf[index], r.fromStore[index], r) as string];
	};
	return r.witnessed
		.map((_, index) => ({ index, rank: rankOf(index) }))
		.filter((item): item is { index: number; rank: number } => item.rank !== undefined)
		.sort((a, b) => a.rank - b.rank || a.index - b.index);
}

/**
 * What Peach shows, per delivery: per contact and template, what is known sent takes its own messages
 * first; the others take the rest only where Peach lists one for each of them (else it cannot say
 * which were sent: `ambiguous`).
 */
async function peachShows(
	r: Resolving,
	asked: Array<{ index: number; rank: number }>,
	witness: Witness,
): Promise<{ shown: Map<number, PeachShows>; ambiguous: Map<number, string> }> {
	const shown = new Map<number, PeachShows>();
	const ambiguous = new Map<number, string>();
	const groups = new Map<string, Array<{ index: number; rank: number }>>();
	for (const item of asked) {
		const key = groupOf(r.witnessed[item.index] as Witnessed);
		groups.set(key, [...(groups.get(key) ?? []), item]);
	}
	for (const [key, members] of groups) {
		const take = async (index: number) => {
			const shows = await witness.take(r.witnessed[index] as Witnessed);
			if (shows) shown.set(index, shows);
		};
		for (const gone of r.gone.filter((delivery) => groupOf(delivery) === key))
			await witness.take(gone);
		for (const { index } of members.filter(({ rank }) => rank === 0)) await take(index);
		// Then each kind in turn, all of its deliveries where Peach lists one for each, else none.
		let left = (await witness.untaken(r.witnessed[members[0].index] as Witnessed)).length;
		for (const rank of [1, 2, 3]) {
			const tier = members.filter((member) => member.rank === rank);
			if (!tier.length) continue;
			if (left >= tier.length) for (const { index } of tier) await take(index);
			else if (left > 0)
				for (const { index } of tier) ambiguous.set(index, AMBIGUOUS(left, tier.length));
			left = Math.max(0, left - tier.length);
		}
	}
	return { shown, ambiguous };
}

/**
 * What Peach shows of the deliveries `asked` about (peachShows), whether its list can tell contacts
 * and templates apart (`canTell`), or why it could not be read (`unreadable`).
 */
async function askPeach(
	r: Resolving,
	asked: Array<{ index: number; rank: number }>,
): Promise<{
	shown: Map<number, PeachShows>;
	ambiguous: Map<number, string>;
	canTell: boolean;
	unreadable?: string;
}> {
	// Peach is read only where it decides something.
	let witness: Witness | undefined;
	let unreadable: string | undefined;
	if (asked.some(({ index, rank }) => rank > 0 || r.earlierOf[index] === undefined)) {
		try {
			witness = await witnessOf(r.context, r.nodeContext, r.since);
		} catch (error) {
			unreadable = PEACH_UNREADABLE((error as Error).message);
		}
	}
	const { shown, ambiguous } = witness
		? await peachShows(r, asked, witness)
		: { shown: new Map<number, PeachShows>(), ambiguous: new Map<number, string>() };
	return { shown, ambiguous, canTell: witness?.canTell === true, unreadable };
}

/** Fills in `earlierOf` from the store and Peach, by RETRY_DECIDES. */
export async function resolveEarlier(r: Resolving): Promise<void> {
	const asked = ranked(r);
	const { shown, ambiguous, canTell, unreadable } = await askPeach(r, asked);
	r.fromStore.forEach((from, index) => {
		const known = r.earlierOf[index];
		const peach = shown.get(index);
		const peachSays: PeachSays = peach
			? 'lists'
			: ambiguous.has(index)
				? 'tooFewListed'
				: unreadable
					? 'unreadable'
					: canTell && r.witnessed[index] !== undefined
						? 'notListed'
						: 'cannotTell';
		const decision = RETRY_DECIDES[says(known, from, r)][peachSays];
		if (decision === 'make') return;
		if (decision === 'sent') {
			if (known?.outcome === 'sent') {
				if (peach) known.peach = peach;
			} else
				r.earlierOf[index] = {
					outcome: 'sent',
					at: known?.at ?? null,
					...(peach ? { peach } : {}),
					...(peach && from !== 'sent' && !known ? { byPeachOnly: true } : {}),
				};
			return;
		}
		const reason = ambiguous.get(index) ?? reasonOf(decision, known);
		r.earlierOf[index] = {
			outcome: 'unknown',
			at: known?.at ?? null,
			reason: unreadable ? `${reason} ${unreadable}` : reason,
			...(unreadable ? { peachUnread: true } : {}),
		};
	});
}
