import { sleep } from 'n8n-workflow';

/**
 * The unit suite's wait before a claim is read back (record/n8n.ts, PROOF_WAIT_MS), set by
 * proofWait.ts: a few milliseconds instead of a second. The model's other writers (n8nRecovery.ts,
 * the attack model) write their older copies within a call's round trip, so the proof's assumption
 * holds there as in n8n.
 */
export const TEST_PROOF_WAIT_MS = 8;

/**
 * Until what a run left to prove beside the next runs is proven and what it replaces removed (a
 * folded group's claims, what a run's summary replaces: record/store.ts).
 */
export async function afterProofs(): Promise<void> {
	await sleep(TEST_PROOF_WAIT_MS * 8);
}
