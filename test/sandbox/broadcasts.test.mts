import { describe, expect, it } from 'vitest';

import { useSandbox } from './harness.mts';

const t = useSandbox(100);

const launch = (broadcast: Record<string, unknown>) =>
	t.api('POST', '/api/v1/events', {
		event_type: 'send_broadcast',
		broadcast: {
			name: 'Spring',
			whats_app_template_id: 'wat_welcome',
			delivery_mode: 'instant',
			...broadcast,
		},
	});

describe('broadcasts', () => {
	it('launches to contacts: event pending then processed with the campaign, deliveries for each contact, then sent', async () => {
		const contacts = [
			{ phone_number: '+14155550101', name: 'A', liquid_values: { first_name: 'A' } },
			{ phone_number: '+14155550102', name: 'B' },
		];
		const launched = await launch({ contacts });
		expect(launched.status).toBe(200);
		const eventId = launched.json.event_id;
		expect((await t.api('GET', `/api/v1/events/${eventId}`)).json.status).toBe('pending');
		await t.until(
			async () => (await t.api('GET', `/api/v1/events/${eventId}`)).json.status === 'processed',
		);
		const event = (await t.api('GET', `/api/v1/events/${eventId}`)).json;
		expect(event.result).toMatchObject({ type: 'campaign', name: 'Spring', audience_count: 2 });
		const id = event.result.id;
		await t.until(
			async () => (await t.api('GET', `/api/v1/broadcasts/${id}`)).json.status === 'sent',
		);
		const delivered = t.received.filter(
			(entry) => (entry.body as { type: string }).type === 'message_delivery.delivered',
		);
		expect(delivered).toHaveLength(2);
		expect((await t.api('GET', `/api/v1/template_messages?broadcast_id=${id}`)).json.count).toBe(2);
	});

	it('accepts both delivery-mode readings (gradual, smart), refuses others, and contacts with audience', async () => {
		expect((await launch({ audience_id: 'aud_1', delivery_mode: 'gradual' })).status).toBe(200);
		expect((await launch({ audience_id: 'aud_1', delivery_mode: 'smart' })).status).toBe(200);
		const bad = await launch({
			audience_id: 'aud_1',
			contacts: [{ phone_number: '12' }],
			delivery_mode: 'slow',
			whats_app_template_id: 'wat_old_offer',
		});
		expect(bad.status).toBe(422);
		expect(bad.json.reason.broadcast.delivery_mode).toEqual([
			'must be one of instant, gradual, smart',
		]);
		expect(bad.json.reason.broadcast.base).toEqual(['give contacts or audience_id, not both']);
		expect(bad.json.reason['broadcast.contacts[0]'].phone_number[0]).toContain('E.164');
		expect(bad.json.reason.broadcast.whats_app_template_id[0]).toContain('not approved');
	});

	it('lists by status, gets one, 404s an unknown one', async () => {
		const sent = await t.api('GET', '/api/v1/broadcasts?status=sent');
		expect(sent.json.broadcasts.map((b: { id: string }) => b.id)).toEqual(['cmp_new_year']);
		expect((await t.api('GET', '/api/v1/broadcasts/cmp_new_year')).json.name).toBe(
			'New year greetings',
		);
		expect((await t.api('GET', '/api/v1/broadcasts/cmp_nope')).status).toBe(404);
	});

	it('archives only a finished broadcast and cancels only an active one', async () => {
		const cancelSent = await t.api('PATCH', '/api/v1/broadcasts/cmp_new_year/cancel');
		expect(cancelSent.status).toBe(422);
		expect(cancelSent.json.reason.status[0]).toBe(
			'cannot cancel a broadcast that is sent (only scheduled or queued or sending)',
		);
		expect((await t.api('PATCH', '/api/v1/broadcasts/cmp_new_year/archive')).json.status).toBe(
			'archived',
		);
		const scheduled = await launch({
			audience_id: 'aud_1',
			scheduled_launch_time: '2999-01-01T00:00:00Z',
		});
		await t.until(
			async () =>
				(await t.api('GET', `/api/v1/events/${scheduled.json.event_id}`)).json.status ===
				'processed',
		);
		const id = (await t.api('GET', `/api/v1/events/${scheduled.json.event_id}`)).json.result.id;
		expect((await t.api('PATCH', `/api/v1/broadcasts/${id}/archive`)).status).toBe(422);
		expect((await t.api('PATCH', `/api/v1/broadcasts/${id}/cancel`)).json.status).toBe('canceled');
	});

	it('lists a launched broadcast with its name, template and when it was created', async () => {
		const before = Date.now();
		await launch({ name: 'Listed', contacts: [{ phone_number: '+14155550109' }] });
		const list = (await t.api('GET', '/api/v1/broadcasts')).json;
		const listed = list.broadcasts.find((entry: { name: string }) => entry.name === 'Listed');
		expect(listed).toMatchObject({ whats_app_template_id: 'wat_welcome' });
		expect(listed.id).toMatch(/^cmp_/);
		expect(Date.parse(listed.created_at)).toBeGreaterThanOrEqual(before - 1000);
	});
});
