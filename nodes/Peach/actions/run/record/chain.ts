import { createHash } from 'crypto';

/**
 * What a delivery is, for the record, and where it stands in n8n's store.
 *
 * A delivery is named by what it sends (its **token**): the operation, the recipient, and the request
 * the node builds for it (or the user's Delivery Key). Identical deliveries of a run are told apart by
 * their order among themselves only, so rows gained, lost or reordered elsewhere change nothing.
 *
 * In the store, each delivery under way has entries of its own, by its name (found again by what it
 * sends, wherever the row now sits). So that a run's record stays the same size however long the run,
 * settled deliveries are folded: a run's deliveries are spread over BUCKETS buckets by recipient (one
 * recipient's deliveries share a bucket and go in input order), and within a bucket each delivery's
 * fingerprint chains the one before it with its token, from an anchor named by the execution, the
 * run and the bucket, so one entry says "everything up to here is settled" (a group marker). A run
 * that sent everything is summed up in one entry named by the multiset of its tokens (order does not
 * matter), and its bucket entries go, where that is smaller (not a single send: record.ts close).
 */

/** How many buckets a run's deliveries are spread over, by recipient. */
export const BUCKETS = 128;
/** A bucket's deliveries are folded into one marker per this many, once all of them are settled. */
export const GROUP = 4;

/** A short, collision-resistant name for some text: 128 bits of SHA-256, base64url. */
export function digest(...parts: string[]): string {
	return createHash('sha256').update(parts.join('\u0000')).digest('base64url').slice(0, 22);
}

/** JSON with every object's keys sorted: the same content always gives the same text. */
export function canonical(value: unknown): string {
	if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
	if (typeof value === 'object' && value !== null)
		return `{${Object.keys(value)
			.sort()
			.filter((key) => (value as Record<string, unknown>)[key] !== undefined)
			.map((key) => `${JSON.stringify(key)}:${canonical((value as Record<string, unknown>)[key])}`)
			.join(',')}}`;
	return JSON.stringify(value) ?? 'null';
}

/**
 * What a delivery is: the operation, its lane (the recipient, or a delivery's own key), and what it
 * sends (`content`), or, when the user gave one, their Delivery Key instead of the content.
 */
export function tokenOf(
	operationKey: string,
	lane: string,
	content: unknown,
	deliveryKey?: string,
): string {
	return deliveryKey === undefined
		? digest('content', operationKey, lane, canonical(content))
		: digest('key', operationKey, lane, deliveryKey);
}

export function bucketOf(lane: string): number {
	return createHash('sha256').update(lane).digest().readUInt16BE(0) % BUCKETS;
}

/** Where a bucket's sequence starts in a run of an execution. */
function anchorOf(lineage: string, ordinal: number, bucket: number): string {
	return digest('start', lineage, String(ordinal), String(bucket));
}

/**
 * A delivery's place: its name (what it sends, and which of the run's identical deliveries it is),
 * its bucket, its position among the run's deliveries in the bucket, and its fingerprint there.
 */
export interface Place {
	name: string;
	bucket: number;
	position: number;
	fingerprint: string;
}

/** A run's part of one bucket: where it starts and the places in it, in order. */
export interface BucketRun {
	bucket: number;
	anchor: string;
	/** Indexes (into the run's deliveries) of this bucket's deliveries, in order. */
	deliveries: number[];
	/** Their tokens. */
	tokens: string[];
	/** The fingerprint through each of them. */
	fingerprints: string[];
}

/** Chains `tokens` from `anchor`: the fingerprint through each. */
export function chain(anchor: string, tokens: string[]): string[] {
	const fingerprints: string[] = [];
	let previous = anchor;
	for (const token of tokens) {
		previous = digest(previous, token);
		fingerprints.push(previous);
	}
	return fingerprints;
}

/** Which of the run's identical deliveries each one is (0 for the first of its content). */
export function occurrences(tokens: string[]): number[] {
	const seen = new Map<string, number>();
	return tokens.map((token) => {
		const occurrence = seen.get(token) ?? 0;
		seen.set(token, occurrence + 1);
		return occurrence;
	});
}

