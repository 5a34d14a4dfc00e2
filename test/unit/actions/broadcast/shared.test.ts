import { describe, expect, it } from 'vitest';

import { locator } from '../../support/harness';
import { broadcast, run } from './run';

/** Archive and Cancel: one shared change (shared.ts, changeBroadcast). */
describe('Broadcast → Get Many, Get, Archive, Cancel, Get Status', () => {
	it.each(['archive', 'cancel'])(
		"%s: PATCH /broadcasts/{id}/%s without a body; a refusal shows Peach's reason",
		async (action) => {
			const { requests, output } = await run(
				{ resource: 'broadcast', operation: action, broadcastId: locator('cmp_1') },
				[{ statusCode: 200, body: { ...broadcast, status: `${action}d` } }],
			);
			expect([requests[0].options.method, requests[0].url, requests[0].body]).toEqual([
				'PATCH',
				`https://peach.test/api/v1/broadcasts/cmp_1/${action}`,
				undefined,
			]);
			expect(output[0][0].json.status).toBe(`${action}d`);
			const refused = await run(
				{ resource: 'broadcast', operation: action, broadcastId: locator('cmp_1') },
				[{ statusCode: 422, body: { status: 'failed', reason: { status: ['cannot do it'] } } }],
				{ continueOnFail: true },
			);
			expect(refused.output[0][0].json.error).toBe('status: cannot do it');
		},
	);
});
