import { sleep } from 'n8n-workflow';
import { describe, expect, it, vi } from 'vitest';

import { STORE_CALLS_WINDOW_MS } from '../../../../../nodes/Peach/actions/run/record/n8n';
import {
	PROOF_TRIES,
	Prover,
	proofWaitMs,
	RecordNotKept,
	SlowestRecent,
} from '../../../../../nodes/Peach/actions/run/record/proof';
import { RecordStore } from '../../../../../nodes/Peach/actions/run/record/store';
import { FakeDeduplicationStore } from '../../../support/n8nRecovery';
import { TEST_PROOF_WAIT_MS } from '../../../support/proofWaitMs';

type N8nFacts = typeof import('../../../../../nodes/Peach/actions/run/record/n8n');

// This file's proofs follow slow store calls as n8n's do (the suite's setup keeps the wait fixed).
vi.mock('../../../../../nodes/Peach/actions/run/record/n8n', async (importOriginal) => ({
	...(await importOriginal<N8nFacts>()),
	PROOF_WAIT_MS: (await import('../../../support/proofWaitMs')).TEST_PROOF_WAIT_MS,
}));

describe('the proof (proof.ts)', () => {
	it('n8n runs it with a wait of one second (the unit suite with a few milliseconds)', async () => {
		const shipped = await vi.importActual<N8nFacts>(
			'../../../../../nodes/Peach/actions/run/record/n8n',
		);
		expect(shipped.PROOF_WAIT_MS).toBe(1000);
		expect(shipped.PROOF_WAIT_SLOWEST_TIMES).toBe(2);
	});

	it('claims written together are proven by one read, no sooner than the wait after their write', async () => {
		const reads: Array<{ items: string[]; at: number }> = [];
		const prover = new Prover(async (items) => {
			reads.push({ items, at: Date.now() });
			return { missing: new Set<string>(), writtenAt: Date.now() };
		});
		const writtenAt = Date.now();
		await Promise.all([prover.prove(['claim a'], writtenAt), prover.prove(['claim b'], writtenAt)]);
		expect(reads).toHaveLength(1);
		expect(reads[0].items.sort()).toEqual(['claim a', 'claim b']);
		expect(reads[0].at - writtenAt).toBeGreaterThanOrEqual(TEST_PROOF_WAIT_MS - 1);
	});

	it('a claim found missing is written again by the read and proven from that write; one the store always loses is not kept', async () => {
		let lost = 1;
		const reads: string[][] = [];
		const prover = new Prover(async (items) => {
			reads.push(items);
			const missing = new Set(items.filter((item) => item === 'always lost' || lost-- > 0));
			return { missing, writtenAt: Date.now() };
		});
		await prover.prove(['claim'], Date.now());
		expect(reads).toEqual([['claim'], ['claim']]);
		await expect(prover.prove(['always lost'], Date.now())).rejects.toBeInstanceOf(RecordNotKept);
		expect(reads.length - 2).toBe(PROOF_TRIES);
	});

	it('the slowest recent call: kept for the window it was in and the next, then forgotten', () => {
		const start = 1_000_000;
		const calls = new SlowestRecent(STORE_CALLS_WINDOW_MS, start);
		calls.took(300, start + 10);
		calls.took(40, start + 20);
		expect(calls.slowest(start + 30)).toBe(300);
		// The next window still counts it (the slowest of this window and the last).
		expect(calls.slowest(start + STORE_CALLS_WINDOW_MS + 1)).toBe(300);
		calls.took(50, start + STORE_CALLS_WINDOW_MS + 2);
		expect(calls.slowest(start + 2 * STORE_CALLS_WINDOW_MS + 2)).toBe(50);
		expect(calls.slowest(start + 3 * STORE_CALLS_WINDOW_MS + 3)).toBe(0);
		// A process idle for two windows starts again from nothing.
		calls.took(700, start + 3 * STORE_CALLS_WINDOW_MS + 4);
		expect(calls.slowest(start + 6 * STORE_CALLS_WINDOW_MS)).toBe(0);
	});

	// Last in this file: the slow call counts for this process (this file) from here on.
	it("after a slow call to n8n's store, a claim is read back no sooner than twice that call after its write", async () => {
		// How many times the slowest call n8n waits (this file's setup keeps it).
		const { PROOF_WAIT_SLOWEST_TIMES: times } = await vi.importActual<N8nFacts>(
			'../../../../../nodes/Peach/actions/run/record/n8n',
		);
		const fake = new FakeDeduplicationStore();
		const helpers = fake.helpersFor('wf-slow', 'node-1');
		const slowMs = 10 * TEST_PROOF_WAIT_MS;
		let slowCalls = 1;
		const writes: number[] = [];
		const store = new RecordStore(
			{
				...helpers,
				checkProcessedAndRecord: async (...args) => {
					if (slowCalls-- > 0) await sleep(slowMs);
					writes.push(Date.now());
					return await helpers.checkProcessedAndRecord(...args);
				},
			},
			'wf-slow|node-1',
		);
		expect(proofWaitMs()).toBe(TEST_PROOF_WAIT_MS);
		// The slow call: a claim nothing waits on.
		await store.claim(['the slow one'], []);
		expect(proofWaitMs()).toBeGreaterThanOrEqual(times * slowMs);
		await store.claim(['a claim'], ['a claim']);
		// The claim's write, then the proof's read.
		const [write, read] = writes.slice(-2);
		expect(read - write).toBeGreaterThanOrEqual(times * slowMs - 1);
		expect(fake.has('a claim', 'wf-slow')).toBe(true);
	});
});
