/**
 * Runs `work` for every entry, at most `width()` at a time (asked again whenever a slot frees, so the
 * width may change while it runs), resolving when all are done. Entries of one lane (the same
 * `laneOf`: one contact, one record) run one after another in input order; entries without a lane
 * run side by side. A free slot always takes the earliest entry (in input order) whose lane is not
 * busy, so at width 1 every entry runs exactly in input order. `work` keeps its own failures (a
 * rejection would leave the others running).
 */
export async function inLanes<T>(
	entries: T[],
	laneOf: (entry: T) => string | undefined,
	width: () => number,
	work: (entry: T) => Promise<void>,
): Promise<void> {
	// Each lane's entries in input order, and a heap of the lanes that may start, by their next entry.
	const lanes = lanesOf(entries, laneOf);
	const next = lanes.map(() => 0);
	const ready = new MinHeap();
	lanes.forEach((lane, index) => ready.push(lane[0], index));

	let running = 0;
	let finished = 0;
	let failure: { error: unknown } | undefined;
	return await new Promise<void>((resolve, reject) => {
		if (entries.length === 0) {
			resolve();
			return;
		}
		const start = () => {
			while (ready.size > 0 && running < Math.max(1, width())) {
				const lane = ready.pop();
				const index = lanes[lane][next[lane]++];
				running++;
				const done = () => {
					running--;
					finished++;
					if (next[lane] < lanes[lane].length) ready.push(lanes[lane][next[lane]], lane);
					if (finished < entries.length) start();
					else if (failure) reject(failure.error);
					else resolve();
				};
				work(entries[index]).then(done, (error: unknown) => {
					failure ??= { error };
					done();
				});
			}
		};
		start();
	});
}

/**
 * The entries' positions, grouped in lanes in the order the lanes first appear: the entries of one
 * `laneOf` in input order; an entry without a lane alone in a lane of its own.
 */
function lanesOf<T>(entries: T[], laneOf: (entry: T) => string | undefined): number[][] {
	const lanes: number[][] = [];
	const laneIndex = new Map<string, number>();
	entries.forEach((entry, index) => {
		const key = laneOf(entry);
		let lane = key === undefined ? undefined : laneIndex.get(key);
		if (lane === undefined) {
			lane = lanes.length;
			lanes.push([]);
			if (key !== undefined) laneIndex.set(key, lane);
		}
		lanes[lane].push(index);
	});
	return lanes;
}

/** Lanes by the input position of their next entry: the smallest first. */
class MinHeap {
	private readonly keys: number[] = [];
	private readonly values: number[] = [];

	get size(): number {
		return this.keys.length;
	}

	push(key: number, value: number): void {
		this.keys.push(key);
		this.values.push(value);
		let at = this.keys.length - 1;
		while (at > 0) {
			const parent = (at - 1) >> 1;
			if (this.keys[parent] <= this.keys[at]) break;
			this.swap(at, parent);
			at = parent;
		}
	}

	/** The value with the smallest key (the heap is not empty). */
	pop(): number {
		const top = this.values[0];
		const lastKey = this.keys.pop() as number;
		const lastValue = this.values.pop() as number;
		if (this.keys.length > 0) {
			this.keys[0] = lastKey;
			this.values[0] = lastValue;
			let at = 0;
			for (;;) {
				const left = at * 2 + 1;
				const right = left + 1;
				let smallest = at;
				if (left < this.keys.length && this.keys[left] < this.keys[smallest]) smallest = left;
				if (right < this.keys.length && this.keys[right] < this.keys[smallest]) smallest = right;
				if (smallest === at) break;
				this.swap(at, smallest);
				at = smallest;
			}
		}
		return top;
	}

	private swap(a: number, b: number): void {
		[this.keys[a], this.keys[b]] = [this.keys[b], this.keys[a]];
		[this.values[a], this.values[b]] = [this.values[b], this.values[a]];
	}
}
