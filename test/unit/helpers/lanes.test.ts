import { sleep } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { inLanes } from '../../../nodes/Peach/helpers/lanes';
import { Lately, Width, WIDTH } from '../../../nodes/Peach/transport/width';

/** Runs entries (lane, ms) through inLanes, recording starts, overlaps and the most under way. */
async function run(
	entries: Array<{ lane?: string; ms: number }>,
	width: () => number,
): Promise<{ started: number[]; most: number; overlapped: boolean }> {
	const started: number[] = [];
	const busy = new Set<string>();
	let running = 0;
	let most = 0;
	let overlapped = false;
	await inLanes(
		entries.map((entry, index) => ({ ...entry, index })),
		(entry) => entry.lane,
		width,
		async (entry) => {
			started.push(entry.index);
			running++;
			most = Math.max(most, running);
			if (entry.lane !== undefined) {
				if (busy.has(entry.lane)) overlapped = true;
				busy.add(entry.lane);
			}
			if (entry.ms > 0) await sleep(entry.ms);
			else await Promise.resolve();
			if (entry.lane !== undefined) busy.delete(entry.lane);
			running--;
		},
	);
	return { started, most, overlapped };
}

describe('lanes: the order things reach Peach', () => {
	it('at width 1, exactly input order, whatever the lanes (items 1 and 4 for one contact, 2 and 3 for others)', async () => {
		const { started } = await run(
			[
				{ lane: 'A', ms: 5 },
				{ lane: 'B', ms: 5 },
				{ lane: 'C', ms: 5 },
				{ lane: 'A', ms: 5 },
				{ ms: 5 },
				{ lane: 'B', ms: 5 },
			],
			() => 1,
		);
		expect(started).toEqual([0, 1, 2, 3, 4, 5]);
	});

	it("wider: one lane's entries one after another in input order, never two at once; others side by side", async () => {
		const entries = [
			{ lane: 'A', ms: 30 },
			{ lane: 'B', ms: 5 },
			{ lane: 'A', ms: 5 },
			{ lane: 'C', ms: 5 },
			{ lane: 'A', ms: 1 },
			{ lane: 'B', ms: 1 },
			{ ms: 1 },
			{ ms: 1 },
		];
		const { started, most, overlapped } = await run(entries, () => 3);
		expect(started.filter((index) => entries[index].lane === 'A')).toEqual([0, 2, 4]);
		expect(started.filter((index) => entries[index].lane === 'B')).toEqual([1, 5]);
		expect(overlapped).toBe(false);
		expect(most).toBe(3);
		// A free slot takes the earliest entry whose lane is free: 3 (C) before 2 (A, busy).
		expect(started.slice(0, 3)).toEqual([0, 1, 3]);
	});

	it('follows a width that changes while it runs', async () => {
		let width = 2;
		const { most } = await run(
			Array.from({ length: 20 }, () => ({ ms: 3 })),
			() => {
				width = Math.min(width + 1, 6);
				return width;
			},
		);
		expect(most).toBe(6);
	});

	it('10,000 entries for one contact and others: no quadratic scan', async () => {
		const entries = Array.from({ length: 10_000 }, (_, index) => ({
			lane: index % 2 === 0 ? 'A' : undefined,
			ms: -1,
		}));
		const began = performance.now();
		const { started } = await run(entries, () => 50);
		expect(started).toHaveLength(10_000);
		expect(performance.now() - began).toBeLessThan(10_000);
	});
});

