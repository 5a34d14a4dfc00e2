import { vi } from 'vitest';

/**
 * The unit suite's setup (vitest.config.mts): the proof's wait is TEST_PROOF_WAIT_MS
 * (proofWaitMs.ts). The value n8n runs with is asserted by record/proof.test.ts.
 */
vi.mock('../../../nodes/Peach/actions/run/record/n8n', async (importOriginal) => ({
	...(await importOriginal<typeof import('../../../nodes/Peach/actions/run/record/n8n')>()),
	PROOF_WAIT_MS: (await import('./proofWaitMs')).TEST_PROOF_WAIT_MS,
}));
