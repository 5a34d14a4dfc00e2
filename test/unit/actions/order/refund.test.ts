import { describe, expect, it } from 'vitest';

import { Peach } from '../../../../nodes/Peach/Peach.node';
import { run } from './run';

describe('Order', () => {
	it('Refund: POST /orders/{id}/refunds in INR only; a 5xx says it may already have happened and is never made again', async () => {
		const base = {
			resource: 'order',
			operation: 'refund',
			orderId: 'wa_ord_1',
			refundType: 'partial',
			amount: 5000,
			currency: 'inr',
			speed: 'instant',
		};
		const { requests, output } = await run(base, [
			{ statusCode: 201, body: { status: 'success' } },
		]);
		expect(requests[0].url).toBe('https://peach.test/api/v1/orders/wa_ord_1/refunds');
		expect(requests[0].body).toEqual({
			speed: 'instant',
			amount: { currency: 'INR', value: 5000 },
		});
		// The order named as such, and the amount asked in paise and in rupees beside Peach's answer,
		// so 5000 is not read as ₹5,000.
		expect((output as Array<Array<{ json: unknown }>>)[0][0].json).toEqual({
			order: 'wa_ord_1',
			outcome: 'accepted',
			amount: 5000,
			amountRupees: '₹50.00',
			currency: 'INR',
			status: 'success',
		});
		const whole = await run({ ...base, refundType: 'full' }, [
			{ statusCode: 201, body: { status: 'success' } },
		]);
		expect((whole.output as Array<Array<{ json: unknown }>>)[0][0].json).toEqual({
			order: 'wa_ord_1',
			outcome: 'accepted',
			wholeOrder: true,
			status: 'success',
		});
		const usd = await run({ ...base, currency: 'USD' });
		expect((usd.output as Error).message).toBe('Currency "USD" is not supported');
		const failed = await run(base, [{ statusCode: 503, body: {} }, { statusCode: 201 }], {
			continueOnFail: true,
		});
		expect(failed.requests).toHaveLength(1);
		const [item] = (failed.output as Array<Array<{ json: Record<string, string> }>>)[0];
		expect(item.json.description).toContain('It may already have been queued in Peach');
		expect(item.json.description).toContain('never sent again by itself');
		const rejected = await run(
			base,
			[
				{
					statusCode: 422,
					body: {
						status: 'failed',
						reason: { amount: { value: ['6000 is more than the 5000 left'] } },
					},
				},
			],
			{ continueOnFail: true },
		);
		expect(
			(rejected.output as Array<Array<{ json: Record<string, string> }>>)[0][0].json.error,
		).toBe('amount.value: 6000 is more than the 5000 left');
	});

	it('Refund: an empty, null, zero or missing amount is refused before any request, never a full refund', async () => {
		const partial = { resource: 'order', operation: 'refund', orderId: 'wa_ord_1' };
		for (const amount of ['', null, 0, '0', undefined]) {
			const { requests, output } = await run(
				amount === undefined ? partial : { ...partial, amount },
			);
			expect(requests).toHaveLength(0);
			expect((output as Error).message).toMatch(/^Amount \(Minor Units\) (.* )?is empty or zero$/);
			expect((output as { description: string }).description).toContain(
				'choose Refund → The Whole Order to refund everything',
			);
		}
	});

	it('Refund: ₹3,000 reads as money: amount 300000 beside amountRupees "₹3,000.00"; Peach\'s keys stay', async () => {
		// In that order, and Peach's own keys stay Peach's.
		const { output } = await run(
			{ resource: 'order', operation: 'refund', orderId: 'wa_ord_demo_paid_1', amount: 300000 },
			[
				{
					statusCode: 201,
					body: { id: 'rfnd_1', value: 300000, currency: 'INR', status: 'processing' },
				},
			],
		);
		const json = (output as Array<Array<{ json: Record<string, unknown> }>>)[0][0].json;
		expect(Object.keys(json)).toEqual([
			'order',
			'outcome',
			'peachId',
			'amount',
			'amountRupees',
			'currency',
			'id',
			'value',
			'status',
		]);
		expect(json).toMatchObject({
			order: 'wa_ord_demo_paid_1',
			amount: 300000,
			amountRupees: '₹3,000.00',
			value: 300000,
		});
		expect(json).not.toHaveProperty('to');
		const lakh = await run(
			{ resource: 'order', operation: 'refund', orderId: 'wa_ord_1', amount: 12345678 },
			[{ statusCode: 201, body: {} }],
		);
		expect(
			(lakh.output as Array<Array<{ json: Record<string, unknown> }>>)[0][0].json.amountRupees,
		).toBe('₹1,23,456.78');
	});

	it('Refund: Order ID starts empty (a money operation never guesses its target), and empty it is refused before any request', async () => {
		const field = new Peach().description.properties.find(
			(p) => p.name === 'orderId' && p.displayOptions?.show?.operation?.includes('refund'),
		);
		expect(field?.default).toBe('');
		expect(field?.required).toBe(true);
		const get = new Peach().description.properties.find(
			(p) => p.name === 'orderId' && p.displayOptions?.show?.operation?.includes('get'),
		);
		expect(get?.default).toBe('={{ $json.id }}');
		const { requests, output } = await run({
			resource: 'order',
			operation: 'refund',
			orderId: '',
			amount: 5000,
		});
		expect(requests).toHaveLength(0);
		expect((output as Error).message).toMatch(/^Order ID/);
	});

	it('Refund: the whole order only when chosen, and then no amount is sent', async () => {
		const { requests } = await run({
			resource: 'order',
			operation: 'refund',
			orderId: 'wa_ord_1',
			refundType: 'full',
			amount: 5000,
		});
		expect(requests[0].body).toEqual({ speed: 'normal' });
		const field = new Peach().description.properties.find((p) => p.name === 'refundType');
		expect(field?.default).toBe('partial');
	});
});
