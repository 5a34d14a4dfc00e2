/** Automations (streams) and their triggers. */
import { BUSINESS_PHONE_NUMBER, type JsonObject } from './common.mts';

export interface Automation extends JsonObject {
	id: string;
	name: string;
	description: string | null;
	status: string;
	execution_mode: string;
	phone_number: string | null;
	backend_url: string | null;
	definition: JsonObject | null;
	created_at: string;
	updated_at: string;
}

export interface Trigger extends JsonObject {
	id: string;
	stream_id: string;
	status: string;
	description: string | null;
	condition: { expression_id: string; topic: string; variables: { [key: string]: string } };
	data_mappings: Array<{ mapping_for: string; value: { [key: string]: string } }>;
	created_at: string;
	updated_at: string;
}

/** One published automation with a draft and an active trigger. */
export function seedAutomations(): { automations: Automation[]; triggers: Trigger[] } {
	const at = '2026-01-01T09:00:00.000Z';
	const automations: Automation[] = [
		{
			id: 'strm_welcome',
			name: 'Welcome journey',
			description: 'Greets new customers',
			status: 'published',
			execution_mode: 'definition_driven',
			phone_number: BUSINESS_PHONE_NUMBER,
			backend_url: null,
			definition: {
				start_step: 'greet',
				steps: {
					greet: {
						type: 'send_message',
						payload: { message: { text: 'Welcome!' } },
						next_step: null,
					},
				},
			},
			created_at: at,
			updated_at: at,
		},
	];
	const triggers: Trigger[] = [
		{
			id: 'trig_order_paid',
			stream_id: 'strm_welcome',
			status: 'draft',
			description: 'Order paid',
			condition: { expression_id: 'exp_order_paid', topic: 'orders/paid', variables: {} },
			data_mappings: [{ mapping_for: 'recipient', value: { phone_number: '$.customer.phone' } }],
			created_at: at,
			updated_at: at,
		},
		{
			id: 'trig_cart_abandoned',
			stream_id: 'strm_welcome',
			status: 'active',
			description: 'Abandoned cart',
			condition: {
				expression_id: 'exp_cart',
				topic: 'checkouts/abandoned',
				variables: { delay: '1h' },
			},
			data_mappings: [],
			created_at: at,
			updated_at: at,
		},
	];
	return { automations, triggers };
}
