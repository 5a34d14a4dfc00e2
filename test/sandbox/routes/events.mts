/**
 * POST /api/v1/events and GET /api/v1/events/{id}: send_template_message, connect_to_ai_agent,
 * send_app_message and send_broadcast, as Peach's docs (and, where they are silent, Peach's own code)
 * describe them. Every queued template message gets a record for GET /template_messages and is
 * followed by message_delivery.sent and .delivered webhooks.
 */
import {
	isObject,
	isStringMap,
	notFound,
	Reasons,
	type Route,
	type RouteContext,
	type RouteResult,
	validationFailed,
} from '../http.mts';
import { render } from '../phone.mts';
import { isE164, isIanaTimeZone, isTimeOfDay, isWaId } from '../rules.mts';
import {
	type Broadcast,
	type Contact,
	contact as makeContact,
	type JsonObject,
	logActivity,
	newId,
	type PeachEvent,
	type TemplateMessageRecord,
} from '../state/index.mts';

function upsertContact(ctx: RouteContext, input: JsonObject): Contact {
	const phone = String(input.phone_number);
	let existing = ctx.state.contacts.find((entry) => entry.phone_number === phone);
	if (!existing) {
		existing = makeContact(newId('ct_'), null, phone, null, null, null);
		ctx.state.contacts.push(existing);
	}
	if (typeof input.name === 'string') existing.name = input.name;
	if (typeof input.email === 'string') existing.email = input.email;
	if (typeof input.language === 'string') existing.language = input.language;
	return existing;
}

/** The documented contact checks: a phone number in E.164, an email with @, metadata of strings. */
function checkContact(reasons: Reasons, object: string, contact: unknown, needsName = false) {
	if (!isObject(contact)) return reasons.nested(object, 'base', 'is required');
	if (typeof contact.phone_number !== 'string' || contact.phone_number === '')
		reasons.nested(object, 'phone_number', "can't be blank");
	else if (!isE164(contact.phone_number))
		reasons.nested(
			object,
			'phone_number',
			'is not a valid E.164 phone number (+ and country code)',
		);
	if (needsName && (typeof contact.name !== 'string' || contact.name === ''))
		reasons.nested(object, 'name', "can't be blank");
	if (
		contact.email !== undefined &&
		(typeof contact.email !== 'string' || !contact.email.includes('@'))
	)
		reasons.nested(object, 'email', 'is invalid');
	if (contact.metadata !== undefined && !isStringMap(contact.metadata))
		reasons.nested(object, 'metadata', 'must map strings to strings');
}

/** A template that exists and is approved: only those can be sent. */
function checkTemplate(ctx: RouteContext, reasons: Reasons, object: string, templateId: unknown) {
	if (typeof templateId !== 'string' || templateId === '')
		return reasons.nested(object, 'whats_app_template_id', "can't be blank");
	const found = ctx.state.templates.find(
		(entry) => entry.id === templateId || entry.template_name === templateId,
	);
	if (!found)
		reasons.nested(object, 'whats_app_template_id', `template ${templateId} does not exist`);
	else if (found.status !== 'approved')
		reasons.nested(
			object,
			'whats_app_template_id',
			`template ${templateId} is not approved (status: ${found.status})`,
		);
}

/** The kind of file a content type is, as WhatsApp's media headers name them. */
function mediaKind(contentType: string): string {
	if (contentType.startsWith('image/')) return 'image';
	if (contentType.startsWith('video/')) return 'video';
	if (contentType.startsWith('audio/')) return 'audio';
	return 'document';
}

/**
 * header_media (a URL, a media:// reference, or `{link, filename}`): the template must have a media
 * header, and a media:// reference must name an uploaded file of the header's kind.
 */
