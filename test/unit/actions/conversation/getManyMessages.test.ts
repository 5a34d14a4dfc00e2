import { describe, expect, it } from 'vitest';

import { run } from './run';

describe('Conversation', () => {
	it('Get Many Messages: GET /messages with the filters, every page', async () => {
		const { requests, output } = await run(
			{
				resource: 'conversation',
				operation: 'getManyMessages',
				returnAll: true,
				filters: {
					phoneNumber: '+91 99887 76655',
					conversationId: 'conv_1',
					businessPhoneNumber: '919876543222',
					direction: 'inbound',
					from: '2030-01-01T00:00:00Z',
					to: '2030-01-02T00:00:00+05:30',
				},
			},
			[
				{
					statusCode: 200,
					body: {
						count: 2,
						next: 'https://x/api/v1/messages?page=2',
						previous: null,
						messages: [{ id: 1 }],
					},
				},
				{ statusCode: 200, body: { count: 2, next: null, previous: 'x', messages: [{ id: 2 }] } },
			],
		);
		expect(requests[0].url).toBe('https://peach.test/api/v1/messages');
		expect(requests[0].options.qs).toEqual({
			phone_number: '+919988776655',
			conversation_id: 'conv_1',
			business_phone_number: '919876543222',
			direction: 'inbound',
			from: '2030-01-01T00:00:00.000Z',
			to: '2030-01-01T18:30:00.000Z',
			page: 1,
		});
		expect(
			(output as Array<Array<{ json: { id: number } }>>)[0].map((item) => item.json.id),
		).toEqual([1, 2]);
	});
});
