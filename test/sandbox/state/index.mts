/** In-memory state of the Peach sandbox, seeded with demo data; one file per kind of record. */
import { seedAutomations } from './automations.mts';
import { seedBroadcasts } from './broadcasts.mts';
import type { RecordedRequest, WebhookDelivery } from './common.mts';
import { seedContacts } from './contacts.mts';
import { seedConversations } from './conversations.mts';
import type {
	PeachEvent,
	ShownMessage,
	TemplateMessageRecord,
	WebhookRegistration,
} from './events.mts';
import { type GuestLink, seedOrders } from './orders.mts';
import { type DirectUpload, type Media, seedExpressions } from './media.mts';
import { seedTemplates } from './templates.mts';

export * from './automations.mts';
export * from './broadcasts.mts';
export * from './common.mts';
export * from './contacts.mts';
export * from './conversations.mts';
export * from './events.mts';
export * from './media.mts';
export * from './orders.mts';
export * from './templates.mts';

export function seed() {
	const contacts = seedContacts();
	return {
		templates: seedTemplates(),
		...seedAutomations(),
		contacts,
		...seedConversations(contacts),
		orders: seedOrders(),
		medias: [
			{
				// Peach's list example: the media's ID is not the number in its media URL.
				id: 11,
				filename: 'menu.pdf',
				content_type: 'application/pdf',
				media_url: 'media://12',
				signed_id: 'signed-11',
				created_at: '2026-01-01T09:00:00.000Z',
			},
		] as Media[],
		uploads: [] as DirectUpload[],
		expressions: seedExpressions(),
		/** Integrations connected in the web app: a trigger on another source is refused. */
		connectedSources: ['Peach', 'peach_shopify'],
		automationRuns: [] as Array<{ stream_id: string; body: unknown; at: string }>,
		/** Requests to the storage, to prove that none carried the API key. */
		storageRequests: [] as Array<{ method: string; path: string; headerNames: string[] }>,
		guestLinks: [] as GuestLink[],
		broadcasts: seedBroadcasts(),
		templateMessages: [] as TemplateMessageRecord[],
		/** What each contact's phone shows: every template message, rendered (see phone.mts). */
		phone: [] as ShownMessage[],
		events: [] as PeachEvent[],
		registrations: [] as WebhookRegistration[],
		requests: [] as RecordedRequest[],
		/** API requests open now, and the most open at once (set it to 0 to measure a run). */
		inFlight: 0,
		peakInFlight: 0,
		/** API requests answered 429 by the rate limit (server.mts, RateLimit). */
		rateLimited: 0,
		deliveries: [] as WebhookDelivery[],
	};
}

export type SandboxState = ReturnType<typeof seed>;
