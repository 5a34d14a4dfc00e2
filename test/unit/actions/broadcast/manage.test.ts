import { describe, expect, it } from 'vitest';

import { Peach } from '../../../../nodes/Peach/Peach.node';
import { createExecuteContext, type FakeResponse, locator } from '../../support/harness';

async function run(params: Record<string, unknown>, responses: FakeResponse[], extra = {}) {
	const harness = createExecuteContext({ params, responses, ...extra });
	const output = await new Peach().execute.call(harness.context);
	return { ...harness, output };
}

const broadcast = { id: 'cmp_1', name: 'Spring', status: 'sent' };

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
