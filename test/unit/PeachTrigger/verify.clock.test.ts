import { describe, expect, it, vi } from 'vitest';

import { verifySecret } from '../../../nodes/PeachTrigger/verify';

/** What the user gave is what happens: time bounded (the trigger's verify.ts). */

describe('bounds', () => {
	it("the trigger's kept secret ages by a monotonic clock: a wall clock stepped back does not keep a replaced secret", async () => {
		vi.useFakeTimers({ toFake: ['Date', 'performance'] });
		try {
			let secret = 'old-secret';
			const read = vi.fn(async () => secret);
			expect(await verifySecret('old-secret', 'wf|node|cred-monotonic', read)).toBe(true);
			secret = 'new-secret';
			// 11 s pass, and the wall clock is stepped back an hour (time sync, a restored VM).
			vi.advanceTimersByTime(11_000);
			vi.setSystemTime(Date.now() - 3_600_000);
			expect(await verifySecret('old-secret', 'wf|node|cred-monotonic', read)).toBe(false);
			expect(await verifySecret('new-secret', 'wf|node|cred-monotonic', read)).toBe(true);
		} finally {
			vi.useRealTimers();
		}
	});
});
