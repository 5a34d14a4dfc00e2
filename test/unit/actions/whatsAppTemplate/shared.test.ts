import { describe, expect, it } from 'vitest';

import { locator } from '../../support/harness';
import { run } from './run';

/** Archive, Pause and Submit: one shared change (shared.ts, changeTemplate). */
describe('WhatsApp Template → Get Many, Get, Archive, Pause, Submit', () => {
	it.each(['archive', 'pause', 'submit'])(
		'%s: PATCH /whats_app_templates/{id}/<action> with {}',
		async (action) => {
			const { requests } = await run(
				{ resource: 'whatsAppTemplate', operation: action, templateId: locator('wat_1') },
				[{ statusCode: 200, body: { id: 'wat_1' } }],
			);
			expect([requests[0].options.method, requests[0].url, requests[0].body]).toEqual([
				'PATCH',
				`https://peach.test/api/v1/whats_app_templates/wat_1/${action}`,
				{},
			]);
		},
	);
});