function checkHeaderMedia(
	ctx: RouteContext,
	reasons: Reasons,
	object: string,
	value: unknown,
	templateId: unknown,
) {
	const link =
		typeof value === 'string' ? value : isObject(value) ? (value.link as unknown) : undefined;
	if (typeof link !== 'string') return;
	const template = ctx.state.templates.find(
		(entry) => entry.id === templateId || entry.template_name === templateId,
	);
	const header = template?.components.find(
		(component) =>
			component.component_type === 'header' &&
			['image', 'video', 'document'].includes(component.data_type as string),
	);
	if (template && !header) {
		reasons.nested(
			object,
			'liquid_values.header_media',
			`template ${String(templateId)} has no media header`,
		);
		return;
	}
	if (!link.startsWith('media://')) return;
	const media = ctx.state.medias.find((entry) => entry.media_url === link);
	if (!media)
		reasons.nested(object, 'liquid_values.header_media', `${link} is not an uploaded media`);
	else if (header && mediaKind(media.content_type) !== header.data_type)
		reasons.nested(
			object,
			'liquid_values.header_media',
			`${link} is ${media.content_type}, but the template's header is ${String(header.data_type)}`,
		);
}

function checkLiquidValues(
	ctx: RouteContext,
	reasons: Reasons,
	object: string,
	values: unknown,
	templateId: unknown,
	required = false,
) {
	if (values === undefined) {
		if (required) reasons.nested(object, 'liquid_values', 'is required');
		return;
	}
	if (!isObject(values)) return reasons.nested(object, 'liquid_values', 'must be an object');
	for (const [key, value] of Object.entries(values)) {
		const media = key === 'header_media' && isObject(value) && typeof value.link === 'string';
		if (!(typeof value === 'string' || typeof value === 'number' || media))
			reasons.nested(object, `liquid_values.${key}`, 'must be a string or a number');
		else if (key === 'header_media') checkHeaderMedia(ctx, reasons, object, value, templateId);
	}
}

function checkFuture(reasons: Reasons, object: string, field: string, value: unknown) {
	if (value === undefined) return;
	const at = typeof value === 'string' ? Date.parse(value) : Number.NaN;
	if (!Number.isFinite(at)) reasons.nested(object, field, 'must be an ISO 8601 date-time');
	else if (at <= Date.now()) reasons.nested(object, field, 'must be in the future');
}

/**
 * Queues one template message to a contact: a record for GET /template_messages, then, after the
 * sandbox's delivery delay, message_delivery.sent and .delivered webhooks. `onStatus` follows it.
 */
function queueTemplateMessage(
	ctx: RouteContext,
	contact: Contact,
	templateId: string,
	broadcastId: string | null,
	liquidValues: JsonObject | null,
	onStatus: (status: string) => void = () => undefined,
): TemplateMessageRecord {
	const record: TemplateMessageRecord = {
		id: newId('cmsg_'),
		status: 'queued',
		phone_number: contact.phone_number,
		whats_app_template_id: templateId,
		broadcast_id: broadcastId,
		updated_at: ctx.now(),
	};
	ctx.state.templateMessages.push(record);
	const template = ctx.state.templates.find(
		(entry) => entry.id === templateId || entry.template_name === templateId,
	);
	ctx.state.phone.push(
		render(record.id, contact.phone_number, template, liquidValues, record.updated_at),
	);
	const created = record.updated_at;
	ctx.track(
		(async () => {
			for (const status of ['sent', 'delivered']) {
				await new Promise((resolve) => setTimeout(resolve, ctx.deliveryDelayMs));
				if (record.status === 'canceled') return;
				record.status = status;
				record.updated_at = ctx.now();
				onStatus(status);
				await ctx.deliver(`message_delivery.${status}`, {
					message: {
						id: record.id,
						status,
						type: 'template_message',
						reason: null,
						created_at: created,
						updated_at: record.updated_at,
					},
					contact,
					event: null,
				});
			}
		})(),
	);
	return record;
}

