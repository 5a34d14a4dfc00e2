import { describe, expect, it } from 'vitest';

import { locator } from '../../support/harness';
import { broadcast, run } from './run';

describe('Broadcast → Get Many, Get, Archive, Cancel, Get Status', () => {
	it('Get: GET /broadcasts/{id}; a missing one is named', async () => {
		const { requests, output } = await run(
			{ resource: 'broadcast', operation: 'get', broadcastId: locator('cmp_1') },
			[{ statusCode: 200, body: broadcast }],
		);
		expect(requests[0].url).toBe('https://peach.test/api/v1/broadcasts/cmp_1');
		expect(output[0][0].json).toEqual(broadcast);
		const missing = await run(
			{ resource: 'broadcast', operation: 'get', broadcastId: locator('cmp_x', 'id') },
			[{ statusCode: 404, body: { message: 'Broadcast not found' } }],
			{ continueOnFail: true },
		);
		expect(missing.output[0][0].json.error).toBe(
			'Broadcast "cmp_x" was not found in Peach (Broadcast not found)',
		);
	});
});
