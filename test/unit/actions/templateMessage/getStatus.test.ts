import { describe, expect, it } from 'vitest';

import { attempt, run } from './statusRun';

const event = {
	id: 'evt_1',
	status: 'processed',
	result: { type: 'template_message', id: 'cmsg_1', status: 'delivered', failure_message: null },
};

describe('Template Message → Get Status', () => {
	it('GETs /events/{event_id} and puts the message and event status first', async () => {
		const { requests, output } = await run(
			{ resource: 'templateMessage', operation: 'getStatus', eventId: 'evt_1' },
			[{ statusCode: 200, body: event }],
		);
		expect([requests[0].options.method, requests[0].url]).toEqual([
			'GET',
			'https://peach.test/api/v1/events/evt_1',
		]);
		expect(requests[0].body).toBeUndefined();
		expect(output[0][0].json).toEqual({
			messageStatus: 'delivered',
			eventStatus: 'processed',
			failureMessage: null,
			...event,
		});
		expect(Object.keys(output[0][0].json).slice(0, 3)).toEqual([
			'messageStatus',
			'eventStatus',
			'failureMessage',
		]);
	});

	it('refuses an empty event ID before any request and names a missing event', async () => {
		const empty = await attempt(
			{ resource: 'templateMessage', operation: 'getStatus', eventId: '' },
			[],
		);
		expect((empty.output as Error).message).toBe('Event ID is empty');
		expect(empty.requests).toHaveLength(0);
		const missing = await run(
			{ resource: 'templateMessage', operation: 'getStatus', eventId: 'evt_x' },
			[{ statusCode: 404, body: { message: 'Event not found' } }],
			{ continueOnFail: true },
		);
		expect(missing.output[0][0].json.error).toBe(
			'Event "evt_x" was not found in Peach (Event not found)',
		);
	});
});
