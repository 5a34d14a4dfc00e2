/**
 * The Peach sandbox: a stateful HTTP server that speaks the documented Peach API, for running and
 * testing n8n-nodes-peach without a Peach account. Test infrastructure only; never shipped in dist/.
 *
 *   /api/v1/...     the Peach API (Authorization: <key>, raw)
 *   /__sandbox/...  admin routes: state, recorded requests, webhook targets, event emission, faults, reset
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

import {
	type Automation,
	BUSINESS_PHONE_NUMBER,
	contact as makeContact,
	type Json,
	type JsonObject,
	newId,
	type PeachEvent,
	type RecordedRequest,
	seed,
	type SandboxState,
	type Trigger,
	type WebhookTarget,
} from './state.mts';
import { sampleEvent, WEBHOOK_EVENT_TYPES } from './webhooks.mts';

export interface SandboxOptions {
	port?: number;
	host?: string;
	apiKey?: string;
	/** Where outbound webhooks go (Peach configures these in its web app). */
	webhookTargets?: Array<string | WebhookTarget>;
	/** Pause between the queued send and its `message_delivery.sent` / `.delivered` webhooks. */
	deliveryDelayMs?: number;
	log?: (line: string) => void;
}

export type FaultKind = 'rate_limit' | 'server_error' | 'slow' | 'drop' | 'non_json';

export interface Fault {
	kind: FaultKind;
	method?: string;
	/** A path prefix, e.g. /api/v1/events. */
	path?: string;
	/** How many matching requests it hits; default 1. */
	times?: number;
	retryAfter?: number;
	delayMs?: number;
}

export interface Sandbox {
	url: string;
	port: number;
	apiKey: string;
	state: SandboxState;
	targets: WebhookTarget[];
	faults: Fault[];
	close(): Promise<void>;
	/** Resolves when every webhook delivery started so far has finished. */
	idle(): Promise<void>;
	emit(type: string, data?: JsonObject): Promise<void>;
}

export const DEFAULT_API_KEY = 'sandbox-key';

const E164 = /^\+[1-9]\d{6,14}$/;
const TIME = /^([01]\d|2[0-3]):[0-5]\d$/;

class HttpError extends Error {
	constructor(
		readonly status: number,
		readonly body: JsonObject,
	) {
		super(`HTTP ${status}`);
	}
}

/** 422 in Peach's documented validation shape: {"status":"failed","reason":{"<obj>":{"<field>":["msg"]}}}. */
function validationFailed(reason: JsonObject): HttpError {
	return new HttpError(422, { status: 'failed', reason });
}

function notFound(what: string, id: string): HttpError {
	return new HttpError(404, { message: `${what} not found`, id });
}

