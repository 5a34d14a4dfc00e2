import { describe, expect, it } from 'vitest';

import { locator } from '../../support/harness';
import { run } from './run';

describe('Automation → Get Many, Get, Update, Trigger', () => {
	it("Update sends only the changes; publishing shows Peach's reasons; an empty update is refused", async () => {
		const { requests } = await run({
			resource: 'automation',
			operation: 'update',
			automationId: locator('strm_1'),
			updateFields: {
				status: 'published',
				name: 'Greeter',
				definition: '{"start_step": "a", "steps": {}}',
			},
		});
		expect([requests[0].options.method, requests[0].url, requests[0].body]).toEqual([
			'PATCH',
			'https://peach.test/api/v1/streams/strm_1',
			{ name: 'Greeter', status: 'published', definition: { start_step: 'a', steps: {} } },
		]);
		const refused = await run(
			{
				resource: 'automation',
				operation: 'update',
				automationId: locator('strm_1'),
				updateFields: { status: 'published' },
			},
			[
				{
					statusCode: 422,
					body: {
						status: 'failed',
						reason: { definition: ['start_step "a" is not one of the steps'] },
					},
				},
			],
			{ continueOnFail: true },
		);
		expect((refused.output as Array<Array<{ json: { error: string } }>>)[0][0].json.error).toBe(
			'definition: start_step "a" is not one of the steps',
		);
		const empty = await run({
			resource: 'automation',
			operation: 'update',
			automationId: locator('strm_1'),
			updateFields: {},
		});
		expect((empty.output as Error).message).toBe(
			'Update Automation "(no changes)" would change nothing',
		);
	});
});
