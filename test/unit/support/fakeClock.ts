import type * as Workflow from 'n8n-workflow';
import { afterEach, beforeEach, vi } from 'vitest';

/**
 * A fake clock that n8n's sleep moves, so that pauses and timeouts are tested without waiting. A
 * test file mocks n8n-workflow with `withFakeSleep` (vi.mock is per file) and calls `onFakeClock`:
 *
 *   vi.mock('n8n-workflow', async (importOriginal) =>
 *     (await import('../support/fakeClock')).withFakeSleep(await importOriginal()));
 */

/** The clock's time (what Date.now and performance.now read) and every pause n8n's sleep made. */
export const clock = { now: 0, sleeps: [] as number[] };

/** n8n-workflow with its sleep moving `clock` instead of waiting. */
export function withFakeSleep(workflow: typeof Workflow): typeof Workflow {
	return {
		...workflow,
		sleep: async (ms: number) => {
			// A 0-ms sleep is a turn of the event loop (the delivery record uses one), not a pause.
			if (ms === 0) return await workflow.sleep(0);
			clock.sleeps.push(ms);
			clock.now += ms;
		},
	};
}

/** Each test of the file starts at `startsAt` with no pauses; Date.now and performance.now read the clock. */
export function onFakeClock(startsAt: number): void {
	beforeEach(() => {
		clock.sleeps.length = 0;
		clock.now = startsAt;
		vi.spyOn(Date, 'now').mockImplementation(() => clock.now);
		vi.spyOn(performance, 'now').mockImplementation(() => clock.now);
	});
	afterEach(() => {
		vi.restoreAllMocks();
	});
}