function isObject(value: unknown): value is JsonObject {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isValidTimeZone(zone: string): boolean {
	try {
		new Intl.DateTimeFormat('en-US', { timeZone: zone });
		return true;
	} catch {
		return false;
	}
}

function isStringMap(value: unknown): value is { [key: string]: string } {
	return isObject(value) && Object.values(value).every((entry) => typeof entry === 'string');
}

export function redactAuthorization(value: string | undefined, apiKey: string): string {
	if (value === undefined) return '<missing>';
	if (value === apiKey) return '<sandbox key>';
	if (value === `Bearer ${apiKey}`) return 'Bearer <sandbox key>';
	return `<other key, ${value.length} chars>`;
}

function paginate<T>(items: T[], query: Record<string, string>, baseUrl: string, path: string) {
	const per = Math.min(Math.max(Number(query.per ?? query.per_page ?? 25) || 25, 1), 1000);
	const page = Math.max(Number(query.page ?? 1) || 1, 1);
	const slice = items.slice((page - 1) * per, page * per);
	const link = (n: number) => `${baseUrl}/api/v1${path}?page=${n}&per=${per}`;
	return {
		count: items.length,
		next: page * per < items.length ? link(page + 1) : null,
		previous: page > 1 ? link(page - 1) : null,
		slice,
	};
}

export function validateDefinition(definition: unknown): string[] {
	if (!isObject(definition)) return ['must be an object'];
	const problems: string[] = [];
	const steps = definition.steps;
	if (!isObject(steps)) problems.push('steps must be an object of steps');
	if (typeof definition.start_step !== 'string' || definition.start_step === '') {
		problems.push('start_step must name the first step');
	} else if (isObject(steps) && !(definition.start_step in steps)) {
		problems.push(`start_step "${definition.start_step}" is not one of the steps`);
	}
	if (isObject(steps)) {
		for (const [id, step] of Object.entries(steps)) {
			if (!isObject(step) || typeof step.type !== 'string')
				problems.push(`step "${id}" needs a type`);
			else if (typeof step.next_step === 'string' && !(step.next_step in steps)) {
				problems.push(`step "${id}" has next_step "${step.next_step}", which is not a step`);
			}
		}
	}
	return problems;
}

export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
	const apiKey = options.apiKey ?? DEFAULT_API_KEY;
	const deliveryDelayMs = options.deliveryDelayMs ?? 200;
	const log = options.log ?? (() => undefined);
	let state = seed();
	const targets: WebhookTarget[] = (options.webhookTargets ?? []).map((target) =>
		typeof target === 'string' ? { url: target, headers: {} } : target,
	);
	const faults: Fault[] = [];
	const pending = new Set<Promise<void>>();
	const sockets = new Set<Socket>();
	let baseUrl = '';

	const now = () => new Date().toISOString();

	/** A documented list envelope, `{count, next, previous, <key>: [...]}`, for one page of `items`. */
	function listPage<T>(
		items: T[],
		query: Record<string, string>,
		path: string,
		key: string,
		map: (item: T) => Json = (item) => item as Json,
	) {
		const page = paginate(items, query, baseUrl, path);
		return {
			status: 200,
			body: {
				count: page.count,
				next: page.next,
				previous: page.previous,
				[key]: page.slice.map(map),
			},
		};
	}

	function track(work: Promise<void>) {
		pending.add(work);
		void work.finally(() => pending.delete(work));
	}

	async function deliver(type: string, data: JsonObject): Promise<void> {
		const payload: JsonObject = { type, data };
		await Promise.all(
			targets.map(async (target) => {
				const delivery = {
					at: now(),
					url: target.url,
					type,
					payload,
					status: null as number | null,
					error: null as string | null,
				};
				state.deliveries.push(delivery);
				try {
					const response = await fetch(target.url, {
						method: 'POST',
						headers: {
							'Content-Type': 'application/json',
							'User-Agent': 'Peach-Sandbox-Webhooks/1',
							...target.headers,
						},
						body: JSON.stringify(payload),
					});
					delivery.status = response.status;
					await response.arrayBuffer();
				} catch (error) {
					delivery.error = (error as Error).message;
				}
				log(`webhook ${type} -> ${target.url}: ${delivery.status ?? delivery.error}`);
			}),
		);
	}

	function emit(type: string, data?: JsonObject): Promise<void> {
		const work = deliver(type, data ?? sampleEvent(type));
		track(work);
		return work;
	}

	function upsertContact(input: JsonObject) {
		const phone = String(input.phone_number);
		let existing = state.contacts.find((entry) => entry.phone_number === phone);
		if (!existing) {
			existing = makeContact(newId('ct_'), null, phone, null, null, null);
			state.contacts.push(existing);
		}
		if (typeof input.name === 'string') existing.name = input.name;
		if (typeof input.email === 'string') existing.email = input.email;
		if (typeof input.language === 'string') existing.language = input.language;
		return existing;
	}

	function sendTemplateMessage(body: JsonObject): { status: number; body: JsonObject } {
		const reason: { [key: string]: { [field: string]: string[] } } = {};
		const fail = (object: string, field: string, message: string) => {
			reason[object] ??= {};
			(reason[object][field] ??= []).push(message);
		};
		const contactIn = body.contact;
		const message = body.template_message;
		if (!isObject(contactIn)) fail('contact', 'base', 'is required');
		else {
			if (typeof contactIn.phone_number !== 'string' || contactIn.phone_number === '')
				fail('contact', 'phone_number', "can't be blank");
			else if (!E164.test(contactIn.phone_number))
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
				const found = state.templates.find(
					(entry) => entry.id === templateId || entry.template_name === templateId,
				);
				if (!found)
					fail(
						'template_message',
						'whats_app_template_id',
						`template ${templateId} does not exist`,
					);
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
						if (typeof window[key] !== 'string' || !TIME.test(window[key] as string))
							fail('template_message', `retry_window.${key}`, 'must be HH:MM');
					}
					if (
						window.timezone !== undefined &&
						(typeof window.timezone !== 'string' || !isValidTimeZone(window.timezone))
					)
						fail('template_message', 'retry_window.timezone', 'is not a known time zone');
				}
			}
			if (
				message.business_phone_number !== undefined &&
				(typeof message.business_phone_number !== 'string' ||
					!/^\d{7,15}$/.test(message.business_phone_number))
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
		if (Object.keys(reason).length) throw validationFailed(reason);

		const contactIn2 = contactIn as JsonObject;
		const messageIn = message as JsonObject;
		const stored = upsertContact(contactIn2);
		const eventId = newId('evt_');
		const messageId = newId('cmsg_');
		const event: PeachEvent = {
			id: eventId,
			event_type: 'send_template_message',
			status: 'processed',
			created_at: now(),
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
		state.events.push(event);
		const result = event.result as JsonObject;
		const deliveryMessage = (status: string): JsonObject => ({
			id: messageId,
			status,
			type: 'template_message',
			reason: null,
			created_at: event.created_at,
			updated_at: now(),
		});
		track(
			(async () => {
				for (const status of ['sent', 'delivered']) {
					await new Promise((resolve) => setTimeout(resolve, deliveryDelayMs));
					result.status = status;
					await deliver(`message_delivery.${status}`, {
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

	function createAutomation(body: JsonObject): { status: number; body: JsonObject } {
		const reason: { [field: string]: string[] } = {};
		const fail = (field: string, message: string) => (reason[field] ??= []).push(message);
		if (typeof body.name !== 'string' || body.name.trim() === '') fail('name', "can't be blank");
		if (
			body.status !== undefined &&
			!['draft', 'published', 'archived'].includes(body.status as string)
		)
			fail('status', 'must be draft, published or archived');
		if (
			body.execution_mode !== undefined &&
			!['backend_driven', 'definition_driven'].includes(body.execution_mode as string)
		)
			fail('execution_mode', 'must be backend_driven or definition_driven');
		if (body.definition !== undefined && !isObject(body.definition))
			fail('definition', 'must be an object');
		if (body.backend_url !== undefined && !/^https?:\/\/\S+$/.test(String(body.backend_url)))
			fail('backend_url', 'must be an http(s) URL');
		if (
			body.business_phone_number !== undefined &&
			!/^\d{7,15}$/.test(String(body.business_phone_number))
		)
			fail('business_phone_number', 'must be digits with the country code, no +');
		const status = (body.status as string | undefined) ?? 'draft';
		if (status === 'published' && !Object.keys(reason).length) {
			for (const problem of validateDefinition(body.definition)) fail('definition', problem);
		}
		if (Object.keys(reason).length) throw validationFailed(reason);
		const at = now();
		const automation: Automation = {
			id: newId('strm_'),
			name: (body.name as string).trim(),
			description: (body.description as string | undefined) ?? null,
			status,
			execution_mode:
				(body.execution_mode as string | undefined) ??
				(body.definition !== undefined ? 'definition_driven' : 'backend_driven'),
			phone_number: (body.business_phone_number as string | undefined) ?? BUSINESS_PHONE_NUMBER,
			backend_url: (body.backend_url as string | undefined) ?? null,
			definition: (body.definition as JsonObject | undefined) ?? null,
			created_at: at,
			updated_at: at,
		};
		state.automations.push(automation);
		return { status: 201, body: automation };
	}

	function updateAutomation(
		automation: Automation,
		body: JsonObject,
	): { status: number; body: JsonObject } {
		const next = { ...automation, ...body } as Automation;
		if (next.status === 'published') {
			const problems = validateDefinition(next.definition);
			if (problems.length) throw validationFailed({ definition: problems });
		}
		Object.assign(automation, body, { updated_at: now() });
		return { status: 200, body: automation };
	}

	function updateTrigger(trigger: Trigger, body: JsonObject): { status: number; body: JsonObject } {
		const reason: { [field: string]: string[] } = {};
		const fail = (field: string, message: string) => (reason[field] ??= []).push(message);
		if (body.variables !== undefined && !isStringMap(body.variables))
			fail('variables', 'must map strings to strings');
		if (body.description !== undefined && typeof body.description !== 'string')
			fail('description', 'must be a string');
		if (body.activate !== undefined && typeof body.activate !== 'boolean')
			fail('activate', 'must be true or false');
		if (body.data_mappings !== undefined) {
			if (!Array.isArray(body.data_mappings)) fail('data_mappings', 'must be an array');
			else {
				body.data_mappings.forEach((mapping, index) => {
					if (
						!isObject(mapping) ||
						!['recipient', 'variable'].includes(mapping.mapping_for as string)
					)
						fail(`data_mappings[${index}].mapping_for`, 'must be recipient or variable');
					else if (!isStringMap(mapping.value))
						fail(`data_mappings[${index}].value`, 'must map strings to strings');
					else if (mapping.mapping_for === 'recipient' && !mapping.value.phone_number)
						fail(
							`data_mappings[${index}].value.phone_number`,
							'is required for a recipient mapping',
						);
				});
			}
		}
		if (Object.keys(reason).length) throw validationFailed(reason);
		if (isStringMap(body.variables))
			trigger.condition.variables = { ...trigger.condition.variables, ...body.variables };
		if (Array.isArray(body.data_mappings))
			trigger.data_mappings = body.data_mappings as Trigger['data_mappings'];
		if (typeof body.description === 'string') trigger.description = body.description;
		if (body.activate === true) {
			trigger.status = 'active';
			state.registrations.push({
				trigger_id: trigger.id,
				stream_id: trigger.stream_id,
				registered_at: now(),
			});
		} else if (body.activate === false) {
			trigger.status = 'paused';
		}
		trigger.updated_at = now();
		return { status: 200, body: trigger };
	}

	function route(
		method: string,
		path: string,
		query: Record<string, string>,
		body: Json | undefined,
	): { status: number; body: Json } {
		const segments = path.replace(/\/+$/, '').split('/').slice(3); // after /api/v1
		const [resource, id, sub] = segments;
		const objectBody = isObject(body) ? body : {};

		if (resource === 'conversations' && !id && method === 'GET') {
			return listPage(state.contacts, query, '/conversations', 'conversations', (entry) => ({
				id: `conv_${entry.id}`,
				status: 'open',
				contact: entry,
			}));
		}
		if (resource === 'whats_app_templates' && !id && method === 'GET') {
			// Documented as a bare array; `page`/`per` narrow it when given.
			if (query.page === undefined) return { status: 200, body: state.templates };
			return {
				status: 200,
				body: paginate(state.templates, query, baseUrl, '/whats_app_templates/').slice,
			};
		}
		if (resource === 'whats_app_templates' && id && !sub && method === 'GET') {
			const found = state.templates.find((entry) => entry.id === id || entry.template_name === id);
			if (!found) throw notFound('Template', id);
			return { status: 200, body: found };
		}
		if (resource === 'events' && !id && method === 'POST') {
			if (objectBody.event_type === 'send_template_message') return sendTemplateMessage(objectBody);
			throw validationFailed({
				event_type: [`${String(objectBody.event_type ?? '')} is not supported by the sandbox`],
			});
		}
		if (resource === 'events' && id && method === 'GET') {
			const found = state.events.find((entry) => entry.id === id);
			if (!found) throw notFound('Event', id);
			return { status: 200, body: { id: found.id, status: found.status, result: found.result } };
		}
		if (resource === 'streams' && !id) {
			if (method === 'GET') {
				const filtered = query.execution_mode
					? state.automations.filter((entry) => entry.execution_mode === query.execution_mode)
					: state.automations;
				return listPage(filtered, query, '/streams', 'streams');
			}
			if (method === 'POST') return createAutomation(objectBody);
		}
		if (resource === 'streams' && id) {
			const automation = state.automations.find((entry) => entry.id === id);
			if (!automation) throw notFound('Automation', id);
			if (!sub && method === 'GET') return { status: 200, body: automation };
			if (!sub && method === 'PATCH') return updateAutomation(automation, objectBody);
			if (sub === 'triggers' && method === 'GET') {
				const own = state.triggers.filter((entry) => entry.stream_id === id);
				return listPage(own, query, `/streams/${id}/triggers`, 'triggers');
			}
		}
		if (resource === 'triggers' && id && !sub && method === 'PATCH') {
			const trigger = state.triggers.find((entry) => entry.id === id);
			if (!trigger) throw notFound('Trigger', id);
			return updateTrigger(trigger, objectBody);
		}
		throw new HttpError(404, { message: 'Not found' });
	}

	function admin(
		method: string,
		path: string,
		body: Json | undefined,
	): { status: number; body: Json } {
		const action = path.slice('/__sandbox/'.length).replace(/\/+$/, '');
		const input = isObject(body) ? body : {};
		if (action === 'health') return { status: 200, body: { ok: true } };
		if (action === 'state' && method === 'GET')
			return { status: 200, body: state as unknown as JsonObject };
		if (action === 'requests' && method === 'GET')
			return { status: 200, body: state.requests as unknown as Json };
		if (action === 'requests' && method === 'DELETE') {
			state.requests.length = 0;
			return { status: 200, body: { cleared: true } };
		}
		if (action === 'webhooks' && method === 'GET')
			return { status: 200, body: { targets, deliveries: state.deliveries } as unknown as Json };
		if (action === 'webhooks' && method === 'POST') {
			if (typeof input.url !== 'string' || !/^https?:\/\//.test(input.url))
				throw validationFailed({ url: ['must be an http(s) URL'] });
			const target = { url: input.url, headers: isStringMap(input.headers) ? input.headers : {} };
			targets.push(target);
			return { status: 201, body: target };
		}
		if (action === 'webhooks' && method === 'DELETE') {
			const before = targets.length;
			const keep = targets.filter(
				(target) => typeof input.url === 'string' && target.url !== input.url,
			);
			targets.splice(0, targets.length, ...keep);
			return { status: 200, body: { removed: before - targets.length } };
		}
		if (action === 'emit' && method === 'POST') {
			if (typeof input.type !== 'string' || input.type === '')
				throw validationFailed({ type: ["can't be blank"] });
			const data = isObject(input.data) ? input.data : sampleEvent(input.type);
			track(deliver(input.type, data));
			return { status: 202, body: { type: input.type, data, targets: targets.length } };
		}
		if (action === 'events' && method === 'GET')
			return { status: 200, body: [...WEBHOOK_EVENT_TYPES] };
		if (action === 'faults' && method === 'POST') {
			const kinds: FaultKind[] = ['rate_limit', 'server_error', 'slow', 'drop', 'non_json'];
			if (!kinds.includes(input.kind as FaultKind))
				throw validationFailed({ kind: [`must be one of ${kinds.join(', ')}`] });
			const fault: Fault = {
				kind: input.kind as FaultKind,
				method: typeof input.method === 'string' ? input.method.toUpperCase() : undefined,
				path: typeof input.path === 'string' ? input.path : undefined,
				times: typeof input.times === 'number' ? input.times : 1,
				retryAfter: typeof input.retryAfter === 'number' ? input.retryAfter : 1,
				delayMs: typeof input.delayMs === 'number' ? input.delayMs : 2000,
			};
			faults.push(fault);
			return { status: 201, body: fault as unknown as JsonObject };
		}
		if (action === 'faults' && method === 'DELETE') {
			faults.length = 0;
			return { status: 200, body: { cleared: true } };
		}
		if (action === 'reset' && method === 'POST') {
			state = seed();
			sandbox.state = state;
			faults.length = 0;
			return { status: 200, body: { reset: true } };
		}
		throw new HttpError(404, { message: 'Not found' });
	}

	function takeFault(method: string, path: string, header: string | undefined): Fault | undefined {
		if (header) return { kind: header as FaultKind, retryAfter: 1, delayMs: 2000 };
		const index = faults.findIndex(
			(fault) =>
				(!fault.method || fault.method === method) && (!fault.path || path.startsWith(fault.path)),
		);
		if (index === -1) return undefined;
		const fault = faults[index];
		fault.times = (fault.times ?? 1) - 1;
		if (fault.times <= 0) faults.splice(index, 1);
		return fault;
	}

	function send(
		res: ServerResponse,
		status: number,
		body: Json,
		headers: Record<string, string> = {},
	) {
		res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', ...headers });
		res.end(JSON.stringify(body));
	}

	async function handle(req: IncomingMessage, res: ServerResponse) {
		const url = new URL(req.url ?? '/', baseUrl);
		const method = (req.method ?? 'GET').toUpperCase();
		const chunks: Buffer[] = [];
		for await (const chunk of req) chunks.push(chunk as Buffer);
		const rawBody = Buffer.concat(chunks).toString('utf8');
		let body: Json | undefined;
		let badJson = false;
		if (rawBody !== '') {
			try {
				body = JSON.parse(rawBody) as Json;
			} catch {
				badJson = true;
			}
		}

		if (url.pathname.startsWith('/__sandbox/')) {
			try {
				const result = admin(method, url.pathname, body);
				send(res, result.status, result.body);
			} catch (error) {
				if (error instanceof HttpError) send(res, error.status, error.body);
				else send(res, 500, { message: (error as Error).message });
			}
			return;
		}

		const headers: Record<string, string> = {};
		for (const [name, value] of Object.entries(req.headers)) {
			if (typeof value === 'string') headers[name] = value;
		}
		headers.authorization = redactAuthorization(req.headers.authorization, apiKey);
		const record: RecordedRequest = {
			at: now(),
			method,
			path: url.pathname,
			query: Object.fromEntries(url.searchParams),
			headers,
			body,
			rawBody: rawBody.length > 10000 ? rawBody.slice(0, 10000) : rawBody,
		};
		if (url.pathname.startsWith('/api/v1/')) state.requests.push(record);
		const reply = (status: number, replyBody: Json, extra: Record<string, string> = {}) => {
			record.status = status;
			log(`${method} ${url.pathname} -> ${status}`);
			send(res, status, replyBody, extra);
		};

		if (!url.pathname.startsWith('/api/v1/')) return reply(404, { message: 'Not found' });
		if (req.headers.authorization !== apiKey) return reply(401, { message: 'Unauthorized' });

		const fault = takeFault(
			method,
			url.pathname,
			req.headers['x-sandbox-fault'] as string | undefined,
		);
		if (fault?.kind === 'rate_limit')
			return reply(
				429,
				{ message: 'Too many requests' },
				{ 'Retry-After': String(fault.retryAfter ?? 1) },
			);
		if (fault?.kind === 'server_error') return reply(500, { message: 'Internal server error' });
		if (fault?.kind === 'drop') {
			record.status = 0;
			log(`${method} ${url.pathname} -> dropped`);
			req.socket.destroy();
			return;
		}
		if (fault?.kind === 'non_json') {
			record.status = 502;
			res.writeHead(502, { 'Content-Type': 'text/html' });
			res.end('<!DOCTYPE html><html><body><h1>502 Bad Gateway</h1></body></html>');
			return;
		}
		if (fault?.kind === 'slow')
			await new Promise((resolve) => setTimeout(resolve, fault.delayMs ?? 2000));

		if (badJson) return reply(400, { message: 'Body is not valid JSON' });
		try {
			const result = route(method, url.pathname, record.query, body);
			reply(result.status, result.body);
		} catch (error) {
			if (error instanceof HttpError) reply(error.status, error.body);
			else reply(500, { message: (error as Error).message });
		}
	}

	const server: Server = createServer((req, res) => {
		handle(req, res).catch((error: Error) => {
			if (!res.headersSent) send(res, 500, { message: error.message });
		});
	});
	server.on('connection', (socket) => {
		sockets.add(socket);
		socket.on('close', () => sockets.delete(socket));
	});
	await new Promise<void>((resolve, reject) => {
		server.once('error', reject);
		server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
	});
	const address = server.address() as AddressInfo;
	baseUrl = `http://${options.host ?? '127.0.0.1'}:${address.port}`;

	const sandbox: Sandbox = {
		url: baseUrl,
		port: address.port,
		apiKey,
		state,
		targets,
		faults,
		emit,
		async idle() {
			while (pending.size) await Promise.all([...pending]);
		},
		async close() {
			await new Promise<void>((resolve) => {
				server.close(() => resolve());
				for (const socket of sockets) socket.destroy();
			});
		},
	};
	return sandbox;
}
