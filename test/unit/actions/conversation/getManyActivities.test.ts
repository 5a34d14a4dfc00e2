import { describe, expect, it } from 'vitest';

import { run } from './run';

describe('Conversation → Get Many Activities', () => {
	it('GET /activities page by page with the query rows as given; Return All reads to the end', async () => {
		const { requests, output } = await run(
			{
				resource: 'conversation',
				operation: 'getManyActivities',
				returnAll: true,
				query: { values: [{ key: 'conversation_id', value: 'conv_1' }] },
			},
			[
				{
					statusCode: 200,
					body: {
						count: 3,
						next: 'https://peach.test/api/v1/activities?page=2',
						activities: [{ id: 1 }, { id: 2 }],
					},
				},
				{ statusCode: 200, body: { count: 3, next: null, activities: [{ id: 3 }] } },
			],
		);
		expect(
			requests.map((request) => [request.options.method, request.url, request.options.qs]),
		).toEqual([
			['GET', 'https://peach.test/api/v1/activities', { conversation_id: 'conv_1', page: 1 }],
			['GET', 'https://peach.test/api/v1/activities', { conversation_id: 'conv_1', page: 2 }],
		]);
		expect((output as Array<Array<{ json: unknown }>>)[0].map((item) => item.json)).toEqual([
			{ id: 1 },
			{ id: 2 },
			{ id: 3 },
		]);
	});

	it('a bare list answer works too; Limit stops reading once reached', async () => {
		const { requests, output } = await run(
			{ resource: 'conversation', operation: 'getManyActivities', returnAll: false, limit: 2 },
			[{ statusCode: 200, body: [{ id: 1 }, { id: 2 }, { id: 3 }] }],
		);
		expect(requests).toHaveLength(1);
		expect((output as Array<Array<{ json: unknown }>>)[0]).toHaveLength(2);
	});

	it('page or per in the query rows is refused before any request: the node pages itself', async () => {
		const { requests, output } = await run(
			{
				resource: 'conversation',
				operation: 'getManyActivities',
				query: { values: [{ key: 'page', value: '3' }] },
			},
			[],
		);
		expect((output as Error).message).toBe(
			'Query Parameters "page" is set by the node, which reads every page itself',
		);
		expect(requests).toHaveLength(0);
	});
});
