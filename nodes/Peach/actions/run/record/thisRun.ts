import { PEACH_CLOCK_MARGIN_MS } from '../../../helpers/time';
import { type BucketRun, occurrences, type Place, placeRun, tokenOf } from './chain';
import type { Lineage } from './n8n';
import type { NodeRecord } from './nodeRecord';
import type { Witnessed } from './witness';

/**
 * This run of the node as the record names it (chain.ts): which execution and run it is, and each
 * planned delivery's token, identity and place; and from when Peach is asked what it queued.
 */

/** Where n8n does not say when an execution began (n8n 1.x): Peach's own default window. */
const WITHOUT_START_MS = 24 * 3600_000;

/** A delivery to record: its lane (recipient or own key), what it sends, and how Peach lists it. */
export interface PlannedDelivery {
	lane: string;
	content: unknown;
	/** The user's Delivery Key: names the delivery instead of its content. */
	deliveryKey?: string;
	/** The contact and template Peach's list of template messages would show it by. */
	witnessed?: Witnessed;
}

/** This run of the node: which execution and run it is, and its deliveries' names and places. */
export interface RunOf {
	lineage: string;
	ordinal: number;
	runIndex: number;
	identities: string[];
	tokens: string[];
	places: Place[];
	witnessed: Array<Witnessed | undefined>;
}

/**
 * This run's deliveries (`operationKey`: the resource and operation) named and placed in their
 * buckets: a delivery's identity is its token and which of the run's identical deliveries it is.
 */
export function thisRun(
	operationKey: string,
	planned: PlannedDelivery[],
	of: { lineage: string; ordinal: number; runIndex: number },
): { run: RunOf; buckets: Map<number, BucketRun> } {
	const tokens = planned.map((delivery) =>
		tokenOf(operationKey, delivery.lane, delivery.content, delivery.deliveryKey),
	);
	const occurrence = occurrences(tokens);
	const placed = placeRun(
		of.lineage,
		of.ordinal,
		tokens,
		planned.map((delivery) => delivery.lane),
	);
	return {
		run: {
			lineage: of.lineage,
			ordinal: of.ordinal,
			runIndex: of.runIndex,
			identities: tokens.map((token, index) => JSON.stringify([token, occurrence[index]])),
			tokens,
			places: placed.places,
			witnessed: planned.map((delivery) => delivery.witnessed),
		},
		buckets: placed.buckets,
	};
}

/**
 * Peach is asked what it queued since the execution began: n8n 2.x says when (`establishedAt`);
 * n8n 1.x only through the node's own record (not after a crash: then Peach's own default window).
 */
export function peachAskedSince(
	lineage: Lineage,
	held: { record: NodeRecord; fresh: boolean } | undefined,
): number {
	return (
		(lineage.establishedAt ??
			(held && !held.fresh ? held.record.startedAt : Date.now() - WITHOUT_START_MS)) -
		PEACH_CLOCK_MARGIN_MS
	);
}
