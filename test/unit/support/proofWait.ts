import { vi } from 'vitest';

/**
 * The unit suite's setup (vitest.config.mts): the proof's wait is TEST_PROOF_WAIT_MS
 * (proofWaitMs.ts), fixed: the model's other writers write within a call's round trip, and a wait
 * that followed the suite's own pauses (other test files beside it, the garbage collector) would
 * only slow it. The values n8n runs with, and the wait following slow calls, are record/proof.test.ts's.
 */
vi.mock('../../../nodes/Peach/actions/run/record/n8n', async (importOriginal) => ({
	...(await importOriginal<typeof import('../../../nodes/Peach/actions/run/record/n8n')>()),
	PROOF_WAIT_MS: (await import('./proofWaitMs')).TEST_PROOF_WAIT_MS,
	PROOF_WAIT_SLOWEST_TIMES: 0,
}));
