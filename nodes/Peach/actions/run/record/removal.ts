import { sleep } from 'n8n-workflow';

import type { DeduplicationStore } from './n8n';
import { proofWaitMs } from './proof';
import { inTurn, removeInCalls } from './storeCalls';

/**
 * Removing what a finished execution left in a node's row (lifetime.ts decides when), for good:
 * another process's older copy of the row, read before a removal, may put the entries back (n8n.ts,
 * fact 1), within the proof's wait by its assumption (proof.ts); a copy read from such a put-back
 * row may put them back once more within the next wait. So each entry is removed again REMOVED_AGAIN
 * times, each removal at least a proof's wait after the one before it: with the row's next removals
 * where they come, else alone once due. Nothing is looked for: n8n's only look records what it asks
 * for for a moment, and a copy read then would put it back.
 */

/** How many more removals, each a proof's wait after the last, an entry gets. */
const REMOVED_AGAIN = 3;

interface Removed {
	/** When its last removal counted. */
	at: number;
	left: number;
}

interface RowRemovals {
	store: DeduplicationStore;
	items: Map<string, Removed>;
	/** A removal for the entries alone is set for when the first of them is due. */
	set: boolean;
}

const rows = new Map<string, RowRemovals>();

/** Removes `entries` from the row now, with what is due to be removed again. */
export async function removeForGood(
	store: DeduplicationStore,
	scope: string,
	entries: string[],
): Promise<void> {
	const row = rows.get(scope) ?? { store, items: new Map<string, Removed>(), set: false };
	rows.set(scope, row);
	row.store = store;
	const removing = [...new Set([...entries, ...row.items.keys()])];
	const started = Date.now();
	try {
		if (removing.length) await inTurn(scope, async () => await removeInCalls(store, removing));
	} finally {
		counted(row, entries, started);
		if (row.items.size && !row.set) {
			row.set = true;
			void removeWhenDue(scope, row);
		} else if (!row.items.size && !row.set && rows.get(scope) === row) rows.delete(scope);
	}
}

/**
 * The removal just made counts for each entry removed a proof's wait or more after its last one (a
 * failed call counts too: a database that stays down does not hold entries for ever); `entries` are
 * new.
 */
function counted(row: RowRemovals, entries: string[], started: number): void {
	const now = Date.now();
	const wait = proofWaitMs();
	for (const [item, removed] of row.items)
		if (started >= removed.at + wait) {
			removed.left--;
			removed.at = now;
			if (removed.left <= 0) row.items.delete(item);
		}
	for (const item of entries) row.items.set(item, { at: now, left: REMOVED_AGAIN });
}

/**
 * Once the first entry is due (a proof's wait after its last removal) and half a wait more has passed
 * without a removal of the row taking it (under load the row's next removals do), removes what is due.
 */
async function removeWhenDue(scope: string, row: RowRemovals): Promise<void> {
	for (;;) {
		let due = Infinity;
		for (const removed of row.items.values()) due = Math.min(due, removed.at);
		if (due === Infinity) break;
		const wait = due + proofWaitMs() * 1.5 - Date.now();
		if (wait <= 0) {
			row.set = false;
			await removeForGood(row.store, scope, []).catch(() => undefined);
			return;
		}
		await sleep(wait + 1);
	}
	row.set = false;
	if (rows.get(scope) === row) rows.delete(scope);
}
