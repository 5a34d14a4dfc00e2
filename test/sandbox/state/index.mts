/** In-memory state of the Peach sandbox, seeded with demo data; one file per kind of record. */
import { seedAutomations } from './automations.mts';
import { seedBroadcasts } from './broadcasts.mts';
import type { RecordedRequest, WebhookDelivery } from './common.mts';
import { seedContacts } from './contacts.mts';
import { seedConversations } from './conversations.mts';
import type { PeachEvent, TemplateMessageRecord, WebhookRegistration } from './events.mts';
import type { GuestLink, Order } from './orders.mts';
import { seedTemplates } from './templates.mts';

export * from './automations.mts';
export * from './broadcasts.mts';
export * from './common.mts';
export * from './contacts.mts';
export * from './conversations.mts';
export * from './events.mts';
export * from './orders.mts';
export * from './templates.mts';

export function seed() {
	const contacts = seedContacts();
	return {
		templates: seedTemplates(),
		...seedAutomations(),
		contacts,
		...seedConversations(contacts),
		orders: [] as Order[],
		guestLinks: [] as GuestLink[],
		broadcasts: seedBroadcasts(),
		templateMessages: [] as TemplateMessageRecord[],
		events: [] as PeachEvent[],
		registrations: [] as WebhookRegistration[],
		requests: [] as RecordedRequest[],
		deliveries: [] as WebhookDelivery[],
	};
}

export type SandboxState = ReturnType<typeof seed>;
