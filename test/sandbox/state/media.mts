/** Uploaded media, direct uploads waiting for their bytes, and the condition library (expressions). */
import type { JsonObject } from './common.mts';

export interface Media extends JsonObject {
	id: number;
	filename: string;
	content_type: string;
	media_url: string;
	signed_id: string;
	created_at: string;
}

/** A direct upload: the blob Peach expects, and whether the storage received matching bytes. */
export interface DirectUpload {
	key: string;
	signedId: string;
	filename: string;
	contentType: string;
	byteSize: number;
	checksum: string;
	bytes: Buffer | null;
}

export interface Expression extends JsonObject {
	id: string;
	description: string;
	topic: string;
	source: string;
	variables: string[];
}

/** The condition library as Peach's Shopify playbook names it, plus a Stripe condition. */
export function seedExpressions(): Expression[] {
	return [
		{
			id: 'exp_order_paid',
			description: 'Order Paid',
			topic: 'orders/paid',
			source: 'peach_shopify',
			variables: [],
		},
		{
			id: 'exp_order_created',
			description: 'Order created',
			topic: 'orders/create',
			source: 'peach_shopify',
			variables: [],
		},
		{
			id: 'exp_order_paid_not',
			description: 'Order Paid where a field does NOT equal a value',
			topic: 'orders/paid',
			source: 'peach_shopify',
			variables: ['key_path', 'value'],
		},
		{
			id: 'exp_cart',
			description: 'Abandoned Cart Created',
			topic: 'checkouts/abandoned',
			source: 'Peach',
			variables: [],
		},
		{
			id: 'exp_stripe_paid',
			description: 'Order Paid',
			topic: 'charge.succeeded',
			source: 'stripe',
			variables: [],
		},
	];
}
