import { describe, expect, it } from 'vitest';

import { run, templates } from './run';

describe('WhatsApp Template → Get Many, Get, Archive, Pause, Submit', () => {
	it('Get Many filters on the node (Peach has no filter) and Limit counts what matches', async () => {
		const { output, requests } = await run(
			{
				resource: 'whatsAppTemplate',
				operation: 'getMany',
				returnAll: false,
				limit: 2,
				filters: { status: 'approved' },
			},
			[{ statusCode: 200, body: templates }],
		);
		expect(requests[0].url).toBe('https://peach.test/api/v1/whats_app_templates/');
		expect(
			(output as Array<Array<{ json: { id: string } }>>)[0].map((item) => item.json.id),
		).toEqual(['wat_1', 'wat_3']);
		const utility = await run(
			{
				resource: 'whatsAppTemplate',
				operation: 'getMany',
				returnAll: true,
				filters: { category: 'UTILITY', language: 'EN' },
			},
			[
				{ statusCode: 200, body: templates },
				{ statusCode: 200, body: [] },
			],
		);
		expect(
			(utility.output as Array<Array<{ json: { id: string } }>>)[0].map((item) => item.json.id),
		).toEqual(['wat_1', 'wat_2', 'wat_4']);
	});
});