describe('Width: as wide as Peach allows', () => {
	/**
	 * A controller on a clock the test moves, in a process (its `lately`) that a 429 told to hold
	 * back a moment ago (unless `quiet`).
	 */
	function controller(ceiling: number, quiet = false) {
		const clock = { now: 0 };
		const lately = new Lately(() => clock.now);
		if (!quiet) lately.narrowed();
		return { width: new Width(ceiling, () => clock.now, lately), clock, lately };
	}

	it('after a 429 in this process lately: starts narrow, doubles each round trip while answers are prompt, never above the ceiling', () => {
		const { width, clock } = controller(200);
		expect(width.current).toBe(WIDTH.start);
		const seen = [width.current];
		for (let round = 0; round < 4; round++) {
			clock.now += 100;
			const answers = width.current;
			for (let answer = 0; answer < answers; answer++) width.answered(100, false);
			seen.push(width.current);
		}
		expect(seen).toEqual([32, 64, 128, 200, 200]);
		const low = controller(3);
		expect(low.width.current).toBe(3);
		for (let answer = 0; answer < 50; answer++) low.width.answered(10, false);
		expect(low.width.current).toBe(3);
	});

	it('halves on a 429, once per round trip; then grows by one per round trip', () => {
		const { width, clock } = controller(64);
		for (let answer = 0; answer < 8; answer++) width.answered(100, false);
		expect(width.current).toBe(40);
		clock.now += 1000;
		width.answered(100, true);
		expect(width.current).toBe(20);
		// More 429s of the same round trip do not narrow it again.
		width.answered(100, true);
		width.answered(100, true);
		expect(width.current).toBe(20);
		clock.now += 200;
		width.answered(100, true);
		expect(width.current).toBe(10);
		// Additive growth: about one more per round trip (10 answers at width 10), not doubling.
		for (let answer = 0; answer < 10; answer++) width.answered(100, false);
		expect(width.current).toBe(10);
		for (let answer = 0; answer < 11; answer++) width.answered(100, false);
		expect(width.current).toBe(11);
	});

	it('narrows by a quarter when answers slow down (3× the quickest + 250 ms)', () => {
		const { width, clock } = controller(64);
		for (let answer = 0; answer < 8; answer++) width.answered(100, false);
		expect(width.current).toBe(40);
		clock.now += 1000;
		// 500 ms is within 3 × 100 + 250: a prompt answer still.
		width.answered(500, false);
		expect(width.current).toBe(41);
		width.answered(600, false);
		expect(width.current).toBe(30);
	});

	it('in a quiet process (no 429 or slower answer lately): the first round is as wide as the ceiling', () => {
		const { width } = controller(200, true);
		expect(width.current).toBe(200);
		expect(controller(5, true).width.current).toBe(5);
	});

	it('a 429 or a slower answer in one execution makes the next ones of the process start narrow, until the process was quiet for 5 minutes', () => {
		const clock = { now: 0 };
		const lately = new Lately(() => clock.now);
		const widthAt = () => new Width(200, () => clock.now, lately);
		const refused = widthAt();
		expect(refused.current).toBe(200);
		clock.now += 1000;
		refused.answered(100, true);
		// The execution that was refused narrows its own width; the next ones start narrow.
		expect(refused.current).toBe(WIDTH.start);
		expect(widthAt().current).toBe(WIDTH.start);
		clock.now += WIDTH.heldBackMs - 1;
		expect(widthAt().current).toBe(WIDTH.start);
		clock.now += 1;
		expect(widthAt().current).toBe(200);
		// A slower answer (beyond 3 × the quickest + 250 ms) holds back as a 429 does.
		const slowed = widthAt();
		slowed.answered(100, false);
		clock.now += 1000;
		slowed.answered(700, false);
		expect(slowed.current).toBe(150);
		expect(widthAt().current).toBe(WIDTH.start);
		// Prompt answers tell nothing: the process stays quiet.
		clock.now += WIDTH.heldBackMs;
		const prompt = widthAt();
		for (let answer = 0; answer < 500; answer++) prompt.answered(100, false);
		expect(widthAt().current).toBe(200);
	});

	it('a first round at the ceiling that Peach refuses (429) falls to where a held-back start begins, then halves once per round trip and grows by one per round trip', () => {
		const { width, clock } = controller(200, true);
		clock.now += 1000;
		width.answered(100, true);
		width.answered(100, true);
		expect(width.current).toBe(WIDTH.start);
		clock.now += 200;
		width.answered(100, true);
		expect(width.current).toBe(16);
		for (let answer = 0; answer < 16; answer++) width.answered(100, false);
		expect(width.current).toBe(16);
		for (let answer = 0; answer < 2; answer++) width.answered(100, false);
		expect(width.current).toBe(17);
		// A slower answer after a wide start narrows it by a quarter only.
		const slowed = controller(200, true);
		slowed.width.answered(100, false);
		slowed.clock.now += 1000;
		slowed.width.answered(700, false);
		expect(slowed.width.current).toBe(150);
	});

	it('never below one', () => {
		const { width, clock } = controller(8);
		for (let round = 0; round < 10; round++) {
			clock.now += 1000;
			width.answered(100, true);
		}
		expect(width.current).toBe(1);
	});
});
