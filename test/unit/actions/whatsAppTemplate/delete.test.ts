import { describe, expect, it } from 'vitest';

import { locator } from '../../support/harness';
import { run } from './run';

describe('WhatsApp Template → Delete', () => {
	it('DELETE /whats_app_templates/{id}; an empty answer is {deleted: true, id}, an answer with fields keeps them', async () => {
		const empty = await run(
			{ resource: 'whatsAppTemplate', operation: 'delete', templateId: locator('wat_9', 'id') },
			[{ statusCode: 204, body: '' }],
		);
		expect([empty.requests[0].options.method, empty.requests[0].url]).toEqual([
			'DELETE',
			'https://peach.test/api/v1/whats_app_templates/wat_9',
		]);
		expect(empty.requests[0].body).toBeUndefined();
		expect((empty.output as Array<Array<{ json: unknown }>>)[0][0].json).toEqual({
			deleted: true,
			id: 'wat_9',
		});
		const answered = await run(
			{ resource: 'whatsAppTemplate', operation: 'delete', templateId: locator('wat_9') },
			[{ statusCode: 200, body: { id: 'wat_9', status: 'deleted' } }],
		);
		expect((answered.output as Array<Array<{ json: unknown }>>)[0][0].json).toEqual({
			deleted: true,
			id: 'wat_9',
			status: 'deleted',
		});
	});

	it('a template Peach does not know is a 404 naming it, and the next item is not reached', async () => {
		const { output, requests } = await run(
			{ resource: 'whatsAppTemplate', operation: 'delete', templateId: locator('wat_gone', 'id') },
			[{ statusCode: 404, body: { message: 'Not found' } }],
		);
		expect((output as Error).message).toContain('wat_gone');
		expect(requests).toHaveLength(1);
	});
});
