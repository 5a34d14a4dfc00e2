import { chain, entry, GROUP, sumOf } from './chain';
import { factEntries } from './storeCalls';

/**
 * What the Retry of a crashed execution reads back from n8n's store for one bucket of a run that did
 * not end (chain.ts). The Retry knows only its own input, so it asks whether the entries that input
 * would have produced are there:
 *
 * 1. was the bucket reached in the run; were groups folded, and how many;
 * 2. every delivery by its name: claimed? sent, not sent? (and, in a folded group, refused or unknown);
 * 3. the folded part: the deliveries without entries of their own that the last folded group's marker
 *    matches in this input's order (the crashed try's order; also with one delivery this input
 *    gained), or, in any order, those whose number and sum the folded set has (at most two of them
 *    left out: new rows, or never reached).
 *
 * A delivery with no entry of its own was never reached, unless the folded part could not be matched
 * (rows lost there): then it may be one of the folded ones, and it is `unverifiable`: the record
 * cannot say, and the caller asks Peach.
 */

export type EarlierResult = 'sent' | 'notSent' | 'unknown' | 'unverifiable';

export interface RebuiltBucket {
	/** Per position: what the crashed try did (undefined: it never reached it). */
	outcomes: Array<EarlierResult | undefined>;
	/** The entries found (they belong to the crashed execution's record). */
	found: string[];
}

/** Looks in the store: plain entries, and facts (chain.ts). */
export interface Looks {
	probe: (items: string[]) => Promise<Set<string>>;
	facts: (names: string[]) => Promise<Set<string>>;
}

/** A bucket's folded part is matched with one gained delivery up to this many deliveries in it. */
const GAINED_SEARCH_LIMIT = 1000;
/** …and in another order, with two deliveries left out, up to this many without entries of their own. */
const PAIRS_SEARCH_LIMIT = 100;

/**
 * The folded part in this input's order: the position of the folded group's last delivery (in
 * `tokens`) and, when this input gained one delivery inside it, which one; undefined when no
 * hypothesis matches the marker. Only a delivery without entries of its own (`open`) can be the
 * gained one: one with entries was in the crashed try (also beside its marker, whose removals wait
 * for the marker's proof), and among identical ones the gained one is then told apart.
 */
async function inOrder(
	looks: Looks,
	anchor: string,
	tokens: string[],
	folded: number,
	open: number[],
): Promise<{ end: number; gained?: number; marker: string } | undefined> {
	const ends = (fingerprints: string[]) => {
		const candidates: number[] = [];
		for (let at = (folded - 1) * GROUP; at < Math.min(folded * GROUP, fingerprints.length); at++)
			candidates.push(at);
		return candidates.map((at) => ({ at, marker: entry.marker(fingerprints[at]) }));
	};
	const same = ends(chain(anchor, tokens));
	const found = await looks.facts(same.map(({ marker }) => marker));
	const hits = same.filter(({ marker }) => found.has(marker));
	if (hits.length === 1) return { end: hits[0].at, marker: hits[0].marker };
	if (tokens.length > GAINED_SEARCH_LIMIT) return undefined;
	const reach = Math.min(tokens.length, folded * GROUP + 1);
	const hypotheses = open
		.filter((position) => position < reach)
		.map((gained) => ({
			gained,
			ends: ends(
				chain(
					anchor,
					tokens.filter((_token, position) => position !== gained),
				),
			),
		}));
	const answer = await looks.facts(
		hypotheses.flatMap(({ ends: candidates }) => candidates.map(({ marker }) => marker)),
	);
	for (const { gained, ends: candidates } of hypotheses) {
		const hit = candidates.filter(({ marker }) => answer.has(marker));
		// In this input's numbering: positions from the gained one on are one further.
		if (hit.length === 1)
			return {
				end: hit[0].at >= gained ? hit[0].at + 1 : hit[0].at,
				gained,
				marker: hit[0].marker,
			};
	}
	return undefined;
}

/**
 * The folded part in any order: which of `open` (positions without entries of their own) it holds,
 * by the folded set's number and sum, leaving out at most two; undefined when none matches.
 */
async function inAnyOrder(
	looks: Looks,
	anchor: string,
	tokens: string[],
	open: number[],
	folded: number,
): Promise<{ folded: number[]; fact: string } | undefined> {
	const counts: number[] = [];
	for (let count = Math.max(1, (folded - 1) * GROUP + 1); count <= folded * GROUP; count++)
		if (count <= open.length && open.length - count <= 2) counts.push(count);
	const leaveOut: number[][] = [];
	for (const count of counts) {
		const out = open.length - count;
		if (out === 0) leaveOut.push([]);
		if (out === 1) for (const one of open) leaveOut.push([one]);
		if (out === 2 && open.length <= PAIRS_SEARCH_LIMIT)
			for (let first = 0; first < open.length; first++)
				for (let second = first + 1; second < open.length; second++)
					leaveOut.push([open[first], open[second]]);
	}
	const candidates = leaveOut.map((left) => {
		const kept = open.filter((position) => !left.includes(position));
		return {
			kept,
			fact: entry.foldedSet(anchor, kept.length, sumOf(kept.map((position) => tokens[position]))),
		};
	});
	const found = await looks.facts(candidates.map(({ fact }) => fact));
	const hits = candidates.filter(({ fact }) => found.has(fact));
	return hits.length === 1 ? { folded: hits[0].kept, fact: hits[0].fact } : undefined;
}

