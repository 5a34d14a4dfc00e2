import { describe, expect, it } from 'vitest';

import { useSandbox } from './harness.mts';

const t = useSandbox();

describe('conversations and messages', () => {
	it('lists conversations with the documented filters', async () => {
		const open = await t.api('GET', '/api/v1/conversations?status=open');
		expect(open.json.conversations.map((c: { id: string }) => c.id)).toEqual([
			'conv_ct_asha',
			'conv_ct_ben',
		]);
		expect((await t.api('GET', '/api/v1/conversations?escalated=true')).json.count).toBe(1);
		expect(
			(await t.api('GET', '/api/v1/conversations?has_call_permission=false')).json.conversations[0]
				.id,
		).toBe('conv_ct_ben');
		expect(
			(await t.api('GET', '/api/v1/conversations?phone_number=%2B33612345678')).json.count,
		).toBe(1);
		expect((await t.api('GET', '/api/v1/conversations?updated_since=nope')).status).toBe(422);
	});

	it('updates a status (documented values only) and 404s an unknown conversation', async () => {
		const updated = await t.api('PATCH', '/api/v1/conversations/conv_ct_asha', {
			status: 'awaiting_customer_response',
		});
		expect(updated.json).toMatchObject({
			status: 'awaiting_customer_response',
			activity_type: 'status_change',
		});
		expect(
			(await t.api('PATCH', '/api/v1/conversations/conv_ct_asha', { status: 'snoozed' })).status,
		).toBe(422);
		expect((await t.api('PATCH', '/api/v1/conversations/conv_x', { status: 'open' })).status).toBe(
			404,
		);
	});

	it('lists messages by contact, direction and time, with count/next/previous', async () => {
		const inbound = await t.api(
			'GET',
			'/api/v1/messages?phone_number=%2B919988776655&direction=inbound',
		);
		expect(inbound.json).toMatchObject({ count: 1, next: null, previous: null });
		expect(inbound.json.messages[0]).toMatchObject({
			direction: 'inbound',
			conversation_id: 'conv_ct_asha',
		});
		expect((await t.api('GET', '/api/v1/messages?direction=sideways')).status).toBe(422);
		expect((await t.api('GET', '/api/v1/messages?from=2030-01-01T00:00:00Z')).json.count).toBe(0);
	});

	it('assign_agent accepts both documented shapes; close_conversation closes by contact', async () => {
		const contact = { name: 'Asha Rao', phone_number: '+919988776655' };
		const schema = await t.api('POST', '/api/v1/events', {
			event_type: 'assign_agent',
			contact,
			assign_agent: { agent_email: 'agent@example.com', open_chat_on_assignment: true },
		});
		expect([schema.status, schema.json]).toEqual([200, {}]);
		const example = await t.api('POST', '/api/v1/events', {
			event_type: 'assign_agent',
			contact,
			agent: { email: 'other@example.com' },
			open_chat_on_assignment: false,
		});
		expect(example.status).toBe(200);
		expect(t.sandbox.state.conversations[0].assigned_agent_email).toBe('other@example.com');
		const noName = await t.api('POST', '/api/v1/events', {
			event_type: 'close_conversation',
			contact: { phone_number: '+919988776655' },
		});
		expect(noName.json.reason.contact.name).toEqual(["can't be blank"]);
		expect(
			(await t.api('POST', '/api/v1/events', { event_type: 'close_conversation', contact })).status,
		).toBe(200);
		expect(t.sandbox.state.conversations[0].status).toBe('closed');
	});
});

describe('the activity log', () => {
	it('lists what happened to conversations, paged, narrowed by conversation; status changes and closing are logged', async () => {
		const seeded = await t.api('GET', '/api/v1/activities');
		expect(seeded.json.count).toBe(4);
		expect(seeded.json.activities.map((a: { activity_type: string }) => a.activity_type)).toEqual([
			'message',
			'escalation',
			'message',
			'message',
		]);
		await t.api('PATCH', '/api/v1/conversations/conv_ct_ben', { status: 'pending' });
		const ben = await t.api('GET', '/api/v1/activities?conversation_id=conv_ct_ben');
		expect(ben.json.activities.map((a: { description: string }) => a.description)).toEqual([
			'The contact wrote: Hello!',
			'The status changed to pending',
		]);
		const page = await t.api('GET', '/api/v1/activities?page=2&per=2');
		expect(page.json.activities).toHaveLength(2);
		expect(page.json.previous).toMatch(/page=1/);
	});
});
