import { describe, expect, it } from 'vitest';

import { locator } from '../../support/harness';
import { run } from './run';

describe('Automation → Get Many, Get, Update, Trigger', () => {
	it('Get Many filters by execution mode; Get reads one', async () => {
		const many = await run(
			{
				resource: 'automation',
				operation: 'getMany',
				returnAll: true,
				filters: { executionMode: 'backend_driven' },
			},
			[{ statusCode: 200, body: [] }],
		);
		expect(many.requests[0].options.qs).toEqual({ execution_mode: 'backend_driven', page: 1 });
		const one = await run({
			resource: 'automation',
			operation: 'get',
			automationId: locator('strm_1'),
		});
		expect(one.requests[0].url).toBe('https://peach.test/api/v1/streams/strm_1');
	});
});