/** A delivery's own entries: claimed (its request may have left), and sent. */
async function ownEntriesOf(
	looks: Looks,
	names: string[],
	exceptions: boolean,
): Promise<{ claims: Set<string>; facts: Set<string>; unknownAt: Set<string> }> {
	const [claims, facts] = await Promise.all([
		looks.probe(
			names.flatMap((name) => [entry.claim(name), ...(exceptions ? [entry.unknownAt(name)] : [])]),
		),
		looks.facts(
			names.flatMap((name) => [entry.sent(name), ...(exceptions ? [entry.refusedAt(name)] : [])]),
		),
	]);
	return { claims, facts, unknownAt: claims };
}

/** The bucket's own marks in n8n's store: reached, folded (and how many groups), exceptions. */
async function bucketMarks(
	looks: Looks,
	anchor: string,
	size: number,
): Promise<{ first: Set<string>; found: string[]; folded: number; exceptions: boolean }> {
	const groups = Math.ceil(size / GROUP) + 1;
	const first = await looks.probe([
		entry.reached(anchor),
		entry.folded(anchor),
		entry.exceptions(anchor),
		...Array.from({ length: groups }, (_, group) => entry.group(anchor, group)),
	]);
	const found: string[] = [];
	for (const item of [entry.reached(anchor), entry.folded(anchor), entry.exceptions(anchor)])
		if (first.has(item)) found.push(item);
	let folded = 0;
	for (let group = 0; group < groups; group++)
		if (first.has(entry.group(anchor, group))) folded = group + 1;
	if (folded > 0) found.push(entry.group(anchor, folded - 1));
	return { first, found, folded, exceptions: first.has(entry.exceptions(anchor)) };
}

/**
 * Each delivery's outcome by its own entries (a claim: unknown; a sent fact: sent), adding them to
 * `found`; `open`: the positions with neither.
 */
function byOwnEntries(
	own: { claims: Set<string>; facts: Set<string> },
	names: string[],
	found: string[],
): { outcomes: Array<EarlierResult | undefined>; open: number[] } {
	const outcomes: Array<EarlierResult | undefined> = names.map(() => undefined);
	const open: number[] = [];
	names.forEach((name, position) => {
		const claimed = own.claims.has(entry.claim(name));
		const sent = own.facts.has(entry.sent(name));
		if (!claimed && !sent) {
			open.push(position);
			return;
		}
		outcomes[position] = sent ? 'sent' : 'unknown';
		if (claimed) found.push(entry.claim(name));
		if (sent) found.push(...factEntries(entry.sent(name)));
	});
	return { outcomes, open };
}

/**
 * Reads back what the crashed try did in one bucket of a run. `anchor` is the bucket's start in that
 * run; `tokens` and `names` are this run's deliveries in the bucket, in order.
 */
export async function rebuildBucket(
	looks: Looks,
	anchor: string,
	tokens: string[],
	names: string[],
): Promise<RebuiltBucket> {
	const { first, found, folded, exceptions } = await bucketMarks(looks, anchor, tokens.length);
	// Every delivery by its own entries, whatever the bucket's (another execution of the same
	// millisecond may have removed those).
	const own = await ownEntriesOf(looks, names, exceptions);
	const { outcomes, open } = byOwnEntries(own, names, found);
	/** A folded delivery's outcome: sent, unless its note says refused or unknown. */
	const foldedOutcome = (name: string): EarlierResult => {
		if (own.facts.has(entry.refusedAt(name))) {
			found.push(...factEntries(entry.refusedAt(name)));
			return 'notSent';
		}
		if (own.unknownAt.has(entry.unknownAt(name))) {
			found.push(entry.unknownAt(name));
			return 'unknown';
		}
		return 'sent';
	};
	if (folded === 0) {
		// Nothing folded (or its notes gone): what has no entry of its own was not reached.
		if (first.has(entry.folded(anchor)))
			for (const position of open) outcomes[position] = 'unverifiable';
		return { outcomes, found };
	}

	// The folded part, among the deliveries without entries of their own.
	const ordered = await inOrder(looks, anchor, tokens, folded, open);
	if (ordered) {
		found.push(...factEntries(ordered.marker));
		for (const position of open)
			if (position <= ordered.end && position !== ordered.gained)
				outcomes[position] = foldedOutcome(names[position]);
		return { outcomes, found };
	}
	const anyOrder = await inAnyOrder(looks, anchor, tokens, open, folded);
	if (anyOrder) {
		found.push(...factEntries(anyOrder.fact));
		for (const position of anyOrder.folded) outcomes[position] = foldedOutcome(names[position]);
		return { outcomes, found };
	}
	for (const position of open) outcomes[position] = 'unverifiable';
	return { outcomes, found };
}
