/**
 * Contacts keyed by phone number: POST /contacts (one object, or an array: create or update; metadata
 * merged), GET and PATCH /contacts/{phone_number} (the + URL-encoded; metadata deep-merged),
 * POST /contacts/bulk_update_communication_preferences; setup guest links (paths only in the docs).
 */
import {
	isObject,
	isStringMap,
	notFound,
	Reasons,
	type Route,
	type RouteContext,
	validationFailed,
} from '../http.mts';
import { isE164, isIanaTimeZone } from '../rules.mts';
import { contact as makeContact, type Contact, type JsonObject, newId } from '../state/index.mts';

export const COMMUNICATION_PREFERENCES = [
	'allow_everything',
	'disallow_marketing',
	'disallow_automated_messaging',
	'mute_all',
];

function deepMerge(target: JsonObject, source: JsonObject): JsonObject {
	for (const [key, value] of Object.entries(source)) {
		const current = target[key];
		target[key] = isObject(current) && isObject(value) ? deepMerge({ ...current }, value) : value;
	}
	return target;
}

function checkFields(reasons: Reasons, where: string, input: JsonObject, requirePhone: boolean) {
	if (requirePhone) {
		if (typeof input.phone_number !== 'string' || !isE164(input.phone_number))
			reasons.nested(
				where,
				'phone_number',
				'is not a valid E.164 phone number (+ and country code)',
			);
	}
	if (input.email !== undefined && (typeof input.email !== 'string' || !input.email.includes('@')))
		reasons.nested(where, 'email', 'is invalid');
	if (
		input.timezone !== undefined &&
		(typeof input.timezone !== 'string' || !isIanaTimeZone(input.timezone))
	)
		reasons.nested(where, 'timezone', 'is not a known time zone');
	if (input.metadata !== undefined && !isObject(input.metadata))
		reasons.nested(where, 'metadata', 'must be an object');
	if (
		input.tags !== undefined &&
		!(Array.isArray(input.tags) && input.tags.every((tag) => typeof tag === 'string'))
	)
		reasons.nested(where, 'tags', 'must be a list of strings');
	if (input.opted_out !== undefined && typeof input.opted_out !== 'boolean')
		reasons.nested(where, 'opted_out', 'must be true or false');
	if (
		input.communication_preference !== undefined &&
		!COMMUNICATION_PREFERENCES.includes(input.communication_preference as string)
	)
		reasons.nested(
			where,
			'communication_preference',
			`must be one of ${COMMUNICATION_PREFERENCES.join(', ')}`,
		);
}

function apply(contact: Contact, input: JsonObject, ctx: RouteContext): Contact {
	for (const [key, value] of Object.entries(input)) {
		if (key === 'phone_number') continue;
		if (key === 'metadata' && isObject(value)) {
			contact.metadata = deepMerge(
				isObject(contact.metadata) ? { ...contact.metadata } : {},
				value,
			);
		} else contact[key] = value;
	}
	contact.updated_at = ctx.now();
	return contact;
}

function upsert(ctx: RouteContext, input: JsonObject): Contact {
	let existing = ctx.state.contacts.find((entry) => entry.phone_number === input.phone_number);
	if (!existing) {
		existing = makeContact(newId('ct_'), null, input.phone_number as string, null, null, null);
		ctx.state.contacts.push(existing);
	}
	return apply(existing, input, ctx);
}

export const contactRoutes: Route = (ctx, { method, segments, body, raw }) => {
	const [, key] = segments;
	if (!key && method === 'POST') {
		const many = Array.isArray(raw);
		const inputs = (many ? raw : [body]) as unknown[];
		const reasons = new Reasons();
		if (inputs.length === 0) reasons.nested('contacts', 'base', 'must not be empty');
		inputs.forEach((input, index) => {
			const where = many ? `contacts[${index}]` : 'contact';
			if (!isObject(input)) reasons.nested(where, 'base', 'must be an object');
			else checkFields(reasons, where, input, true);
		});
		reasons.throwIfAny();
		const saved = (inputs as JsonObject[]).map((input) => upsert(ctx, input));
		return { status: many ? 200 : 201, body: many ? saved : saved[0] };
	}
	if (key === 'bulk_update_communication_preferences' && method === 'POST') {
		const phones = body.phone_numbers;
		if (
			!Array.isArray(phones) ||
			phones.length === 0 ||
			!phones.every((phone) => typeof phone === 'string' && isE164(phone))
		)
			throw validationFailed({
				phone_numbers: ['must be a non-empty list of E.164 phone numbers'],
			});
		if (!COMMUNICATION_PREFERENCES.includes(body.communication_preference as string))
			throw validationFailed({
				communication_preference: [`must be one of ${COMMUNICATION_PREFERENCES.join(', ')}`],
			});
		let updated = 0;
		for (const phone of phones as string[]) {
			const found = ctx.state.contacts.find((entry) => entry.phone_number === phone);
			if (found) {
				found.communication_preference = body.communication_preference as string;
				updated++;
			}
		}
		return { status: 200, body: { updated, not_found: phones.length - updated } };
	}
	if (key && key !== 'bulk_update_communication_preferences') {
		const phone = decodeURIComponent(key);
		const found = ctx.state.contacts.find((entry) => entry.phone_number === phone);
		if (!found) throw notFound('Contact', phone);
		if (method === 'GET') return { status: 200, body: found };
		if (method === 'PATCH') {
			const reasons = new Reasons();
			checkFields(reasons, 'contact', body, false);
			if (body.age !== undefined && (typeof body.age !== 'number' || !Number.isInteger(body.age)))
				reasons.nested('contact', 'age', 'must be a whole number');
			reasons.throwIfAny();
			return { status: 200, body: apply(found, body, ctx) };
		}
	}
	return undefined;
};

export const guestLinkRoutes: Route = (ctx, { method, segments, body }) => {
	const [, id, action] = segments;
	if (!id && method === 'POST') {
		const link = {
			...(isStringMap(body) ? body : {}),
			id: newId('sgl_'),
			url: `${ctx.baseUrl}/setup/${newId('g')}`,
			status: 'active',
			created_at: ctx.now(),
		};
		ctx.state.guestLinks.push(link);
		return { status: 201, body: link };
	}
	if (!id) return undefined;
	const link = ctx.state.guestLinks.find((entry) => entry.id === id);
	if (!link) throw notFound('Setup guest link', id);
	if (!action && method === 'DELETE') {
		link.status = 'expired';
		return { status: 204, body: null };
	}
	if (action === 'regenerate' && method === 'POST') {
		if (link.status === 'expired')
			throw validationFailed({ status: ['cannot regenerate an expired link'] });
		link.url = `${ctx.baseUrl}/setup/${newId('g')}`;
		return { status: 200, body: link };
	}
	return undefined;
};
