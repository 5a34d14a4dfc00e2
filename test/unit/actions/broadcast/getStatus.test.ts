import { describe, expect, it } from 'vitest';

import { run } from './run';

describe('Broadcast → Get Many, Get, Archive, Cancel, Get Status', () => {
	it('Get Status: the event status, broadcast ID and stats first', async () => {
		const event = {
			id: 'evt_b',
			status: 'processed',
			result: { type: 'campaign', id: 'cmp_1', stats: { sent: 2 } },
		};
		const { requests, output } = await run(
			{
				resource: 'broadcast',
				operation: 'getStatus',
				eventId: 'evt_b',
				waitUntilProcessed: false,
			},
			[{ statusCode: 200, body: event }],
		);
		expect(requests[0].url).toBe('https://peach.test/api/v1/events/evt_b');
		expect(output[0][0].json).toEqual({
			eventStatus: 'processed',
			broadcastId: 'cmp_1',
			stats: { sent: 2 },
			...event,
		});
	});
});
