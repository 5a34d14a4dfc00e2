import { describe, expect, it } from 'vitest';

import { run } from './run';

describe('Conversation', () => {
	it('Get Many: GET /conversations with status, escalated, activity type, call permission, limit', async () => {
		const { requests } = await run(
			{
				resource: 'conversation',
				operation: 'getMany',
				returnAll: false,
				limit: 5,
				filters: {
					status: 'open',
					escalated: false,
					activityType: 'assignment',
					hasCallPermission: true,
				},
			},
			[{ statusCode: 200, body: { count: 0, next: null, conversations: [] } }],
		);
		expect(requests[0].options.qs).toEqual({
			status: 'open',
			escalated: false,
			activity_type: 'assignment',
			has_call_permission: true,
			page: 1,
		});
	});
});