/** An event for a single template message, whose result follows the message's status. */
function singleMessageEvent(
	ctx: RouteContext,
	eventType: string,
	contactIn: JsonObject,
	templateId: string,
	liquidValues: JsonObject | null,
): PeachEvent {
	const stored = upsertContact(ctx, contactIn);
	const event: PeachEvent = {
		id: newId('evt_'),
		event_type: eventType,
		status: 'processed',
		created_at: ctx.now(),
		result: null,
	};
	const result: JsonObject = {
		type: 'template_message',
		status: 'queued',
		failure_message: null,
		liquid_values: liquidValues,
		whats_app_template_id: templateId,
		contact: { phone_number: stored.phone_number },
	};
	event.result = result;
	const record = queueTemplateMessage(ctx, stored, templateId, null, liquidValues, (status) => {
		result.status = status;
	});
	result.id = record.id;
	ctx.state.events.push(event);
	return event;
}

function sendTemplateMessage(ctx: RouteContext, body: JsonObject): RouteResult {
	const reasons = new Reasons();
	const fail = (object: string, field: string, message: string) =>
		reasons.nested(object, field, message);
	const contactIn = body.contact;
	const message = body.template_message;
	checkContact(reasons, 'contact', contactIn);
	if (!isObject(message)) fail('template_message', 'base', 'is required');
	else {
		checkTemplate(ctx, reasons, 'template_message', message.whats_app_template_id);
		checkLiquidValues(
			ctx,
			reasons,
			'template_message',
			message.liquid_values,
			message.whats_app_template_id,
		);
		checkFuture(reasons, 'template_message', 'retry_until', message.retry_until);
		if (message.retry_window !== undefined) {
			const window = message.retry_window;
			if (!isObject(window)) fail('template_message', 'retry_window', 'must be an object');
			else {
				for (const key of ['start_at', 'end_at']) {
					if (typeof window[key] !== 'string' || !isTimeOfDay(window[key] as string))
						fail('template_message', `retry_window.${key}`, 'must be HH:MM');
				}
				if (
					window.timezone !== undefined &&
					(typeof window.timezone !== 'string' || !isIanaTimeZone(window.timezone))
				)
					fail('template_message', 'retry_window.timezone', 'is not a known time zone');
			}
		}
		if (
			message.business_phone_number !== undefined &&
			(typeof message.business_phone_number !== 'string' || !isWaId(message.business_phone_number))
		) {
			fail(
				'template_message',
				'business_phone_number',
				'must be digits with the country code, no +',
			);
		}
		// What handles the reply: `{app_id}` in Peach's API skill, `{ai_agent_id}` in Peach's own n8n
		// node; both are taken. `{}` or blank IDs name nothing: taken as no reply automation.
		const automation = message.reply_automation;
		if (
			automation !== undefined &&
			automation !== null &&
			(!isObject(automation) ||
				!Object.entries(automation).every(
					([key, value]) =>
						['app_id', 'ai_agent_id'].includes(key) &&
						(typeof value === 'string' || value === null),
				))
		) {
			fail(
				'template_message',
				'reply_automation',
				'must be {"app_id": "<id>"} or {"ai_agent_id": "<id>"}',
			);
		}
	}
	reasons.throwIfAny();
	const contact = contactIn as JsonObject;
	const messageIn = message as JsonObject;
	const event = singleMessageEvent(
		ctx,
		'send_template_message',
		contact,
		messageIn.whats_app_template_id as string,
		(messageIn.liquid_values as JsonObject | undefined) ?? null,
	);
	// The older docs' 201 answer: the request echoed, with the event ID.
	return {
		status: 201,
		body: {
			event_type: 'send_template_message',
			contact,
			template_message: messageIn,
			event_id: event.id,
		},
	};
}

