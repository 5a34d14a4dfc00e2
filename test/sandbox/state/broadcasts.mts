/** Broadcasts (campaigns, `cmp_` IDs). Statuses as Peach's own n8n node lists them, plus scheduled and canceled. */
import type { JsonObject } from './common.mts';

export interface Broadcast extends JsonObject {
	id: string;
	name: string;
	status: string;
	whats_app_template_id: string;
	audience_id: string | null;
	audience_count: number;
	delivery_mode: string;
	phone_number: string | null;
	launch_time: string;
	stats: { queued: number; sent: number; delivered: number; failed: number };
	created_at: string;
	updated_at: string;
}

/** A broadcast sent before the sandbox started, so that lists and archive have something to show. */
export function seedBroadcasts(): Broadcast[] {
	const at = '2026-01-02T09:00:00.000Z';
	return [
		{
			id: 'cmp_new_year',
			name: 'New year greetings',
			status: 'sent',
			whats_app_template_id: 'wat_welcome',
			audience_id: 'aud_all',
			audience_count: 3,
			delivery_mode: 'instant',
			phone_number: '919876543222',
			launch_time: at,
			stats: { queued: 0, sent: 3, delivered: 3, failed: 0 },
			created_at: at,
			updated_at: at,
		},
	];
}
