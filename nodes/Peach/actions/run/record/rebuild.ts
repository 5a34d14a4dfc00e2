import { chain, entry, GROUP } from './chain';

/**
 * What the Retry of a crashed execution reads back from the delivery record: for this run's part of
 * one bucket, what the crashed try did with each delivery. The retry knows only its own input, so it
 * asks the store whether the entries that input would have produced are there (chain.ts):
 *
 * 1. was position 0 reached (always a bucket's first claim in a run); were groups folded, and how many
 *    (these entries name positions, not deliveries);
 * 2. does the last folded group's marker match this input's fingerprint there (then every delivery up
 *    to it was sent);
 * 3. after it, position by position: reached? claimed with this input's fingerprint? sent, not sent?
 *
 * Where the input differs from the crashed try's (a marker or a reached claim does not match), it
 * looks for the one delivery this input gained (a new row, a fixed item): without it, everything must
 * match. If no single delivery explains the difference (rows lost or reordered), it cannot tell which
 * deliveries were made, so none is made again: each comes back unknown.
 */

export type EarlierResult = 'sent' | 'notSent' | 'unknown';

export interface RebuiltBucket {
	/** Per position: what the crashed try did (undefined: nothing, so this run makes it). */
	outcomes: Array<EarlierResult | undefined>;
	/** How many of this run's groups of the bucket the record folded already. */
	folded: number;
	/** The crashed try's fingerprint after its last delivery here (the next run's anchor); undefined: unknown. */
	end: string | undefined;
	/** The entries found (removed with the run's own when the execution ends). */
	found: string[];
}

/** Which of the items the store holds (items it lacked are not left in it). */
export type Probe = (items: string[]) => Promise<Set<string>>;

/** Positions asked per round after the folded groups. */
const WINDOW = 2 * GROUP;

/** The positions the crashed try reached from `from` on (in windows, while a window's last one was). */
async function reachedFrom(probe: Probe, anchor: string, from: number): Promise<Set<number>> {
	const reached = new Set<number>();
	for (let start = from; ; start += WINDOW) {
		const positions = Array.from({ length: WINDOW }, (_, index) => start + index);
		const answer = await probe(positions.map((position) => entry.reach(anchor, position)));
		for (const position of positions)
			if (answer.has(entry.reach(anchor, position))) reached.add(position);
		if (!reached.has(start + WINDOW - 1)) return reached;
	}
}

interface Matched {
	/** The crashed try's outcome at each position the sequence covers (its numbering). */
	outcomes: Map<number, EarlierResult>;
	/** The crashed try's fingerprint after its last delivery here; undefined when it went further. */
	end: string | undefined;
	found: string[];
}

/**
 * Whether `fingerprints` (a sequence in the crashed try's numbering) is what the crashed try had: the
 * last folded group's marker and every reached claim after it match. Its outcomes, or undefined.
 */
async function match(
	probe: Probe,
	anchor: string,
	fingerprints: string[],
	folded: number,
	reached: Set<number>,
	/** A hypothesis (this input minus a delivery) must explain every position the crashed try reached. */
	coverAll: boolean,
): Promise<Matched | undefined> {
	const found: string[] = [];
	let markerAt = -1;
	if (folded > 0) {
		// At the folded group's last position: earlier for a short group (a run's last in the bucket).
		const group = folded - 1;
		const candidates: number[] = [];
		for (let at = group * GROUP; at < Math.min(folded * GROUP, fingerprints.length); at++)
			candidates.push(at);
		const answer = await probe(candidates.map((at) => entry.marker(fingerprints[at])));
		const hits = candidates.filter((at) => answer.has(entry.marker(fingerprints[at])));
		if (hits.length !== 1) return undefined;
		markerAt = hits[0];
		found.push(entry.marker(fingerprints[markerAt]));
	}
	const open = [...reached].filter((position) => position > markerAt);
	const inReach = open.filter((position) => position < fingerprints.length);
	if (coverAll && inReach.length < open.length) return undefined;
	const names = [entry.claim, entry.sent, entry.notSent];
	const answer = await probe(
		inReach.flatMap((position) => names.map((name) => name(fingerprints[position]))),
	);
	const outcomes = new Map<number, EarlierResult>();
	for (let position = 0; position <= markerAt; position++) outcomes.set(position, 'sent');
	for (const position of inReach) {
		const fingerprint = fingerprints[position];
		if (!answer.has(entry.claim(fingerprint))) return undefined;
		outcomes.set(
			position,
			answer.has(entry.sent(fingerprint))
				? 'sent'
				: answer.has(entry.notSent(fingerprint))
					? 'notSent'
					: 'unknown',
		);
		found.push(...names.map((name) => name(fingerprint)).filter((item) => answer.has(item)));
	}
	// The crashed try went past this sequence's end (rows since lost): its end cannot be known.
	const last = Math.max(markerAt, ...open);
	const end = last >= fingerprints.length ? undefined : (fingerprints[last] ?? anchor);
	return { outcomes, end, found };
}

