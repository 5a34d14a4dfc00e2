import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { Peach } from '../../../nodes/Peach/Peach.node';
import { createExecuteContext, type FakeResponse, runPeach } from '../support/harness';
import { sends } from '../support/recoveryRuns';

/**
 * Simulated time: every timer (n8n's sleep is one), Date and performance.now run on vitest's fake
 * clock, advanced in small steps while the node runs, so that concurrent waits overlap as they do.
 */
beforeEach(() => {
	vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date', 'performance'] });
});
afterEach(() => {
	vi.useRealTimers();
});

async function untilSettled<T>(work: Promise<T>, stepMs = 10): Promise<T> {
	let settled = false;
	const done = work.finally(() => {
		settled = true;
	});
	while (!settled) await vi.advanceTimersByTimeAsync(stepMs);
	return await done;
}

/**
 * Backing off means fewer requests: while Peach answers 429, the requests with Peach at once (retries
 * of refused ones included) stay within the execution's width, which halves on each 429.
 */
describe('a rate-limited Peach (429, Retry-After 1 s, for 30 s)', () => {
	it('400 sends, Max Concurrent Requests 200: one try a second at width 1, never more at once than the width', async () => {
		// Retries included.
		const startedAt = performance.now();
		const refusingUntil = startedAt + 30_000;
		let withPeach = 0;
		let mostAtOnce = 0;
		let refused = 0;
		/** Refusals from 10 s on, while Peach still refuses. */
		let refusedLater = 0;
		/** From 6 s on while Peach refuses (the width has long come down to 1), the most requests with Peach at once. */
		let mostAtOnceLater = 0;
		const answer = (): FakeResponse => {
			if (performance.now() < refusingUntil) {
				refused++;
				if (performance.now() >= startedAt + 10_000) refusedLater++;
				return { statusCode: 429, headers: { 'retry-after': '1' }, body: {} };
			}
			return { statusCode: 201, body: { status: 'success', event_id: 'evt' } };
		};
		// Run by hand: its request function is wrapped to count the requests with Peach at once.
		const harness = createExecuteContext({
			params: sends(400, 200),
			answer,
			// Each request is with Peach for 100 ms.
			answerDelayMs: () => {
				withPeach++;
				mostAtOnce = Math.max(mostAtOnce, withPeach);
				if (performance.now() >= startedAt + 6_000 && performance.now() < refusingUntil)
					mostAtOnceLater = Math.max(mostAtOnceLater, withPeach);
				return 100;
			},
		});
		const sent = harness.httpRequestWithAuthentication.getMockImplementation();
		harness.httpRequestWithAuthentication.mockImplementation(async (...args) => {
			try {
				return await (sent as NonNullable<typeof sent>)(...args);
			} finally {
				// The sends (the template read before them is answered apart, at once).
				if (args[1].method === 'POST') withPeach--;
			}
		});
		const output = await untilSettled(new Peach().execute.call(harness.context));
		expect(output[0]).toHaveLength(400);
		// The process was quiet, so the first round was as wide as the ceiling: 200 at once, all
		// refused. Then never more with Peach at once than the width, which falls to 32 (where an
		// execution starts after a 429) and halves on each later refusal: once those refusals are
		// answered, one request at a time (retries of refused ones too).
		expect(mostAtOnce).toBe(200);
		expect(mostAtOnceLater).toBe(1);
		// A refused try keeps its place while it waits its Retry-After: at width 1, one try a second
		// (before, each of the 32 refused at first went again every second: 896 refusals in 30 s).
		expect(refusedLater).toBeLessThanOrEqual(20);
		expect(refused).toBeLessThanOrEqual(200 + 32 + 2 * 30);
	});
});

describe('a Peach that refuses every request (429, Retry-After 1 s) for ever', () => {
	it('100 sends: the run fails once a request was refused for 300 s, waiting for its place included (not after 50 tries each)', async () => {
		const startedAt = performance.now();
		const { output } = await untilSettled(
			runPeach({
				params: sends(100),
				answer: () => ({ statusCode: 429, headers: { 'retry-after': '1' }, body: {} }),
				answerDelayMs: () => 100,
			}),
			100,
		);
		const error =
			output instanceof Error ? (output as Error & { description?: string }) : undefined;
		const seconds = (performance.now() - startedAt) / 1000;
		expect(error?.message).toMatch(/^Peach is rate-limiting requests \(429 Too Many Requests\)/);
		expect(error?.description).toMatch(
			/Peach kept answering 429 for 30\d s, so the node stopped waiting/,
		);
		// The first request refused at 0 s fails at 300 s, give or take one turn of the 32 refused at
		// first; the run ends when those under way have their answers.
		expect(seconds).toBeLessThan(400);
	});
});