/** connect_to_ai_agent: a template (liquid_values required) and `ai_agent.id`; answers {status, event_id}. */
function connectToAiAgent(ctx: RouteContext, body: JsonObject): RouteResult {
	const reasons = new Reasons();
	checkContact(reasons, 'contact', body.contact);
	const message = body.template_message;
	if (!isObject(message)) reasons.nested('template_message', 'base', 'is required');
	else {
		checkTemplate(ctx, reasons, 'template_message', message.whats_app_template_id);
		checkLiquidValues(
			ctx,
			reasons,
			'template_message',
			message.liquid_values,
			message.whats_app_template_id,
			true,
		);
	}
	const agent = body.ai_agent;
	if (!isObject(agent) || typeof agent.id !== 'string' || agent.id === '')
		reasons.nested('ai_agent', 'id', "can't be blank");
	reasons.throwIfAny();
	const messageIn = message as JsonObject;
	const event = singleMessageEvent(
		ctx,
		'connect_to_ai_agent',
		body.contact as JsonObject,
		messageIn.whats_app_template_id as string,
		messageIn.liquid_values as JsonObject,
	);
	(event.result as JsonObject).ai_agent_id = (agent as JsonObject).id;
	return { status: 200, body: { status: 'success', event_id: event.id } };
}

/**
 * send_app_message: Peach's own code names the app block `flow` ({id, liquid_values,
 * whats_app_template_id}); its docs page was never seen, so `app` is accepted as well.
 */
function sendAppMessage(ctx: RouteContext, body: JsonObject): RouteResult {
	const reasons = new Reasons();
	checkContact(reasons, 'contact', body.contact);
	const block = isObject(body.flow) ? 'flow' : isObject(body.app) ? 'app' : undefined;
	const app = block ? (body[block] as JsonObject) : undefined;
	if (!app) reasons.nested('flow', 'base', 'is required');
	else {
		if (typeof app.id !== 'string' || app.id === '') reasons.nested(block!, 'id', "can't be blank");
		if (app.whats_app_template_id !== undefined)
			checkTemplate(ctx, reasons, block!, app.whats_app_template_id);
		checkLiquidValues(ctx, reasons, block!, app.liquid_values, app.whats_app_template_id);
	}
	reasons.throwIfAny();
	upsertContact(ctx, body.contact as JsonObject);
	const event: PeachEvent = {
		id: newId('evt_'),
		event_type: 'send_app_message',
		status: 'processed',
		created_at: ctx.now(),
		result: {
			type: 'flow_execution',
			id: newId('fe_'),
			flow_id: (app as JsonObject).id,
			status: 'pending',
		},
	};
	ctx.state.events.push(event);
	return { status: 200, body: { status: 'success', event_id: event.id } };
}

/** Broadcast delivery modes: instant or gradual in the docs, instant or smart in Peach's MCP server. */
const DELIVERY_MODES = ['instant', 'gradual', 'smart'];

/**
 * send_broadcast: a template to an audience or to a list of contacts (never both). The event is
 * pending, then processed; each contact's message is queued and delivered; the broadcast goes from
 * sending (or scheduled) to sent.
 */
