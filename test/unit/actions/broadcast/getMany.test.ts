import { describe, expect, it } from 'vitest';

import { broadcast, run } from './run';

describe('Broadcast → Get Many, Get, Archive, Cancel, Get Status', () => {
	it('Get Many: status filter, every page', async () => {
		const { requests, output } = await run(
			{ resource: 'broadcast', operation: 'getMany', returnAll: true, filters: { status: 'sent' } },
			[
				{
					statusCode: 200,
					body: { count: 2, next: 'https://x/api/v1/broadcasts?page=2', broadcasts: [broadcast] },
				},
				{
					statusCode: 200,
					body: { count: 2, next: null, broadcasts: [{ ...broadcast, id: 'cmp_2' }] },
				},
			],
		);
		expect(requests.map((r) => [r.url, r.options.qs])).toEqual([
			['https://peach.test/api/v1/broadcasts', { status: 'sent', page: 1 }],
			['https://peach.test/api/v1/broadcasts', { status: 'sent', page: 2 }],
		]);
		expect(output[0].map((item) => item.json.id)).toEqual(['cmp_1', 'cmp_2']);
	});
});
