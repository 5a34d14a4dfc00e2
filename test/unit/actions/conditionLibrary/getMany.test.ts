import { describe, expect, it } from 'vitest';

import { listSearch } from '../../../../nodes/Peach/methods/listSearch';
import { createLoadOptionsContext } from '../../support/harness';
import { throwingRunner } from '../../support/resourceRun';

const run = throwingRunner();

describe('Condition Library → Get Many', () => {
	it('GET /expressions with the source filter; the condition list shows name and source', async () => {
		const { output, requests } = await run(
			{
				resource: 'conditionLibrary',
				operation: 'getMany',
				returnAll: true,
				filters: { source: 'stripe' },
			},
			[
				{
					statusCode: 200,
					body: { count: 1, next: null, expressions: [{ id: 'exp_1', description: 'Order Paid' }] },
				},
			],
		);
		expect([requests[0].url, requests[0].options.qs]).toEqual([
			'https://peach.test/api/v1/expressions',
			{ source: 'stripe', page: 1 },
		]);
		expect(output[0].map((item) => item.json.id)).toEqual(['exp_1']);
		const list = createLoadOptionsContext({
			responses: [
				{
					statusCode: 200,
					body: { expressions: [{ id: 'exp_1', description: 'Order Paid', source: 'stripe' }] },
				},
			],
		});
		expect((await listSearch.searchConditions.call(list.context)).results).toEqual([
			{ name: 'Order Paid (stripe)', value: 'exp_1' },
		]);
	});
});
