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
