import type { IDataObject, INodeExecutionData } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { DRY_RUN_NOTE } from '../../../../nodes/Peach/actions/run/dryRun';
import { expectNothingDone, expectRefusedAsReal, sentAsShown } from '../../support/dryRun';
import { run } from './run';

/**
 * Dry Run of the Order operations: every check of a real run, then nothing sent, read or recorded;
 * each output shows the exact request and, in a person's words, the order and the money.
 */

const refund = {
	resource: 'order',
	operation: 'refund',
	orderId: 'wa_ord_1',
	refundType: 'partial',
	amount: 300000,
	speed: 'instant',
};

const create = {
	resource: 'order',
	operation: 'create',
	phoneNumber: '+919988776655',
	items: { item: [{ name: 'Mango box', amount: 12000, quantity: 2, saleAmount: 9900 }] },
	contactFields: { name: 'Asha' },
	additionalFields: { orderId: 'A-1', expiresAt: '2999-01-01T00:00:00Z' },
};

const itemsOf = (output: unknown) => (output as INodeExecutionData[][])[0];

describe('Dry Run: Order → Refund', () => {
	it('makes no request and touches no record; the output names the order, the amount in paise and rupees, the exact request', async () => {
		const dry = await run({ ...refund, dryRun: true });
		expectNothingDone(dry);
		expect(DRY_RUN_NOTE).toContain('Turn off Dry Run to send.');
		const [item] = itemsOf(dry.output);
		expect(item.pairedItem).toEqual({ item: 0 });
		expect(item.json).toEqual({
			order: 'wa_ord_1',
			outcome: 'not sent: Dry Run',
			dryRun: true,
			wouldSend: {
				method: 'POST',
				path: '/api/v1/orders/wa_ord_1/refunds',
				body: { speed: 'instant', amount: { currency: 'INR', value: 300000 } },
			},
			preview: {
				order: 'wa_ord_1',
				amount: 300000,
				amountRupees: '₹3,000.00',
				currency: 'INR',
				speed: 'instant',
			},
		});
		expect(item.json).not.toHaveProperty('to');
	});

	it('the whole order: no amount in the request, wholeOrder in the preview', async () => {
		const { requests, output } = await run({ ...refund, refundType: 'full', dryRun: true });
		expect(requests).toEqual([]);
		const { json } = itemsOf(output)[0];
		expect((json.wouldSend as IDataObject).body).toEqual({ speed: 'instant' });
		expect(json.preview).toEqual({ order: 'wa_ord_1', wholeOrder: true, speed: 'instant' });
	});

	it('a bad item is refused with the same error as a real run, before anything', async () => {
		const bads = [{ amount: 0 }, { orderId: '' }, { amount: 120.5 }, { currency: 'USD' }];
		await expectRefusedAsReal(run, refund, bads, { sameDescription: true });
	});

	it('off: the refund goes as before, exactly the request the Dry Run showed, accepted', async () => {
		expect(
			await sentAsShown(run, { ...refund, dryRun: false }, [
				{ statusCode: 201, body: { id: 'rfnd_1', status: 'processing' } },
			]),
		).toEqual({
			order: 'wa_ord_1',
			outcome: 'accepted',
			peachId: 'rfnd_1',
			amount: 300000,
			amountRupees: '₹3,000.00',
			currency: 'INR',
			id: 'rfnd_1',
			status: 'processing',
		});
	});
});

describe('Dry Run: Order → Create', () => {
	it('makes no request and touches no record; the output shows the exact order body and its money in rupees', async () => {
		const dry = await run({ ...create, dryRun: true });
		expectNothingDone(dry);
		const [item] = itemsOf(dry.output);
		const timestamp = Date.parse('2999-01-01T00:00:00Z') / 1000;
		expect(item.json).toEqual({
			to: '+919988776655',
			outcome: 'not sent: Dry Run',
			dryRun: true,
			wouldSend: {
				method: 'POST',
				path: '/api/v1/orders',
				body: {
					id: 'A-1',
					contact: { phone_number: '+919988776655', name: 'Asha' },
					items: [{ name: 'Mango box', amount: 12000, quantity: 2, sale_amount: 9900 }],
					expiration: { timestamp },
				},
			},
			preview: {
				to: '+919988776655',
				orderId: 'A-1',
				items: [
					{
						name: 'Mango box',
						quantity: 2,
						amount: 12000,
						amountRupees: '₹120.00',
						saleAmount: 9900,
						saleAmountRupees: '₹99.00',
					},
				],
				expiresAt: '2999-01-01T00:00:00.000Z',
			},
		});
	});

	it('a bad item is refused with the same error as a real run, before anything', async () => {
		const bads = [
			{ items: { item: [{ name: 'x', amount: 120.5, quantity: 1 }] } },
			{ items: { item: [] } },
			{ phoneNumber: '9988776655' },
			{ additionalFields: { expiresAt: '2000-01-01T00:00:00Z' } },
		];
		await expectRefusedAsReal(run, create, bads);
	});

	it('off: the order goes as before, exactly the request the Dry Run showed, accepted', async () => {
		expect(await sentAsShown(run, create)).toEqual({
			to: '+919988776655',
			outcome: 'accepted',
			peachId: 'wa_ord_1',
			id: 'wa_ord_1',
		});
	});
});
