import { NodeApiError } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import {
	searchAutomations,
	searchTemplates,
	searchTriggers,
} from '../../nodes/Peach/methods/listSearch';
import { createLoadOptionsContext, locator } from './helpers/context';

const templates = [
	{ id: 'wat_2', template_name: 'order_update', language: 'en', status: 'approved' },
	{ id: 'wat_1', template_name: 'welcome', language: 'en_US', status: 'APPROVED' },
	{ id: 'wat_3', template_name: 'promo', language: 'en', status: 'pending' },
	{ id: 'wat_4', template_name: 'old', language: 'en', status: 'rejected' },
];

describe('list search', () => {
	it('templates: only approved ones, with name, language and status, sorted', async () => {
		const { context, requests } = createLoadOptionsContext({
			responses: [
				{ statusCode: 200, body: templates },
				{ statusCode: 200, body: [] },
			],
		});
		const result = await searchTemplates.call(context);
		expect(result.results).toEqual([
			{ name: 'order_update (en, approved)', value: 'wat_2' },
			{ name: 'welcome (en_US, APPROVED)', value: 'wat_1' },
		]);
		expect(requests[0].options.method).toBe('GET');
		expect(requests[0].options.url).toBe('https://peach.test/api/v1/whats_app_templates/');
		expect(requests[0].options.qs).toEqual({ page: 1 });
	});

	it('templates: filters by the search text', async () => {
		const { context } = createLoadOptionsContext({
			responses: [
				{ statusCode: 200, body: templates },
				{ statusCode: 200, body: [] },
			],
		});
		expect((await searchTemplates.call(context, 'WEL')).results).toEqual([
			{ name: 'welcome (en_US, APPROVED)', value: 'wat_1' },
		]);
	});

	it('automations: every page, whatever the list key', async () => {
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
		const result = await searchAutomations.call(context);
		expect(result.results).toEqual([
			{ name: 'Alpha (published)', value: 'strm_1' },
			{ name: 'Zeta (draft)', value: 'strm_2' },
		]);
		expect(requests.map((request) => request.options.url)).toEqual([
			'https://peach.test/api/v1/streams',
			'https://peach.test/api/v1/streams',
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
				{ statusCode: 200, body: [] },
			],
		});
		const result = await searchTriggers.call(context);
		expect(requests[0].options.url).toBe('https://peach.test/api/v1/streams/strm_1/triggers');
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
