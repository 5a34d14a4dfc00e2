/** WhatsApp Payments orders (`wa_ord_` IDs; amounts in minor units, INR) and setup guest links. */
import type { JsonObject } from './common.mts';

export interface Order extends JsonObject {
	id: string;
	reference_id: string | null;
	status: string;
	type: string | null;
	contact: JsonObject;
	items: JsonObject[];
	total: number;
	refunded: number;
	refunds: JsonObject[];
	expiration: JsonObject | null;
	created_at: string;
}

export interface GuestLink extends JsonObject {
	id: string;
	url: string;
	status: string;
	created_at: string;
}

/**
 * Paid orders to try refunds on right away (the examples' README rows name them): ₹3,000 each,
 * completed, nothing refunded yet. More: POST /api/v1/orders, then POST /__sandbox/orders/{id}/pay.
 */
export function seedOrders(): Order[] {
	return [1, 2, 3].map((n) => ({
		id: `wa_ord_demo_paid_${n}`,
		reference_id: `demo-${n}`,
		status: 'completed',
		type: 'physical_goods',
		contact: { phone_number: '+919988776655' },
		items: [{ name: 'Mango box', amount: 300000, quantity: 1 }],
		total: 300000,
		refunded: 0,
		refunds: [],
		expiration: null,
		created_at: '2026-01-02T09:00:00.000Z',
	}));
}
