import { describe, expect, it } from 'vitest';

import { expectResentAfter429Only } from '../../support/resourceRun';
import { run } from './run';

const create = {
	resource: 'order',
	operation: 'create',
	phoneNumber: '+919988776655',
	items: { item: [{ name: 'Mango box', amount: 12000, quantity: 2, saleAmount: 0 }] },
	contactFields: { name: 'Asha' },
	additionalFields: {
		orderId: 'A-1',
		type: 'physical_goods',
		expiresAt: '2999-01-01T00:00:00Z',
		expiryDescription: 'Pay soon',
	},
};

describe('Order', () => {
	it('Create: POST /orders, amounts in minor units, expiry as epoch seconds; a 429 is sent again, a 503 never', async () => {
		const { requests } = await run(create);
		expect([requests[0].options.method, requests[0].url]).toEqual([
			'POST',
			'https://peach.test/api/v1/orders',
		]);
		expect(requests[0].body).toEqual({
			id: 'A-1',
			type: 'physical_goods',
			contact: { phone_number: '+919988776655', name: 'Asha' },
			items: [{ name: 'Mango box', amount: 12000, quantity: 2 }],
			expiration: { timestamp: Date.parse('2999-01-01T00:00:00Z') / 1000, description: 'Pay soon' },
		});
		await expectResentAfter429Only(run, create, 201);
	});

	it('refuses decimals (showing the minor units) and a past expiry before any request', async () => {
		const decimals = await run({
			...create,
			items: { item: [{ name: 'x', amount: 120.5, quantity: 1 }] },
		});
		expect((decimals.output as Error).message).toBe(
			'Line Item 1 → Amount 120.5 has decimals, but amounts are in minor units',
		);
		const past = await run({ ...create, additionalFields: { expiresAt: '2000-01-01T00:00:00Z' } });
		expect((past.output as Error).message).toBe(
			'Expires At "2000-01-01T00:00:00Z" is not in the future',
		);
		expect(past.requests).toHaveLength(0);
	});
});
