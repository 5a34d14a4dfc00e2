import { describe, expect, it } from 'vitest';

import { locator } from '../../support/harness';
import { run } from './run';

describe('Trigger → Get Many, Create', () => {
	it('Get Many lists the triggers of the automation', async () => {
		const { requests } = await run(
			{
				resource: 'automationTrigger',
				operation: 'getMany',
				automationId: locator('strm_1'),
				returnAll: true,
			},
			[{ statusCode: 200, body: [] }],
		);
		expect(requests[0].url).toBe('https://peach.test/api/v1/streams/strm_1/triggers');
	});
});
