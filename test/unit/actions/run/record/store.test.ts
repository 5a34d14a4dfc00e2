import { describe, expect, it } from 'vitest';

import { RecordStore } from '../../../../../nodes/Peach/actions/run/record/store';
import { factEntries, STORE_CAP } from '../../../../../nodes/Peach/actions/run/record/storeCalls';
import { FakeDeduplicationStore } from '../../../support/n8nRecovery';

/** A run's writes to a node's row in the fake of n8n's store (one row per workflow and node). */
function recordStore(fake = new FakeDeduplicationStore(), workflowId = 'wf-store') {
	return {
		fake,
		store: new RecordStore(fake.helpersFor(workflowId, 'node-1'), `${workflowId}|node-1`),
	};
}

describe("n8n's store as the record writes it (store.ts)", () => {
	it('a fact is two entries, read as a fact only when both are there', async () => {
		const { fake, store } = recordStore();
		await store.claim(factEntries('sent-a'), []);
		expect(fake.size('wf-store')).toBe(2);
		expect(await store.probeFacts(['sent-a', 'sent-b'])).toEqual(new Set(['sent-a']));
		// A look adds nothing it does not remove again.
		expect(fake.size('wf-store')).toBe(2);
	});

	it("a look's entry put back by another worker's older copy is no fact (and is removed)", async () => {
		const { fake, store } = recordStore();
		await store.claim(['something'], []);
		// The other worker read the row between the look's addition and its removal.
		fake.removalsUndoneByOlderCopies = 1;
		expect(await store.probeFacts(['sent-b'])).toEqual(new Set());
		expect(fake.has(factEntries('sent-b')[0], 'wf-store')).toBe(true);
		// The next look finds only the first entry: no fact, and the lone entry goes.
		expect(await store.probeFacts(['sent-b'])).toEqual(new Set());
		expect(fake.has(factEntries('sent-b')[0], 'wf-store')).toBe(false);
	});

	it(`every call asks n8n to keep at most ${STORE_CAP} entries: records nobody removed are dropped oldest first`, async () => {
		const { fake, store } = recordStore();
		const old = Array.from(
			{ length: STORE_CAP },
			(_, index) => `left by a stopped process ${index}`,
		);
		await store.claim(old, []);
		await store.claim(['a claim of a running execution'], []);
		expect(fake.size('wf-store')).toBe(STORE_CAP);
		expect(fake.trimmed).toBe(1);
		expect(fake.has('left by a stopped process 0', 'wf-store')).toBe(false);
		expect(fake.has('a claim of a running execution', 'wf-store')).toBe(true);
	});

	it("each call adds the previous call's entries again: what another worker's older copy dropped is back with the next call", async () => {
		const { fake, store } = recordStore();
		await store.claim(['row exists'], []);
		fake.rewritesFromOlderCopies = 1;
		await store.claim(['claim 1'], []);
		expect(fake.has('claim 1', 'wf-store')).toBe(false);
		await store.claim(['claim 2'], []);
		expect(fake.has('claim 1', 'wf-store')).toBe(true);
		expect(fake.has('claim 2', 'wf-store')).toBe(true);
	});

	it('what a folded group replaces is removed in the turn that writes the fold', async () => {
		const { fake, store } = recordStore();
		await store.claim(['claim 1', 'claim 2'], []);
		const calls = fake.calls;
		store.later(['marker']);
		store.remove(['claim 1', 'claim 2']);
		await store.close();
		expect(fake.calls - calls).toBe(2);
		expect(fake.has('marker', 'wf-store')).toBe(true);
		expect(fake.has('claim 1', 'wf-store')).toBe(false);
		expect([...store.kept]).toEqual(['marker']);
	});
});
