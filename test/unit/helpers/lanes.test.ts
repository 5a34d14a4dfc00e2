import { sleep } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { inLanes } from '../../../nodes/Peach/helpers/lanes';

/** Runs entries (lane, ms) through inLanes, recording starts, overlaps and the most under way. */
async function throughLanes(
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
		const { started } = await throughLanes(
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
		const { started, most, overlapped } = await throughLanes(entries, () => 3);
		expect(started.filter((index) => entries[index].lane === 'A')).toEqual([0, 2, 4]);
		expect(started.filter((index) => entries[index].lane === 'B')).toEqual([1, 5]);
		expect(overlapped).toBe(false);
		expect(most).toBe(3);
		// A free slot takes the earliest entry whose lane is free: 3 (C) before 2 (A, busy).
		expect(started.slice(0, 3)).toEqual([0, 1, 3]);
	});

	it('follows a width that changes while it runs', async () => {
		let width = 2;
		const { most } = await throughLanes(
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
		const { started } = await throughLanes(entries, () => 50);
		expect(started).toHaveLength(10_000);
		expect(performance.now() - began).toBeLessThan(10_000);
	});
});
