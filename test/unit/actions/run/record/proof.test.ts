import { describe, expect, it, vi } from 'vitest';

import {
	PROOF_TRIES,
	Prover,
	RecordNotKept,
} from '../../../../../nodes/Peach/actions/run/record/proof';
import { TEST_PROOF_WAIT_MS } from '../../../support/proofWaitMs';

type N8nFacts = typeof import('../../../../../nodes/Peach/actions/run/record/n8n');

describe('the proof (proof.ts)', () => {
	it('n8n runs it with a wait of one second (the unit suite with a few milliseconds)', async () => {
		const shipped = await vi.importActual<N8nFacts>(
			'../../../../../nodes/Peach/actions/run/record/n8n',
		);
		expect(shipped.PROOF_WAIT_MS).toBe(1000);
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

	it('a claim found missing is written again by the read and proven from that write; one the store loses every time is not kept', async () => {
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
});
