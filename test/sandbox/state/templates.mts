/** WhatsApp templates (documented template object: id, template_name, language, category, status, components). */
import type { JsonObject } from './common.mts';

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

function template(
	id: string,
	name: string,
	language: string,
	status: string,
	body: string,
	/** A media header (image, video, document): its variable is header_media. */
	header?: string,
): Template {
	const components: JsonObject[] = [
		{ id: `${id}_body`, component_type: 'body', data_type: 'text', value: body, index: 1 },
	];
	if (header)
		components.unshift({
			id: `${id}_header`,
			component_type: 'header',
			data_type: header,
			value: '',
			index: 0,
		});
	return {
		id,
		template_name: name,
		name,
		language,
		category: 'UTILITY',
		status,
		whats_app_business_account_id: 456,
		components,
	};
}

/**
 * Five approved templates (one with a variable and its example, one asking for an approval with a
 * message and a link variable, as WhatsApp Template → Create → Approval Request makes it, one with a
 * document header, one with an image header), one pending, one rejected.
 */
export function seedTemplates(): Template[] {
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
		template(
			'wat_approval',
			'approval_request',
			'en',
			'approved',
			"Approval needed: {{message | example: 'Approve the refund of ₹1,200 for order A-7?'}} Please answer here: {{approval_link | example: 'https://n8n.example.com/webhook-waiting/231/abc?peachWait=k3J9xQ&signature=0a1b'}} Thank you.",
		),
		template(
			'wat_invoice',
			'invoice_ready',
			'en',
			'approved',
			"Hi {{first_name | example: 'Asha'}}, your invoice {{invoice_number | example: 'INV-1001'}} is attached.",
			'document',
		),
		template(
			'wat_offer',
			'spring_offer',
			'en',
			'approved',
			"Our spring offer is here, {{first_name | example: 'Asha'}}.",
			'image',
		),
		template('wat_promo', 'spring_promo', 'en', 'pending', 'Spring sale: {{discount}} off.'),
		template('wat_old_offer', 'old_offer', 'en', 'rejected', 'This offer was rejected.'),
	];
	return templates;
}
