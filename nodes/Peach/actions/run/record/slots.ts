import { entry } from './chain';
import type { RecordStore } from './store';

/**
 * Which execution of its millisecond this is: n8n 2.x keeps only an execution's start (establishedAt)
 * for the Retry of a crashed one, and two executions of a workflow may start in the same millisecond.
 */

/** Slots looked for in a Retry: executions of one workflow started in the same millisecond. */
const SLOTS = 8;

/**
 * An execution's first record takes the first free slot of its millisecond, noting its input; the
 * Retry of a crashed one finds it again: by that input, or as the only one.
 */
export async function takeSlot(
	store: RecordStore,
	lineage: string,
	input: string,
): Promise<number> {
	for (let slot = 0; ; slot++)
		if (await store.take([entry.slot(lineage, slot), entry.slot(lineage, slot, input)]))
			return slot;
}

export async function findSlot(
	store: RecordStore,
	lineage: string,
	input: string,
): Promise<number | undefined> {
	const slots = Array.from({ length: SLOTS }, (_, slot) => slot);
	const found = await store.probe(
		slots.flatMap((slot) => [entry.slot(lineage, slot), entry.slot(lineage, slot, input)]),
	);
	const taken = slots.filter((slot) => found.has(entry.slot(lineage, slot)));
	const same = taken.filter((slot) => found.has(entry.slot(lineage, slot, input)));
	// Two of them started with this very input: it cannot tell which one this is.
	const slot =
		same.length > 1 ? undefined : (same[0] ?? (taken.length === 1 ? taken[0] : undefined));
	if (slot !== undefined)
		store.adopt([entry.slot(lineage, slot), entry.slot(lineage, slot, input)]);
	if (slot !== undefined || taken.length > 1) return slot ?? -1;
	// The crashed try never recorded anything: this one starts afresh.
	return await takeSlot(store, lineage, input);
}
