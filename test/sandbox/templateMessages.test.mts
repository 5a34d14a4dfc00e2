import { describe, expect, it } from 'vitest';

import { useSandbox } from './harness.mts';

const t = useSandbox(100);
const contact = { phone_number: '+919988776655', name: 'Asha' };

describe('events: status, AI agent, app message', () => {
	it('GET /events/{id} follows the message to delivered', async () => {
		const sent = await t.api('POST', '/api/v1/events', {
			event_type: 'send_template_message',
			contact,
			template_message: { whats_app_template_id: 'wat_welcome' },
		});
		const id = sent.json.event_id;
		const first = await t.api('GET', `/api/v1/events/${id}`);
		expect(first.json).toMatchObject({
			id,
			status: 'processed',
			result: { type: 'template_message', status: 'queued' },
		});
		await t.until(
			async () => (await t.api('GET', `/api/v1/events/${id}`)).json.result.status === 'delivered',
		);
	});

	it('connect_to_ai_agent needs liquid_values and ai_agent.id; answers {status, event_id}', async () => {
		const missing = await t.api('POST', '/api/v1/events', {
			event_type: 'connect_to_ai_agent',
			contact,
			template_message: { whats_app_template_id: 'wat_welcome' },
			ai_agent: {},
		});
		expect(missing.status).toBe(422);
		expect(missing.json.reason).toEqual({
			template_message: { liquid_values: ['is required'] },
			ai_agent: { id: ["can't be blank"] },
		});
		const ok = await t.api('POST', '/api/v1/events', {
			event_type: 'connect_to_ai_agent',
			contact,
			template_message: {
				whats_app_template_id: 'wat_welcome',
				liquid_values: { first_name: 'Asha' },
			},
			ai_agent: { id: 'aiflw_1' },
		});
		expect(ok.status).toBe(200);
		expect(ok.json).toEqual({ status: 'success', event_id: expect.stringMatching(/^evt_/) });
	});

	it('send_app_message accepts the flow block (and app), refuses an unapproved fallback template', async () => {
		for (const block of ['flow', 'app']) {
			const ok = await t.api('POST', '/api/v1/events', {
				event_type: 'send_app_message',
				contact,
				[block]: { id: 'flw_1', liquid_values: { a: '1' }, whats_app_template_id: 'wat_welcome' },
			});
			expect(ok.status).toBe(200);
		}
		const bad = await t.api('POST', '/api/v1/events', {
			event_type: 'send_app_message',
			contact,
			flow: { id: 'flw_1', whats_app_template_id: 'wat_promo' },
		});
		expect(bad.status).toBe(422);
		expect(bad.json.reason.flow.whats_app_template_id[0]).toContain('is not approved');
	});
});

describe('GET /template_messages', () => {
	it('lists messages newest first with count/next/prev, filters by broadcast, checks per', async () => {
		for (const phone of ['+14155550101', '+14155550102', '+14155550103']) {
			await t.api('POST', '/api/v1/events', {
				event_type: 'send_template_message',
				contact: { phone_number: phone },
				template_message: { whats_app_template_id: 'wat_welcome' },
			});
		}
		const page = await t.api('GET', '/api/v1/template_messages?per=2&page=1');
		expect(page.json.count).toBe(3);
		expect(page.json.template_messages).toHaveLength(2);
		expect(page.json.next).toContain('page=2');
		expect(page.json.prev).toBeNull();
		expect((await t.api('GET', '/api/v1/template_messages?broadcast_id=cmp_x')).json.count).toBe(0);
		expect((await t.api('GET', '/api/v1/template_messages?per=1001')).status).toBe(422);
		expect(
			(await t.api('GET', '/api/v1/template_messages?updated_since=2999-01-01T00:00:00Z')).json
				.count,
		).toBe(0);
	});
});