function sendBroadcast(ctx: RouteContext, body: JsonObject): RouteResult {
	const reasons = new Reasons();
	const input = body.broadcast;
	if (!isObject(input)) {
		reasons.nested('broadcast', 'base', 'is required');
		reasons.throwIfAny();
	}
	const broadcastIn = input as JsonObject;
	if (typeof broadcastIn.name !== 'string' || broadcastIn.name.trim() === '')
		reasons.nested('broadcast', 'name', "can't be blank");
	checkTemplate(ctx, reasons, 'broadcast', broadcastIn.whats_app_template_id);
	checkLiquidValues(
		ctx,
		reasons,
		'broadcast',
		broadcastIn.liquid_values,
		broadcastIn.whats_app_template_id,
	);
	if (!DELIVERY_MODES.includes(broadcastIn.delivery_mode as string))
		reasons.nested('broadcast', 'delivery_mode', `must be one of ${DELIVERY_MODES.join(', ')}`);
	const contacts = broadcastIn.contacts;
	// A blank audience_id ("", as some clients send beside contacts) names no audience.
	const audience =
		broadcastIn.audience_id === '' || broadcastIn.audience_id === null
			? undefined
			: broadcastIn.audience_id;
	if (contacts !== undefined && audience !== undefined)
		reasons.nested('broadcast', 'base', 'give contacts or audience_id, not both');
	if (contacts === undefined && (typeof audience !== 'string' || audience === ''))
		reasons.nested('broadcast', 'base', 'needs contacts or an audience_id');
	if (contacts !== undefined) {
		if (!Array.isArray(contacts) || contacts.length === 0)
			reasons.nested('broadcast', 'contacts', 'must be a non-empty array');
		else
			contacts.forEach((contact, index) => {
				checkContact(reasons, `broadcast.contacts[${index}]`, contact);
				if (isObject(contact))
					checkLiquidValues(
						ctx,
						reasons,
						`broadcast.contacts[${index}]`,
						contact.liquid_values,
						broadcastIn.whats_app_template_id,
					);
			});
	}
	checkFuture(reasons, 'broadcast', 'scheduled_launch_time', broadcastIn.scheduled_launch_time);
	if (broadcastIn.phone_number !== undefined && !isWaId(String(broadcastIn.phone_number)))
		reasons.nested('broadcast', 'phone_number', 'must be digits with the country code, no +');
	reasons.throwIfAny();

	const recipients: JsonObject[] = Array.isArray(contacts)
		? (contacts as JsonObject[])
		: ctx.state.contacts.map((entry) => ({ phone_number: entry.phone_number, name: entry.name }));
	const scheduled = typeof broadcastIn.scheduled_launch_time === 'string';
	const at = ctx.now();
	const broadcast: Broadcast = {
		id: newId('cmp_'),
		name: (broadcastIn.name as string).trim(),
		status: scheduled ? 'scheduled' : 'sending',
		whats_app_template_id: broadcastIn.whats_app_template_id as string,
		audience_id: typeof audience === 'string' ? audience : null,
		audience_count: recipients.length,
		delivery_mode: broadcastIn.delivery_mode as string,
		phone_number: (broadcastIn.phone_number as string | undefined) ?? null,
		launch_time: (broadcastIn.scheduled_launch_time as string | undefined) ?? at,
		stats: { queued: recipients.length, sent: 0, delivered: 0, failed: 0 },
		created_at: at,
		updated_at: at,
	};
	ctx.state.broadcasts.push(broadcast);
	const template = ctx.state.templates.find(
		(entry) =>
			entry.id === broadcast.whats_app_template_id ||
			entry.template_name === broadcast.whats_app_template_id,
	);
	const event: PeachEvent = {
		id: newId('evt_'),
		event_type: 'send_broadcast',
		status: 'pending',
		created_at: at,
		result: null,
	};
	ctx.state.events.push(event);
	ctx.track(
		(async () => {
			await new Promise((resolve) => setTimeout(resolve, ctx.deliveryDelayMs));
			event.status = 'processed';
			event.result = {
				type: 'campaign',
				id: broadcast.id,
				name: broadcast.name,
				audience_count: broadcast.audience_count,
				phone_number: broadcast.phone_number,
				launch_time: broadcast.launch_time,
				stats: broadcast.stats,
				whats_app_template: template ?? null,
				template_messages_url: `${ctx.baseUrl}/api/v1/template_messages?broadcast_id=${broadcast.id}`,
			};
			if (scheduled) return;
			let pending = recipients.length;
			for (const recipient of recipients) {
				queueTemplateMessage(
					ctx,
					upsertContact(ctx, recipient),
					broadcast.whats_app_template_id,
					broadcast.id,
					{
						...((broadcastIn.liquid_values as JsonObject | undefined) ?? {}),
						...((recipient.liquid_values as JsonObject | undefined) ?? {}),
					},
					(status) => {
						if (status === 'sent') {
							broadcast.stats.queued--;
							broadcast.stats.sent++;
						}
						if (status === 'delivered') {
							broadcast.stats.delivered++;
							pending--;
							if (pending === 0 && broadcast.status === 'sending') broadcast.status = 'sent';
						}
						broadcast.updated_at = ctx.now();
					},
				);
			}
		})(),
	);
	return { status: 200, body: { status: 'success', event_id: event.id } };
}

