/**
 * POST /api/v1/events (send_template_message; other event types are not modelled yet) and
 * GET /api/v1/events/{id}. A queued send is followed by message_delivery.sent and .delivered webhooks.
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
import { isE164, isIanaTimeZone, isTimeOfDay, isWaId } from '../rules.mts';
import {
	contact as makeContact,
	type JsonObject,
	newId,
	type PeachEvent,
} from '../state/index.mts';

function upsertContact(ctx: RouteContext, input: JsonObject) {
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

function sendTemplateMessage(ctx: RouteContext, body: JsonObject): RouteResult {
	const reasons = new Reasons();
	const fail = (object: string, field: string, message: string) =>
		reasons.nested(object, field, message);
	const contactIn = body.contact;
	const message = body.template_message;
	if (!isObject(contactIn)) fail('contact', 'base', 'is required');
	else {
		if (typeof contactIn.phone_number !== 'string' || contactIn.phone_number === '')
			fail('contact', 'phone_number', "can't be blank");
		else if (!isE164(contactIn.phone_number))
			fail('contact', 'phone_number', 'is not a valid E.164 phone number (+ and country code)');
		if (
			contactIn.email !== undefined &&
			(typeof contactIn.email !== 'string' || !contactIn.email.includes('@'))
		)
			fail('contact', 'email', 'is invalid');
		if (contactIn.metadata !== undefined && !isStringMap(contactIn.metadata))
			fail('contact', 'metadata', 'must map strings to strings');
	}
	if (!isObject(message)) fail('template_message', 'base', 'is required');
	else {
		const templateId = message.whats_app_template_id;
		if (typeof templateId !== 'string' || templateId === '')
			fail('template_message', 'whats_app_template_id', "can't be blank");
		else {
			const found = ctx.state.templates.find(
				(entry) => entry.id === templateId || entry.template_name === templateId,
			);
			if (!found)
				fail('template_message', 'whats_app_template_id', `template ${templateId} does not exist`);
			else if (found.status !== 'approved')
				fail(
					'template_message',
					'whats_app_template_id',
					`template ${templateId} is not approved (status: ${found.status})`,
				);
		}
		if (message.liquid_values !== undefined && !isObject(message.liquid_values))
			fail('template_message', 'liquid_values', 'must be an object');
		if (isObject(message.liquid_values)) {
			for (const [key, value] of Object.entries(message.liquid_values)) {
				if (!(typeof value === 'string' || typeof value === 'number' || isObject(value)))
					fail('template_message', `liquid_values.${key}`, 'must be a string or a number');
			}
		}
		if (message.retry_until !== undefined) {
			const at =
				typeof message.retry_until === 'string' ? Date.parse(message.retry_until) : Number.NaN;
			if (!Number.isFinite(at))
				fail('template_message', 'retry_until', 'must be an ISO 8601 date-time');
			else if (at <= Date.now()) fail('template_message', 'retry_until', 'must be in the future');
		}
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
		if (
			message.reply_automation !== undefined &&
			(!isObject(message.reply_automation) || typeof message.reply_automation.app_id !== 'string')
		) {
			fail('template_message', 'reply_automation', 'must be {"app_id": "<id>"}');
		}
	}
	reasons.throwIfAny();

	const contactIn2 = contactIn as JsonObject;
	const messageIn = message as JsonObject;
	const stored = upsertContact(ctx, contactIn2);
	const eventId = newId('evt_');
	const messageId = newId('cmsg_');
	const event: PeachEvent = {
		id: eventId,
		event_type: 'send_template_message',
		status: 'processed',
		created_at: ctx.now(),
		result: {
			type: 'template_message',
			id: messageId,
			status: 'queued',
			failure_message: null,
			liquid_values: (messageIn.liquid_values as JsonObject | undefined) ?? null,
			whats_app_template_id: messageIn.whats_app_template_id as string,
			contact: { phone_number: stored.phone_number },
		},
	};
	ctx.state.events.push(event);
	const result = event.result as JsonObject;
	const deliveryMessage = (status: string): JsonObject => ({
		id: messageId,
		status,
		type: 'template_message',
		reason: null,
		created_at: event.created_at,
		updated_at: ctx.now(),
	});
	ctx.track(
		(async () => {
			for (const status of ['sent', 'delivered']) {
				await new Promise((resolve) => setTimeout(resolve, ctx.deliveryDelayMs));
				result.status = status;
				await ctx.deliver(`message_delivery.${status}`, {
					message: deliveryMessage(status),
					contact: stored,
					event: null,
				});
			}
		})(),
	);
	return {
		status: 201,
		body: {
			event_type: 'send_template_message',
			contact: contactIn2,
			template_message: messageIn,
			event_id: eventId,
		},
	};
}

export const eventRoutes: Route = (ctx, { method, segments, body }) => {
	const [, id] = segments;
	if (!id && method === 'POST') {
		if (body.event_type === 'send_template_message') return sendTemplateMessage(ctx, body);
		throw validationFailed({
			event_type: [`${String(body.event_type ?? '')} is not supported by the sandbox`],
		});
	}
	if (id && method === 'GET') {
		const found = ctx.state.events.find((entry) => entry.id === id);
		if (!found) throw notFound('Event', id);
		return { status: 200, body: { id: found.id, status: found.status, result: found.result } };
	}
	return undefined;
};
