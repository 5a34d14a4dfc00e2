/** Events accepted by POST /api/v1/events, and webhook registrations made by activating triggers. */
import type { JsonObject } from './common.mts';

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

/** One template message as `GET /api/v1/template_messages` lists it (a single send or a broadcast's). */
export interface TemplateMessageRecord extends JsonObject {
	id: string;
	status: string;
	phone_number: string;
	whats_app_template_id: string;
	broadcast_id: string | null;
	updated_at: string;
}

/** A message as the contact sees it. */
export interface ShownMessage extends JsonObject {
	id: string;
	phone_number: string;
	whats_app_template_id: string;
	text: string;
	buttons: Array<{ text: string; url: string | null }>;
	/** Every link the contact can open: in the text, then the URL buttons. */
	links: string[];
	/** The file of a media header (image, video, document), as WhatsApp shows it above the text. */
	attachment: { kind: string; name: string | null; link: string } | null;
	at: string;
}
