import { NodeApiError } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { Peach } from '../../../nodes/Peach/Peach.node';
import { listSearch } from '../../../nodes/Peach/methods/listSearch';
import { createLoadOptionsContext, locator } from '../support/harness';

const { searchAutomations, searchTemplates, searchTriggers } = listSearch;

const templates = [
	{ id: 'wat_2', template_name: 'order_update', language: 'en', status: 'approved' },
	{
		id: 'wat_1',
		template_name: 'welcome',
		language: 'en_US',
		status: 'APPROVED',
		components: [
			{ component_type: 'header', value: 'Welcome' },
			{
				component_type: 'body',
				value: "Hi {{first_name | example: 'Asha'}},\nwelcome to   Peach!",
			},
		],
	},
	{ id: 'wat_3', template_name: 'promo', language: 'en', status: 'pending' },
	{ id: 'wat_4', template_name: 'old', language: 'en', status: 'rejected' },
];

describe('list search', () => {
	it('templates: one request per call, only approved ones, with name, language, status and the body', async () => {
		// The body: a user picks by what the message says.
		const { context, requests } = createLoadOptionsContext({
			responses: [{ statusCode: 200, body: templates }],
		});
		const result = await searchTemplates.call(context);
		expect(result.results).toEqual([
			{ name: 'order_update (en, approved)', value: 'wat_2' },
			{ name: 'welcome (en_US, APPROVED) · Hi {{first_name}}, welcome to Peach!', value: 'wat_1' },
		]);
		expect(requests).toHaveLength(1);
		expect(requests[0].options.method).toBe('GET');
		expect(requests[0].url).toBe('https://peach.test/api/v1/whats_app_templates/');
		expect(requests[0].options.qs).toEqual({ page: 1 });
		// The next page is asked for with the token when the user scrolls.
		expect(JSON.parse(String(result.paginationToken))).toEqual({
			qs: { page: 2 },
			firstId: 'wat_2',
		});
	});

	it('templates: filters by the search text, one page per keystroke', async () => {
		const { context, requests } = createLoadOptionsContext({
			responses: [{ statusCode: 200, body: templates }],
		});
		expect((await searchTemplates.call(context, 'WEL')).results).toEqual([
			{ name: 'welcome (en_US, APPROVED) · Hi {{first_name}}, welcome to Peach!', value: 'wat_1' },
		]);
		expect(requests).toHaveLength(1);
	});

	it('templates: the token reads the next page, and an empty page ends the list', async () => {
		const { context, requests } = createLoadOptionsContext({
			responses: [
				{ statusCode: 200, body: [{ id: 'wat_9', template_name: 'zeta', status: 'approved' }] },
				{ statusCode: 200, body: [] },
			],
		});
		const token = JSON.stringify({ qs: { page: 2 }, firstId: 'wat_2' });
		const second = await searchTemplates.call(context, undefined, token);
		expect(second.results).toEqual([{ name: 'zeta (approved)', value: 'wat_9' }]);
		expect(requests[0].options.qs).toEqual({ page: 2 });
		const third = await searchTemplates.call(context, undefined, second.paginationToken);
		expect(third).toEqual({ results: [] });
		expect(requests[1].options.qs).toEqual({ page: 3 });
	});

	it('every list search a locator names exists on the node', () => {
		const node = new Peach();
		const methods = Object.keys(node.methods.listSearch);
		const named = node.description.properties
			.flatMap((property) => [property, ...((property.options as (typeof property)[]) ?? [])])
			.flatMap((property) => property.modes ?? [])
			.map((mode) => mode.typeOptions?.searchListMethod)
			.filter(Boolean);
		expect(named.length).toBeGreaterThan(0);
		for (const method of named) expect(methods).toContain(method);
	});

	it('automations: one page per call, following next with the token', async () => {
		const { context, requests } = createLoadOptionsContext({
			responses: [
				{
					statusCode: 200,
					body: { streams: [{ id: 'strm_2', name: 'Zeta', status: 'draft' }], next: 'page-2' },
				},
				{
					statusCode: 200,
					body: { streams: [{ id: 'strm_1', name: 'Alpha', status: 'published' }], next: null },
				},
			],
		});
		const first = await searchAutomations.call(context);
		expect(first.results).toEqual([{ name: 'Zeta (draft)', value: 'strm_2' }]);
		const second = await searchAutomations.call(context, undefined, first.paginationToken);
		expect(second).toEqual({ results: [{ name: 'Alpha (published)', value: 'strm_1' }] });
		expect(requests.map((request) => [request.url, request.options.qs])).toEqual([
			['https://peach.test/api/v1/streams', { page: 1 }],
			['https://peach.test/api/v1/streams', { page: 2 }],
		]);
	});

	it('triggers: lists those of the chosen automation', async () => {
		const { context, requests } = createLoadOptionsContext({
			currentParams: { automationId: locator('strm_1') },
			responses: [
				{
					statusCode: 200,
					body: [
						{ id: 'trig_b', description: 'Paid orders', status: 'active' },
						{ id: 'trig_a', status: 'draft', condition: { topic: 'orders/create' } },
					],
				},
			],
		});
		const result = await searchTriggers.call(context);
		expect(requests[0].url).toBe('https://peach.test/api/v1/streams/strm_1/triggers');
		expect(result.results).toEqual([
			{ name: 'orders/create (draft, trig_a)', value: 'trig_a' },
			{ name: 'Paid orders (active, trig_b)', value: 'trig_b' },
		]);
	});

	it('triggers: asks for an automation first, and names an unknown one', async () => {
		const none = createLoadOptionsContext({ currentParams: { automationId: locator('') } });
		await expect(searchTriggers.call(none.context)).rejects.toThrow('Choose an automation first');
		expect(none.requests).toHaveLength(0);

		const unknown = createLoadOptionsContext({
			currentParams: { automationId: locator('strm_x', 'id') },
			responses: [{ statusCode: 404, body: { message: 'Not found' } }],
		});
		const error = await searchTriggers.call(unknown.context).catch((e) => e);
		expect(error).toBeInstanceOf(NodeApiError);
		expect(error.message).toBe('Automation "strm_x" was not found in Peach');
	});
});
