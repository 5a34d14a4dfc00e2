import { describe, expect, it } from 'vitest';

import { locator } from '../../support/harness';
import { run } from './run';

const create = {
	resource: 'automationTrigger',
	operation: 'create',
	automationId: locator('strm_1'),
	conditionId: locator('exp_order_paid'),
	activate: true,
	additionalFields: {
		description: 'Paid orders',
		variables: { values: [{ key: 'key_path', value: '$.source_name' }] },
		dataMappings: {
			mappings: [
				{
					mappingFor: 'recipient',
					fields: { values: [{ key: 'phone_number', value: '$.customer.phone' }] },
				},
			],
		},
	},
};

describe('Trigger → Get Many, Create', () => {
	it('Create: a condition from the list goes as expression_id, a name as condition (with source)', async () => {
		const { requests } = await run(create);
		expect([requests[0].options.method, requests[0].url, requests[0].body]).toEqual([
			'POST',
			'https://peach.test/api/v1/streams/strm_1/triggers',
			{
				expression_id: 'exp_order_paid',
				description: 'Paid orders',
				variables: { key_path: '$.source_name' },
				data_mappings: [{ mapping_for: 'recipient', value: { phone_number: '$.customer.phone' } }],
				activate: true,
			},
		]);
		const named = await run({
			...create,
			conditionId: locator('Order Paid', 'id'),
			activate: false,
			additionalFields: { source: 'peach_shopify' },
		});
		expect(named.requests[0].body).toEqual({
			condition: 'Order Paid',
			source: 'peach_shopify',
			activate: false,
		});
	});

	it.each([
		[409, 'condition_ambiguous', 'set Source'],
		[409, 'event_source_not_connected', 'Connect the integration'],
		[404, 'condition_not_found', 'pick one From List'],
		[422, 'missing_variables', 'add them under Variables'],
	])('a %i %s says what to do', async (statusCode, code, fix) => {
		const { output } = await run(create, [{ statusCode, body: { message: 'Refused', code } }], {
			continueOnFail: true,
		});
		const [item] = (output as Array<Array<{ json: { error: string; description: string } }>>)[0];
		expect(item.json.description).toContain(fix);
	});
});