/**
 * assign_agent: Peach's page shows two shapes, `assign_agent: {agent_email, open_chat_on_assignment}`
 * (schema) and `agent: {email}` with a top-level `open_chat_on_assignment` (example). Both are accepted.
 */
function assignAgent(ctx: RouteContext, body: JsonObject): RouteResult {
	const reasons = new Reasons();
	checkContact(reasons, 'contact', body.contact, true);
	const schema = isObject(body.assign_agent) ? body.assign_agent : undefined;
	const example = isObject(body.agent) ? body.agent : undefined;
	const email = schema ? schema.agent_email : example?.email;
	const openChat = schema ? schema.open_chat_on_assignment : body.open_chat_on_assignment;
	if (!schema && !example) reasons.nested('assign_agent', 'base', 'is required');
	else {
		if (typeof email !== 'string' || !email.includes('@'))
			reasons.nested('assign_agent', 'agent_email', 'is invalid');
		if (typeof openChat !== 'boolean')
			reasons.nested('assign_agent', 'open_chat_on_assignment', 'must be true or false');
	}
	reasons.throwIfAny();
	const phone = (body.contact as JsonObject).phone_number;
	const conversation = ctx.state.conversations.find(
		(entry) => entry.contact.phone_number === phone,
	);
	if (conversation) {
		conversation.assigned_agent_email = email as string;
		conversation.activity_type = 'assignment';
		conversation.updated_at = ctx.now();
		logActivity(
			ctx.state.activities,
			conversation,
			'assignment',
			`Assigned to ${String(email)}`,
			conversation.updated_at,
		);
	}
	return { status: 200, body: {} };
}

/** close_conversation: the contact's name and phone number find the conversation to close. */
function closeConversation(ctx: RouteContext, body: JsonObject): RouteResult {
	const reasons = new Reasons();
	checkContact(reasons, 'contact', body.contact, true);
	reasons.throwIfAny();
	const phone = (body.contact as JsonObject).phone_number;
	const conversation = ctx.state.conversations.find(
		(entry) => entry.contact.phone_number === phone,
	);
	if (!conversation) throw notFound('Conversation of contact', String(phone));
	conversation.status = 'closed';
	conversation.activity_type = 'status_change';
	conversation.updated_at = ctx.now();
	logActivity(
		ctx.state.activities,
		conversation,
		'status_change',
		'The conversation was closed',
		conversation.updated_at,
	);
	return { status: 200, body: { status: 'success', event_id: newId('evt_') } };
}

const HANDLERS: Record<string, (ctx: RouteContext, body: JsonObject) => RouteResult> = {
	assign_agent: assignAgent,
	close_conversation: closeConversation,
	connect_to_ai_agent: connectToAiAgent,
	send_app_message: sendAppMessage,
	send_broadcast: sendBroadcast,
	send_template_message: sendTemplateMessage,
};

export const eventRoutes: Route = (ctx, { method, segments, body }) => {
	const [, id] = segments;
	if (!id && method === 'POST') {
		const type = String(body.event_type ?? '');
		if (Object.hasOwn(HANDLERS, type)) return HANDLERS[type](ctx, body);
		throw validationFailed({ event_type: [`${type} is not supported by the sandbox`] });
	}
	if (id && method === 'GET') {
		const found = ctx.state.events.find((entry) => entry.id === id);
		if (!found) throw notFound('Event', id);
		return { status: 200, body: { id: found.id, status: found.status, result: found.result } };
	}
	return undefined;
};
