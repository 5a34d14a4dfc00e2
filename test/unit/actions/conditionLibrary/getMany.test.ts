import { describe, expect, it } from 'vitest';

import { Peach } from '../../../../nodes/Peach/Peach.node';
import { listSearch } from '../../../../nodes/Peach/methods/listSearch';
import { createExecuteContext, createLoadOptionsContext } from '../../support/harness';

describe('Condition Library → Get Many', () => {
	it('GET /expressions with the source filter; the condition list shows name and source', async () => {
		const harness = createExecuteContext({
			params: {
				resource: 'conditionLibrary',
				operation: 'getMany',
				returnAll: true,
				filters: { source: 'stripe' },
			},
			responses: [
				{
					statusCode: 200,
					body: { count: 1, next: null, expressions: [{ id: 'exp_1', description: 'Order Paid' }] },
				},
			],
		});
		const output = await new Peach().execute.call(harness.context);
		expect([harness.requests[0].url, harness.requests[0].options.qs]).toEqual([
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
