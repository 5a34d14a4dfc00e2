import { describe, expect, it } from 'vitest';

import { useSandbox } from './harness.mts';

const t = useSandbox();

/** Each order its own id (A-1, A-2 …): a second order with an id taken is refused. */
let made = 0;
const order = (extra: Record<string, unknown> = {}) =>
	t.api('POST', '/api/v1/orders', {
		id: `A-${++made}`,
		type: 'physical_goods',
		contact: { phone_number: '+919988776655' },
		items: [{ name: 'Mango box', amount: 12000, quantity: 2, sale_amount: 10000 }],
		...extra,
	});

describe('orders', () => {
	it('starts with three paid orders (₹3,000 each) to try a refund on at once', async () => {
		for (const n of [1, 2, 3]) {
			const seeded = await t.api('GET', `/api/v1/orders/wa_ord_demo_paid_${n}`);
			expect(seeded.json).toMatchObject({ status: 'completed', total: 300000, refunded: 0 });
		}
		const refund = await t.api('POST', '/api/v1/orders/wa_ord_demo_paid_1/refunds', {
			amount: { currency: 'INR', value: 12050 },
		});
		expect(refund.status).toBe(201);
	});

	it('creates a pending order in minor units; refuses decimals and a past expiry', async () => {
		const created = await order({
			expiration: { timestamp: Math.floor(Date.now() / 1000) + 3600, description: '1 h' },
		});
		expect(created.json).toMatchObject({ status: 'pending', total: 20000, reference_id: 'A-1' });
		expect((await t.api('GET', `/api/v1/orders/${created.json.id}`)).json.id).toBe(created.json.id);
		const bad = await order({
			items: [{ name: 'x', amount: 120.5 }],
			expiration: { timestamp: 1 },
		});
		expect(bad.json.reason).toEqual({
			'items[0]': { amount: ['must be a whole number of minor units'] },
			expiration: { timestamp: ['must be in the future'] },
		});
	});

	it('refunds only a paid order, in INR, never more than what is left', async () => {
		const id = (await order()).json.id;
		const early = await t.api('POST', `/api/v1/orders/${id}/refunds`, { speed: 'normal' });
		expect(early.json.reason.order[0]).toBe(
			'cannot be refunded: it is pending, not completed (paid)',
		);
		await fetch(`${t.sandbox.url}/__sandbox/orders/${id}/pay`, { method: 'POST' });
		await t.until(() =>
			t.received.some((entry) => (entry.body as { type: string }).type === 'order.completed'),
		);
		expect(
			(
				await t.api('POST', `/api/v1/orders/${id}/refunds`, {
					amount: { currency: 'USD', value: 1 },
				})
			).status,
		).toBe(422);
		const part = await t.api('POST', `/api/v1/orders/${id}/refunds`, {
			speed: 'instant',
			amount: { currency: 'INR', value: 15000 },
		});
		expect(part.json).toMatchObject({ value: 15000, currency: 'INR', speed: 'instant' });
		const tooMuch = await t.api('POST', `/api/v1/orders/${id}/refunds`, {
			amount: { currency: 'INR', value: 6000 },
		});
		expect(tooMuch.json.reason.amount.value).toEqual([
			'6000 is more than the 5000 left to refund on this order',
		]);
		expect((await t.api('POST', '/api/v1/orders/wa_ord_x/refunds', {})).status).toBe(404);
	});

	it('finds an order by your own id too; a second order with an id already taken is refused', async () => {
		const created = await order({ id: 'A-dup' });
		expect((await t.api('GET', '/api/v1/orders/A-dup')).json.id).toBe(created.json.id);
		const again = await order({ id: 'A-dup' });
		expect(again.status).toBe(422);
		expect(again.json).toEqual({ status: 'failed', reason: { id: ['has already been taken'] } });
		expect((await t.api('GET', '/api/v1/orders/A-missing')).status).toBe(404);
	});

	it('a read order shows its refunds (amount, status, date) and the amount refunded', async () => {
		const before = Date.now();
		await t.api('POST', '/api/v1/orders/wa_ord_demo_paid_2/refunds', {
			amount: { currency: 'INR', value: 5000 },
		});
		const read = (await t.api('GET', '/api/v1/orders/demo-2')).json;
		expect(read).toMatchObject({ id: 'wa_ord_demo_paid_2', refunded: 5000 });
		expect(read.refunds).toEqual([
			expect.objectContaining({ value: 5000, currency: 'INR', status: 'processing' }),
		]);
		expect(Date.parse(read.refunds[0].created_at)).toBeGreaterThanOrEqual(before - 1000);
	});
});