/**
 * Reads back what the crashed try did in one bucket's part of this run. `anchor` is the bucket's
 * fingerprint before this run as the crashed try had it (undefined when an earlier run could not be
 * matched); `tokens` are this run's deliveries in the bucket, in order.
 */
export async function rebuildBucket(
	probe: Probe,
	anchor: string | undefined,
	tokens: string[],
): Promise<RebuiltBucket> {
	const unknown: RebuiltBucket = {
		outcomes: tokens.map(() => 'unknown'),
		folded: 0,
		end: undefined,
		found: [],
	};
	if (anchor === undefined) return unknown;
	const fingerprints = chain(anchor, tokens);
	const groups = Math.ceil(tokens.length / GROUP) + 1;
	const first = await probe([
		entry.reach(anchor, 0),
		entry.folded(anchor),
		...Array.from({ length: groups }, (_, group) => entry.group(anchor, group)),
	]);
	// Position 0 is always claimed first: not reached, nothing of this run's part was.
	if (!first.has(entry.reach(anchor, 0)))
		return {
			outcomes: tokens.map(() => undefined),
			folded: 0,
			end: fingerprints[fingerprints.length - 1] ?? anchor,
			found: [],
		};
	const found = [entry.reach(anchor, 0)];
	let folded = 0;
	if (first.has(entry.folded(anchor))) {
		found.push(entry.folded(anchor));
		for (let group = 0; group < groups; group++)
			if (first.has(entry.group(anchor, group))) folded = group + 1;
		// Folded further than this input reaches (rows since lost), or the entry is gone.
		if (folded === 0) return unknown;
		found.push(entry.group(anchor, folded - 1));
	}
	const reached = await reachedFrom(probe, anchor, folded > 0 ? (folded - 1) * GROUP : 1);
	reached.add(0);
	for (const position of reached) if (position > 0) found.push(entry.reach(anchor, position));

	const rebuilt = (
		matched: Matched,
		crashedPositionOf: (position: number) => number | undefined,
	) => ({
		outcomes: tokens.map((_, position) => {
			const crashed = crashedPositionOf(position);
			return crashed === undefined ? undefined : matched.outcomes.get(crashed);
		}),
		folded,
		end: matched.end,
		found: [...found, ...matched.found],
	});

	const same = await match(probe, anchor, fingerprints, folded, reached, false);
	if (same) return rebuilt(same, (position) => position);

	// One delivery this input gained: without it, the rest must match, and explain every position the
	// crashed try reached (one it reached beyond them may be that very delivery). All asked at once.
	const candidates = await Promise.all(
		tokens.map(async (_, gained) => {
			const rest = tokens.filter((__, position) => position !== gained);
			return await match(probe, anchor, chain(anchor, rest), folded, reached, true);
		}),
	);
	const gained = candidates.findIndex((candidate) => candidate !== undefined);
	if (gained === -1) return unknown;
	return rebuilt(candidates[gained] as Matched, (position) =>
		position === gained ? undefined : position < gained ? position : position - 1,
	);
}
