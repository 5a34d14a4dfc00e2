/** In-memory state of the Peach sandbox, seeded with demo data. Shapes follow Peach's public API docs (README.md, "The Peach sandbox" and "What is not known"). */

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

export interface Template extends JsonObject {
	id: string;
	template_name: string;
	name: string;
	language: string;
	category: string;
	status: string;
	whats_app_business_account_id: number;
	components: JsonObject[];
}

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

export interface Contact extends JsonObject {
	id: string;
	account_id: string;
	name: string | null;
	phone_number: string;
	first_name: string | null;
	last_name: string | null;
	country_code: string | null;
	language: string | null;
	email: string | null;
}

export interface PeachEvent extends JsonObject {
	id: string;
	event_type: string;
	status: string;
	created_at: string;
	result: JsonObject | null;
}

export interface WebhookRegistration extends JsonObject {
	trigger_id: string;
	stream_id: string;
	registered_at: string;
}

export interface RecordedRequest {
	at: string;
	method: string;
	path: string;
	query: Record<string, string>;
	/** Headers as received, except that Authorization is redacted (see redactAuthorization). */
	headers: Record<string, string>;
	body: Json | undefined;
	rawBody: string;
	status?: number;
}

export interface WebhookDelivery {
	at: string;
	url: string;
	type: string;
	payload: JsonObject;
	status: number | null;
	error: string | null;
}

export interface WebhookTarget {
	url: string;
	headers: Record<string, string>;
}

export const ACCOUNT_ID = 'acc_sandbox';
export const BUSINESS_PHONE_NUMBER = '919876543222';

let counter = 0;
export function newId(prefix: string): string {
	counter += 1;
	return `${prefix}${Date.now().toString(36)}${counter.toString(36).padStart(3, '0')}`;
}

function template(
	id: string,
	name: string,
	language: string,
	status: string,
	body: string,
): Template {
	return {
		id,
		template_name: name,
		name,
		language,
		category: 'UTILITY',
		status,
		whats_app_business_account_id: 456,
		components: [
			{ id: `${id}_body`, component_type: 'body', data_type: 'text', value: body, index: 0 },
		],
	};
}

export function seed() {
	const at = '2026-01-01T09:00:00.000Z';
	const templates: Template[] = [
		template(
			'wat_welcome',
			'welcome',
			'en',
			'approved',
			"Hi {{first_name | example: 'Asha'}}, welcome!",
		),
		template(
			'wat_order_update',
			'order_update',
			'en',
			'approved',
			'Order {{order_id}} is on its way.',
		),
		template('wat_promo', 'spring_promo', 'en', 'pending', 'Spring sale: {{discount}} off.'),
		template('wat_old_offer', 'old_offer', 'en', 'rejected', 'This offer was rejected.'),
	];
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
	const contacts: Contact[] = [
		contact('ct_asha', 'Asha Rao', '+919988776655', '91', 'en', 'asha@example.com'),
		contact('ct_ben', 'Ben Okafor', '+2348012345678', '234', 'en', null),
		contact('ct_chloe', 'Chloé Martin', '+33612345678', '33', 'fr', 'chloe@example.com'),
	];
	return {
		templates,
		automations,
		triggers,
		contacts,
		events: [] as PeachEvent[],
		registrations: [] as WebhookRegistration[],
		requests: [] as RecordedRequest[],
		deliveries: [] as WebhookDelivery[],
	};
}

export function contact(
	id: string,
	name: string | null,
	phone: string,
	countryCode: string | null,
	language: string | null,
	email: string | null,
): Contact {
	const [first, ...rest] = (name ?? '').split(' ');
	return {
		id,
		account_id: ACCOUNT_ID,
		name,
		phone_number: phone,
		first_name: first || null,
		last_name: rest.join(' ') || null,
		country_code: countryCode,
		language,
		email,
	};
}

export type SandboxState = ReturnType<typeof seed>;
