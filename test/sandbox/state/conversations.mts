/** Conversations (one per contact here) and their messages, for the conversation routes. */
import type { Contact } from './contacts.mts';
import type { JsonObject } from './common.mts';

export interface Conversation extends JsonObject {
	id: string;
	status: string;
	escalated: boolean;
	activity_type: string;
	has_call_permission: boolean;
	assigned_agent_email: string | null;
	contact: Contact;
	updated_at: string;
}

export interface Message extends JsonObject {
	id: number;
	conversation_id: string;
	phone_number: string;
	business_phone_number: string;
	direction: string;
	text: string;
	created_at: string;
}

/** One entry of the conversations' activity log (GET /activities). */
export interface Activity extends JsonObject {
	id: number;
	conversation_id: string;
	activity_type: string;
	description: string;
	phone_number: string;
	created_at: string;
}

/** Logs what happened to a conversation, newest last. */
export function logActivity(
	activities: Activity[],
	conversation: Conversation,
	activityType: string,
	description: string,
	at: string,
): void {
	activities.push({
		id: (activities.at(-1)?.id ?? 0) + 1,
		conversation_id: conversation.id,
		activity_type: activityType,
		description,
		phone_number: conversation.contact.phone_number,
		created_at: at,
	});
}

/**
 * A conversation per seeded contact, Asha's escalated, with two messages each; the activity log has
 * each conversation's first message and Asha's escalation.
 */
export function seedConversations(contacts: Contact[]): {
	conversations: Conversation[];
	messages: Message[];
	activities: Activity[];
} {
	const at = '2026-01-03T09:00:00.000Z';
	const conversations = contacts.map((contact, index) => ({
		id: `conv_${contact.id}`,
		status: index === 2 ? 'closed' : 'open',
		escalated: index === 0,
		activity_type: index === 0 ? 'escalation' : 'message',
		has_call_permission: index !== 1,
		assigned_agent_email: null,
		contact,
		updated_at: at,
	}));
	let id = 100;
	const messages = conversations.flatMap((conversation) =>
		(['inbound', 'outbound'] as const).map((direction) => ({
			id: ++id,
			conversation_id: conversation.id,
			phone_number: conversation.contact.phone_number,
			business_phone_number: '919876543222',
			direction,
			text: direction === 'inbound' ? 'Hello!' : 'Hi, how can we help?',
			created_at: `2026-01-03T09:0${id % 10}:00.000Z`,
		})),
	);
	const activities: Activity[] = [];
	for (const conversation of conversations) {
		logActivity(activities, conversation, 'message', 'The contact wrote: Hello!', at);
		if (conversation.escalated)
			logActivity(activities, conversation, 'escalation', 'The conversation was escalated', at);
	}
	return { conversations, messages, activities };
}
