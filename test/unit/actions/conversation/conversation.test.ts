import { describe, expect, it } from 'vitest';

import { Peach } from '../../../../nodes/Peach/Peach.node';
import { listSearch } from '../../../../nodes/Peach/methods/listSearch';
import {
	createExecuteContext,
	createLoadOptionsContext,
	type FakeResponse,
	locator,
} from '../../support/harness';

async function run(
	params: Record<string, unknown>,
	responses: FakeResponse[] = [{ statusCode: 200, body: {} }],
	extra = {},
) {
	const harness = createExecuteContext({ params, responses, ...extra });
	const output = await new Peach().execute.call(harness.context).catch((e: unknown) => e);
	return { ...harness, output };
}

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

	it('Update Status: PATCH /conversations/{id} {status}; the list shows name, number and status', async () => {
		const { requests } = await run({
			resource: 'conversation',
			operation: 'updateStatus',
			conversationId: locator('conv_1'),
			status: 'awaiting_customer_response',
		});
		expect([requests[0].options.method, requests[0].url, requests[0].body]).toEqual([
			'PATCH',
			'https://peach.test/api/v1/conversations/conv_1',
			{ status: 'awaiting_customer_response' },
		]);
		const list = createLoadOptionsContext({
			responses: [
				{
					statusCode: 200,
					body: {
						conversations: [
							{ id: 'conv_1', status: 'open', contact: { name: 'Asha', phone_number: '+91' } },
						],
					},
				},
			],
		});
		expect((await listSearch.searchConversations.call(list.context)).results).toEqual([
			{ name: 'Asha +91 (open)', value: 'conv_1' },
		]);
	});

	it('Assign Agent: the documented schema by default, the documented example as an option', async () => {
		const base = {
			resource: 'conversation',
			operation: 'assignAgent',
			phoneNumber: '+919988776655',
			contactName: 'Asha',
			agentEmail: 'agent@example.com',
			openChat: true,
			bodyFormat: 'schema',
		};
		const schema = await run(base);
		expect(schema.requests[0].body).toEqual({
			event_type: 'assign_agent',
			contact: { name: 'Asha', phone_number: '+919988776655' },
			assign_agent: { agent_email: 'agent@example.com', open_chat_on_assignment: true },
		});
		const example = await run({ ...base, bodyFormat: 'example', openChat: false });
		expect(example.requests[0].body).toEqual({
			event_type: 'assign_agent',
			contact: { name: 'Asha', phone_number: '+919988776655' },
			agent: { email: 'agent@example.com' },
			open_chat_on_assignment: false,
		});
		const bad = await run({ ...base, agentEmail: 'nope' });
		expect((bad.output as Error).message).toBe('Agent Email "nope" is not an email address');
	});

	it('Close: close_conversation with name and phone; the name is required', async () => {
		const { requests } = await run({
			resource: 'conversation',
			operation: 'close',
			phoneNumber: '+919988776655',
			contactName: 'Asha',
		});
		expect(requests[0].body).toEqual({
			event_type: 'close_conversation',
			contact: { name: 'Asha', phone_number: '+919988776655' },
		});
		const noName = await run({
			resource: 'conversation',
			operation: 'close',
			phoneNumber: '+919988776655',
			contactName: '',
		});
		expect((noName.output as Error).message).toBe('Contact Name is empty');
	});
});

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