/** Places a run's deliveries (their tokens and lanes, in input order) in their buckets. */
export function placeRun(
	lineage: string,
	ordinal: number,
	tokens: string[],
	lanes: string[],
): { places: Place[]; buckets: Map<number, BucketRun> } {
	const buckets = new Map<number, BucketRun>();
	const occurrence = occurrences(tokens);
	const places = tokens.map((token, index) => {
		const bucket = bucketOf(lanes[index]);
		let run = buckets.get(bucket);
		if (!run) {
			run = {
				bucket,
				anchor: anchorOf(lineage, ordinal, bucket),
				deliveries: [],
				tokens: [],
				fingerprints: [],
			};
			buckets.set(bucket, run);
		}
		const fingerprint = digest(run.fingerprints[run.fingerprints.length - 1] ?? run.anchor, token);
		run.deliveries.push(index);
		run.tokens.push(token);
		run.fingerprints.push(fingerprint);
		const name = digest('delivery', lineage, String(ordinal), token, String(occurrence[index]));
		return { name, bucket, position: run.deliveries.length - 1, fingerprint };
	});
	return { places, buckets };
}

const MOD = BigInt(2) ** BigInt(128);

/** A token's share of a sum of tokens. */
function shareOf(token: string): bigint {
	return BigInt(`0x${createHash('sha256').update(token).digest('hex').slice(0, 32)}`);
}

/** The sum of some tokens (a multiset: order does not matter), as an entry names it. */
export function sumOf(tokens: string[]): string {
	return tokens.reduce((sum, token) => (sum + shareOf(token)) % MOD, BigInt(0)).toString(36);
}

/** A sum of tokens kept as they come (a bucket's folded deliveries). */
export class RunningSum {
	private sum = BigInt(0);
	count = 0;

	add(token: string): void {
		this.sum = (this.sum + shareOf(token)) % MOD;
		this.count++;
	}

	get text(): string {
		return this.sum.toString(36);
	}
}

/**
 * The sum of a run's tokens (a multiset: order does not matter), and the sums without each one of
 * them (what the run was if this input gained that delivery).
 */
export function runSums(tokens: string[]): { all: string; without: (index: number) => string } {
	const shares = tokens.map(shareOf);
	const total = shares.reduce((sum, share) => (sum + share) % MOD, BigInt(0));
	const text = (sum: bigint) => sum.toString(36);
	return {
		all: text(total),
		without: (index) => text((total - shares[index] + MOD) % MOD),
	};
}

/**
 * The entries the record writes to n8n's deduplication store (which keeps only their MD5). A
 * *fact* (the store's `facts`) is written as two entries and believed only when both are there, so
 * that an entry a check added for a moment and another process's older copy put back cannot make
 * one; the others, when wrongly there, only make the record more careful.
 *
 * Per delivery, by its name (what it sends): `claim` before the request, then the fact `sent`, or
 * the claim is removed (it was not made: refused, or it never left; a later try claims it anew).
 * Per bucket and run: `reached` (a delivery of the bucket was claimed); once a group is
 * settled, `group` (the last folded group), `folded`, the fact `marker` (the fingerprint through the
 * group) and the fact `foldedSet` (how many deliveries are folded and the sum of their tokens, for a
 * Retry whose rows come in another order) replace its deliveries' entries; a delivery in it that was
 * refused (`refusedAt`, a fact) or left unknown (`unknownAt`) keeps a note by name, and the bucket
 * `exceptions`. Per run that
 * sent everything: the facts `ended` and `allSent` (the sum of its tokens). Per execution whose
 * crash's Retry ended in success: the fact `retired`.
 */
export const entry = {
	claim: (name: string) => `p3|c|${name}`,
	sent: (name: string) => `p3|s|${name}`,
	reached: (anchor: string) => `p3|r|${anchor}`,
	group: (anchor: string, group: number) => `p3|g|${anchor}|${group}`,
	folded: (anchor: string) => `p3|f|${anchor}`,
	marker: (fingerprint: string) => `p3|m|${fingerprint}`,
	foldedSet: (anchor: string, count: number, sum: string) => `p3|o|${anchor}|${count}|${sum}`,
	exceptions: (anchor: string) => `p3|e|${anchor}`,
	refusedAt: (name: string) => `p3|x|${name}`,
	unknownAt: (name: string) => `p3|u|${name}`,
	ended: (lineage: string, ordinal: number) => `p3|d|${digest(lineage)}|${ordinal}`,
	allSent: (lineage: string, ordinal: number, sum: string) =>
		`p3|a|${digest(lineage)}|${ordinal}|${sum}`,
	retired: (lineage: string) => `p3|t|${digest(lineage)}`,
};
