import { inLanes } from '../helpers/lanes';
import { requestOptionsOf } from './requestOptions';
import type { PeachContext } from './types';

/**
 * Concurrency: how many requests of an execution are with Peach at once (the width). Peach
 * documents no rate limit, so the width is found the way TCP and the AWS SDKs' adaptive retry mode
 * find a rate: it starts narrow, doubles each round trip while Peach answers promptly (then grows by
 * one per round trip), halves on a 429 (Peach did not take the request) and narrows by a quarter when
 * answers slow down, at most once per round trip; never above the ceiling the user allows (Max
 * Concurrent Requests).
 */
export const WIDTH = {
	/** Where an execution starts (or the ceiling, if lower). */
	start: 32,
	/** An answer this many times slower than the quickest, plus the margin, means Peach slows down. */
	slowFactor: 3,
	slowMarginMs: 250,
	/** The shortest round trip counted, so a fast local Peach does not narrow on every blip. */
	minRoundTripMs: 50,
} as const;

export class Width {
	private width: number;
	private threshold: number;
	private fastestMs = Infinity;
	private narrowedAt = -Infinity;
	/** Places held now, and the tries waiting for one (in the order they came). */
	private held = 0;
	private readonly queue: Array<() => void> = [];

	constructor(
		readonly ceiling: number,
		/** A monotonic clock in ms (a wall clock can step back). */
		private readonly now: () => number = () => performance.now(),
	) {
		this.width = Math.min(ceiling, WIDTH.start);
		this.threshold = ceiling;
	}

	/** How many requests may be under way now. */
	get current(): number {
		return Math.max(1, Math.floor(this.width));
	}

	/**
	 * A place among the tries with Peach at once: at most `current`. A try holds it for its exchange
	 * and, after a 429, while it waits Peach's Retry-After (request.ts), so a narrower width means
	 * fewer requests, retries included, not only fewer new ones. `release` gives it back; places go
	 * in the order they were asked for.
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
			this.width = Math.max(1, rateLimited ? this.width / 2 : this.width * 0.75);
			this.threshold = this.width;
			return;
		}
		this.width = Math.min(
			this.ceiling,
			this.width < this.threshold ? this.width + 1 : this.width + 1 / this.width,
		);
	}
}

const widths = new WeakMap<object, Width>();

/** The width of this execution's requests (list searches and hooks get one of their own). */
export function widthOf(context: PeachContext): Width {
	let width = widths.get(context);
	if (!width) {
		width = new Width(requestOptionsOf(context).concurrency);
		widths.set(context, width);
	}
	return width;
}

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
