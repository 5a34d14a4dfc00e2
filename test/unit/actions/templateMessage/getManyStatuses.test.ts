import { NodeApiError } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { locator } from '../../support/harness';
import { attempt, run } from './statusRun';

describe('Template Message → Get Many Statuses', () => {
	const base = {
		resource: 'templateMessage',
		operation: 'getManyStatuses',
		returnAll: true,
		filters: {},
	};
	const page = (ids: number[], next: string | null) => ({
		statusCode: 200,
		body: {
			count: 3,
			next,
			prev: null,
			template_messages: ids.map((id) => ({ id: `cmsg_${id}`, status: 'sent' })),
		},
	});

	it('reads every page with per=1000, filters by broadcast and updated since (UTC)', async () => {
		const { requests, output } = await run(
			{
				...base,
				filters: { broadcastId: locator('cmp_1'), updatedSince: '2030-01-01T10:00:00+05:30' },
			},
			[
				page([1, 2], 'https://app.trypeach.io/api/v1/template_messages?page=2&per=1000'),
				page([3], null),
			],
		);
		expect(requests.map((request) => request.options.qs)).toEqual([
			{ broadcast_id: 'cmp_1', updated_since: '2030-01-01T04:30:00.000Z', page: 1, per: 1000 },
			{ broadcast_id: 'cmp_1', updated_since: '2030-01-01T04:30:00.000Z', page: 2, per: 1000 },
		]);
		expect(output[0].map((item) => [item.json.id, item.pairedItem])).toEqual([
			['cmsg_1', { item: 0 }],
			['cmsg_2', { item: 0 }],
			['cmsg_3', { item: 0 }],
		]);
	});

	it('with a Limit asks for that many per page and stops there', async () => {
		const { requests, output } = await run({ ...base, returnAll: false, limit: 2 }, [
			page([1, 2], 'https://app.trypeach.io/api/v1/template_messages?page=2&per=2'),
		]);
		expect(requests.map((request) => request.options.qs)).toEqual([{ page: 1, per: 2 }]);
		expect(output[0]).toHaveLength(2);
	});

	it('a failure is a NodeApiError with Peach text', async () => {
		const { output: error } = await attempt(base, [
			{
				statusCode: 422,
				body: { status: 'failed', reason: { per: ['must be between 1 and 1000'] } },
			},
		]);
		expect(error).toBeInstanceOf(NodeApiError);
		expect((error as Error).message).toBe('per: must be between 1 and 1000');
	});
});
