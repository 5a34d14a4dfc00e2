/** Sample `data` for every documented outbound webhook type (Peach's webhook docs; README.md, "Trigger"). */
import { ACCOUNT_ID, type JsonObject } from './state/index.mts';

export const WEBHOOK_EVENT_TYPES = [
	'order.completed',
	'order.canceled',
	'flow_execution.pending',
	'flow_execution.in_progress',
	'flow_execution.completed',
	'message_delivery.sent',
	'message_delivery.delivered',
	'message_delivery.failed',
	'message_delivery.read',
	'message_delivery.replied',
	'ai_flow_execution.started',
	'ai_flow_execution.escalated',
	'ai_flow_execution.completed',
	'ai_flow_execution.analyzed',
] as const;

const sampleContact: JsonObject = {
	id: 'ct_asha',
	account_id: ACCOUNT_ID,
	name: 'Asha Rao',
	phone_number: '+919988776655',
	first_name: 'Asha',
	last_name: 'Rao',
	country_code: '91',
	language: 'en',
	email: 'asha@example.com',
};

export function sampleEvent(type: string): JsonObject {
	const [kind, action = ''] = type.split('.');
	const at = new Date().toISOString();
	switch (kind) {
		case 'order':
			return {
				id: 'wa_ord_sandbox1',
				reference_id: 'order-1001',
				status: action === 'canceled' ? 'canceled' : 'completed',
				contact: sampleContact,
			};
		case 'flow_execution':
			return {
				id: 'fe_sandbox1',
				status: 'created',
				contact: sampleContact,
				flow: {
					id: 'flw_sandbox1',
					name: 'Feedback form',
					status: 'published',
					category: 'other',
					description: 'Asks for feedback',
				},
				submission:
					action === 'completed' ? [{ id: 'fr_sandbox1', key: 'rating', value: '5' }] : [],
				responses: {},
				account_id: ACCOUNT_ID,
				context: {},
				source: {},
			};
		case 'message_delivery': {
			const message: JsonObject = {
				id: 'cmsg_sandbox1',
				status: action,
				type: 'template_message',
				reason: action === 'failed' ? 'Message undeliverable' : null,
				created_at: at,
				updated_at: at,
			};
			if (action === 'replied')
				message.reply = {
					text: 'Yes, please!',
					author: { phone_number: sampleContact.phone_number, name: sampleContact.name },
				};
			return { message, contact: sampleContact, event: null };
		}
		case 'ai_flow_execution':
			return {
				id: 'aiflw_sandbox1',
				name: 'Support agent',
				app_type: 'AI App',
				status: 'published',
				description: 'Answers order questions',
			};
		default:
			return { note: 'sample data for an event type the sandbox does not know' };
	}
}
