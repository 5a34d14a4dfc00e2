import { inLanes } from '../helpers/lanes';
import { perExecution } from '../helpers/perExecution';
import { requestOptionsOf } from './requestOptions';
import type { PeachContext } from './types';

/**
 * Concurrency: how many requests of an execution are with Peach at once (the width). Peach
 * documents no rate limit, so the width is found the way TCP and the AWS SDKs' "adaptive retry mode"
 * find a rate: it halves on a 429 (Peach did not take the request) and narrows by a quarter when
 * answers slow down, at most once per round trip, and otherwise grows: doubling each round trip
 * while Peach answers promptly, then by one per round trip; never above the ceiling the user allows
 * (Max Concurrent Requests). Where it starts depends on what this n8n process was told lately: when
 * no answer made a width narrow in the last WIDTH.heldBackMs, the first round is as wide as the
 * ceiling (a run with fewer items than that sends them all at once); after one, it starts narrow.
 */
export const WIDTH = {
	/** Where an execution starts after this process was told to hold back (or the ceiling, if lower). */
	start: 32,
	/** How long a 429 or a slower answer makes this process's executions start at `start`. */
	heldBackMs: 5 * 60_000,
	/** An answer this many times slower than the quickest, plus the margin, means Peach slows down. */
	slowFactor: 3,
	slowMarginMs: 250,
	/** The shortest round trip counted, so a fast local Peach does not narrow on every blip. */
	minRoundTripMs: 50,
} as const;

/**
 * What this n8n process was told lately: when an answer last made a width narrow (a 429, a slower
 * answer), in any of its executions.
 */
export class Lately {
	private narrowedAt = -Infinity;

	constructor(
		/** A monotonic clock in ms. */
		private readonly now: () => number = () => performance.now(),
	) {}

	/** A width narrowed now. */
	narrowed(): void {
		this.narrowedAt = this.now();
	}

	/** Whether no width narrowed within WIDTH.heldBackMs. */
	get quiet(): boolean {
		return this.now() - this.narrowedAt >= WIDTH.heldBackMs;
	}
}

const thisProcess = new Lately();

export class Width {
	private width: number;
	private threshold: number;
	private fastestMs = Infinity;
	private narrowedAt = -Infinity;
	/** Started at the ceiling (the process was quiet) and not refused yet. */
	private wide: boolean;
	/** Places held now, and the tries waiting for one (in the order they came). */
	private held = 0;
	private readonly queue: Array<() => void> = [];

	constructor(
		readonly ceiling: number,
		/** A monotonic clock in ms (a wall clock can step back). */
		private readonly now: () => number = () => performance.now(),
		/** What the process was told lately (the executions' widths share it). */
		private readonly lately: Lately = thisProcess,
	) {
		this.wide = lately.quiet && ceiling > WIDTH.start;
		this.width = this.wide ? ceiling : Math.min(ceiling, WIDTH.start);
		this.threshold = ceiling;
	}

	/** How many requests may be under way now. */
	get current(): number {
		return Math.max(1, Math.floor(this.width));
	}

	/**
	 * A place among the tries with Peach at once: at most `current`. A try holds it for its exchange
	 * and, after a 429, while it waits Peach's Retry-After (request.ts), so a narrower width means
	 * fewer requests, those sent again after Retry-After included, not only fewer new ones. `release`
	 * gives it back; places go in the order they were asked for.
	 */
	async place(): Promise<void> {
		if (this.held < this.current && this.queue.length === 0) {
			this.held++;
			return;
		}
		await new Promise<void>((resolve) => this.queue.push(resolve));
	}

	release(): void {
		this.held--;
		this.admit();
	}

	private admit(): void {
		while (this.queue.length && this.held < this.current) {
			this.held++;
			(this.queue.shift() as () => void)();
		}
	}

	/** Peach answered after `ms`; `rateLimited` when the answer was a 429. */
	answered(ms: number, rateLimited: boolean): void {
		this.adjust(ms, rateLimited);
		this.admit();
	}

	private adjust(ms: number, rateLimited: boolean): void {
		if (!rateLimited) this.fastestMs = Math.min(this.fastestMs, ms);
		const roundTrip = Math.max(
			Number.isFinite(this.fastestMs) ? this.fastestMs : ms,
			WIDTH.minRoundTripMs,
		);
		const slow = !rateLimited && ms > WIDTH.slowFactor * this.fastestMs + WIDTH.slowMarginMs;
		if (rateLimited || slow) {
			const now = this.now();
			if (now - this.narrowedAt < roundTrip) return;
			this.narrowedAt = now;
			this.lately.narrowed();
			this.width = Math.max(1, rateLimited ? this.width / 2 : this.width * 0.75);
			// A wide start Peach refuses: back to where an execution starts after a 429, so a limit
			// below the ceiling costs one round of refusals, not one per halving.
			if (rateLimited && this.wide) this.width = Math.min(this.width, WIDTH.start);
			this.wide = false;
			this.threshold = this.width;
			return;
		}
		this.width = Math.min(
			this.ceiling,
			this.width < this.threshold ? this.width + 1 : this.width + 1 / this.width,
		);
	}
}

/** The width of this execution's requests (list searches and hooks get one of their own). */
export const widthOf = perExecution(
	(context: PeachContext): Width => new Width(requestOptionsOf(context).concurrency),
);

/**
 * Runs `work` for every entry with the execution's concurrency: as many at a time as its width allows
 * now (Max Concurrent Requests is the ceiling), the entries of one lane (`laneOf`: one contact, one
 * record) one after another in input order.
 */
export async function concurrently<T>(
	context: PeachContext,
	entries: T[],
	laneOf: (entry: T) => string | undefined,
	work: (entry: T) => Promise<void>,
): Promise<void> {
	await inLanes(entries, laneOf, () => widthOf(context).current, work);
}
