import { createHash } from 'crypto';

/**
 * Where each delivery of a run stands in the delivery record, so that a retry can find it again by
 * what it is (the operation and its recipient, in the order that recipient's deliveries came), not by
 * where it sits in the input.
 *
 * A node's deliveries are spread over BUCKETS buckets by recipient (the same recipient always lands in
 * the same bucket). Within a bucket, the deliveries of an execution form one sequence (run after run,
 * in input order), and each one's fingerprint chains the fingerprint before it with its own token:
 * a fingerprint stands for the whole sequence up to it. So one entry can say "everything up to here
 * was sent" (a group marker), and the record of a run stays the same size however long the run is.
 */

/** How many buckets a node's deliveries are spread over, by recipient. */
export const BUCKETS = 128;
/** A bucket's deliveries are folded into one marker per this many, once all of them were sent. */
export const GROUP = 4;

/** A short, collision-resistant name for some text: 128 bits of SHA-256, base64url. */
export function digest(...parts: string[]): string {
	return createHash('sha256').update(parts.join('\u0000')).digest('base64url').slice(0, 22);
}

/** What a delivery is, for the record: its operation and its recipient (or its own key). */
export function tokenOf(operationKey: string, laneKey: string): string {
	return `${operationKey}\u0000${laneKey}`;
}

export function bucketOf(token: string): number {
	return createHash('sha256').update(token).digest().readUInt16BE(0) % BUCKETS;
}

/** Where a bucket's sequence starts in an execution. */
function startOf(lineage: string, bucket: number): string {
	return digest('start', lineage, String(bucket));
}

/** Each bucket's fingerprint after the runs before this one (a bucket not in it starts afresh). */
export type ChainState = Record<string, string>;

/** A delivery's place: its bucket, its position among this run's deliveries in the bucket, and its fingerprint. */
export interface Place {
	bucket: number;
	position: number;
	fingerprint: string;
}

/** This run's part of one bucket: where it starts and the places in it, in order. */
export interface BucketRun {
	bucket: number;
	/** The bucket's fingerprint before this run (what its position entries are anchored to). */
	anchor: string;
	/** Indexes (into the run's deliveries) of this bucket's deliveries, in order. */
	deliveries: number[];
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

/**
 * Places a run's deliveries (their tokens, in order) in their buckets, continuing each bucket's
 * sequence from `before`; answers the places, this run's part of each bucket, and the state after.
 */
export function placeRun(
	lineage: string,
	tokens: string[],
	before: ChainState,
): { places: Place[]; buckets: Map<number, BucketRun>; after: ChainState } {
	const buckets = new Map<number, BucketRun>();
	const places: Place[] = [];
	const after: ChainState = { ...before };
	tokens.forEach((token, index) => {
		const bucket = bucketOf(token);
		let run = buckets.get(bucket);
		if (!run) {
			const anchor = before[bucket] ?? startOf(lineage, bucket);
			run = { bucket, anchor, deliveries: [], fingerprints: [] };
			buckets.set(bucket, run);
		}
		const previous = run.fingerprints[run.fingerprints.length - 1] ?? run.anchor;
		const fingerprint = digest(previous, token);
		run.deliveries.push(index);
		run.fingerprints.push(fingerprint);
		after[bucket] = fingerprint;
		places.push({ bucket, position: run.deliveries.length - 1, fingerprint });
	});
	return { places, buckets, after };
}

/**
 * The entries a run writes to n8n's deduplication store (which keeps only their MD5). Per delivery,
 * while its group is open: `claim` before the request, `reach` (its position, whatever it is), then
 * `sent` or `notSent`. Per bucket and run: `reach` of position 0 stays (the bucket was reached), and
 * once a group is all sent, `group` (the last folded group, by position), `folded` and `marker` (the
 * fingerprint through the group) replace the group's entries.
 */
export const entry = {
	claim: (fingerprint: string) => `p1|c|${fingerprint}`,
	sent: (fingerprint: string) => `p1|s|${fingerprint}`,
	notSent: (fingerprint: string) => `p1|n|${fingerprint}`,
	reach: (anchor: string, position: number) => `p1|r|${anchor}|${position}`,
	group: (anchor: string, group: number) => `p1|g|${anchor}|${group}`,
	marker: (fingerprint: string) => `p1|m|${fingerprint}`,
	/** Some group of the bucket's run was folded (stays while any is). */
	folded: (anchor: string) => `p1|f|${anchor}`,
	/** An execution of this millisecond took this slot; with its first run's input, `input`. */
	slot: (lineage: string, slot: number, input?: string) =>
		`p1|l|${lineage}|${slot}${input === undefined ? '' : `|${input}`}`,
};
