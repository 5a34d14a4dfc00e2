import { describe, expect, it } from 'vitest';

import { locator } from '../../support/harness';
import { run, templates } from './run';

describe('WhatsApp Template → Get Many, Get, Archive, Pause, Submit', () => {
	it('Get takes an ID or a template name', async () => {
		const { requests } = await run(
			{ resource: 'whatsAppTemplate', operation: 'get', templateId: locator('order_ready', 'id') },
			[{ statusCode: 200, body: templates[0] }],
		);
		expect(requests[0].url).toBe('https://peach.test/api/v1/whats_app_templates/order_ready');
	});
});
