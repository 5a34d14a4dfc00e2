import { describe, expect, it } from 'vitest';

import { Lately, Width, WIDTH } from '../../../nodes/Peach/transport/width';

/** `count` answers to `width`, each after `ms` and none a 429. */
function answeredPromptly(width: Width, count: number, ms = 100) {
	for (let answer = 0; answer < count; answer++) width.answered(ms, false);
}

/**
 * A round trip (200 ms) on, a 429 halves `width` to `halved`; `halved` prompt answers (a round trip's
 * worth) keep it there, and `more` after them add one: growth is additive, not doubling.
 */
function halvesThenGrowsByOne(width: Width, clock: { now: number }, halved: number, more: number) {
	clock.now += 200;
	width.answered(100, true);
	expect(width.current).toBe(halved);
	answeredPromptly(width, halved);
	expect(width.current).toBe(halved);
	answeredPromptly(width, more);
	expect(width.current).toBe(halved + 1);
}

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

	/** A controller (ceiling 64) grown to 40 by 8 prompt answers, a second before its next answer. */
	function grownTo40() {
		const grown = controller(64);
		answeredPromptly(grown.width, 8);
		expect(grown.width.current).toBe(40);
		grown.clock.now += 1000;
		return grown;
	}

	it('after a recent 429 in this process: starts narrow, doubles each prompt round trip, never above the ceiling', () => {
		const { width, clock } = controller(200);
		expect(width.current).toBe(WIDTH.start);
		const seen = [width.current];
		for (let round = 0; round < 4; round++) {
			clock.now += 100;
			const answers = width.current;
			answeredPromptly(width, answers);
			seen.push(width.current);
		}
		expect(seen).toEqual([32, 64, 128, 200, 200]);
		const low = controller(3);
		expect(low.width.current).toBe(3);
		answeredPromptly(low.width, 50, 10);
		expect(low.width.current).toBe(3);
	});

	it('halves on a 429, once per round trip; then grows by one per round trip', () => {
		const { width, clock } = grownTo40();
		width.answered(100, true);
		expect(width.current).toBe(20);
		// More 429s of the same round trip do not narrow it again.
		width.answered(100, true);
		width.answered(100, true);
		expect(width.current).toBe(20);
		// Additive growth: about one more per round trip (10 answers at width 10), not doubling.
		halvesThenGrowsByOne(width, clock, 10, 11);
	});

	it('narrows by a quarter when answers slow down (3× the quickest + 250 ms)', () => {
		const { width } = grownTo40();
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

	it("a 429 or a slower answer in one execution makes the process's next ones start narrow, until 5 quiet minutes", () => {
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
		answeredPromptly(prompt, 500);
		expect(widthAt().current).toBe(200);
	});

	it('a refused (429) first round at the ceiling falls to a held-back start, halves per round trip, grows by one', () => {
		// Falls to where a held-back start begins; then halves once per round trip and grows by one per round trip.
		const { width, clock } = controller(200, true);
		clock.now += 1000;
		width.answered(100, true);
		width.answered(100, true);
		expect(width.current).toBe(WIDTH.start);
		halvesThenGrowsByOne(width, clock, 16, 2);
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
