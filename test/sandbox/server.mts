/**
 * The Peach sandbox: a stateful HTTP server that speaks the documented Peach API, for running and
 * testing n8n-nodes-peach without a Peach account. Test infrastructure only; never shipped in dist/.
 *
 *   /api/v1/...     the Peach API (Authorization: <key>, raw)
 *   /__sandbox/...  admin routes: state, recorded requests, storage counts, webhook targets, event
 *                   emission, faults, reset
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

import {
	HttpError,
	isObject,
	isStringMap,
	paginate,
	type Route,
	type RouteContext,
	type RouteResult,
	validationFailed,
} from './http.mts';
import { answer, previewLinks } from './phone.mts';
import { digitsOf, phonePage, phoneQuery } from './phonePage.mts';
import { broadcastRoutes } from './routes/broadcasts.mts';
import { contactRoutes, guestLinkRoutes } from './routes/contacts.mts';
import { activityRoutes, conversationRoutes, messageRoutes } from './routes/conversations.mts';
import { eventRoutes } from './routes/events.mts';
import { expressionRoutes } from './routes/expressions.mts';
import { mediaRoutes } from './routes/medias.mts';
import { orderRoutes } from './routes/orders.mts';
import { streamRoutes } from './routes/streams.mts';
import { templateMessageRoutes } from './routes/templateMessages.mts';
import { templateRoutes } from './routes/templates.mts';
import { triggerRoutes } from './routes/triggers.mts';
import {
	type Json,
	type JsonObject,
	type RecordedRequest,
	seed,
	type SandboxState,
	type WebhookTarget,
} from './state/index.mts';
import { sampleEvent, WEBHOOK_EVENT_TYPES } from './webhooks.mts';
import { storage } from './storage.mts';

/** The API's resources (the first path segment after /api/v1) and their routes. */
const ROUTES: Record<string, Route> = {
	activities: activityRoutes,
	broadcasts: broadcastRoutes,
	contacts: contactRoutes,
	conversations: conversationRoutes,
	events: eventRoutes,
	expressions: expressionRoutes,
	medias: mediaRoutes,
	messages: messageRoutes,
	orders: orderRoutes,
	setup_guest_links: guestLinkRoutes,
	streams: streamRoutes,
	template_messages: templateMessageRoutes,
	triggers: triggerRoutes,
	whats_app_templates: templateRoutes,
};

export { validateDefinition } from './rules.mts';

export interface SandboxOptions {
	port?: number;
	host?: string;
	apiKey?: string;
	/** Where outbound webhooks go (Peach configures these in its web app). */
	webhookTargets?: Array<string | WebhookTarget>;
	/** Pause between the queued send and its `message_delivery.sent` / `.delivered` webhooks. */
	deliveryDelayMs?: number;
	/** A rate-limited Peach (Peach documents no limit: this is for seeing a client back off). */
	rateLimit?: RateLimit;
	log?: (line: string) => void;
}

/**
 * A rate-limited Peach: beyond `inFlight` API requests open at once, or `perSecond` in the last
 * second, a request is answered 429 with Retry-After (`retryAfter` seconds) and nothing happens.
 * `latencyMs` makes every API answer take that long (a real network), so requests stay open.
 */
export interface RateLimit {
	inFlight?: number;
	perSecond?: number;
	retryAfter?: number;
	latencyMs?: number;
}

export type FaultKind = 'rate_limit' | 'server_error' | 'slow' | 'drop' | 'non_json' | 'refuse';

export interface Fault {
	kind: FaultKind;
	method?: string;
	/** A path prefix, e.g. /api/v1/events. */
	path?: string;
	/** How many matching requests it hits; default 1. */
	times?: number;
	/** Hits only every N-th matching request (default 1: each), spreading faults through a run. */
	every?: number;
	/** Matching requests seen so far (for `every` and `after`). */
	seen?: number;
	/** Lets this many matching requests through before the fault starts (e.g. 599: from the 600th). */
	after?: number;
	/**
	 * From its first hit on, hits every matching request for this long (then it is gone), whatever
	 * `times` says: Peach rate-limiting for 30 s, say.
	 */
	forMs?: number;
	/** When a `forMs` fault first hit. */
	since?: number;
	/** Only requests whose body holds this text (a phone number, say: Peach refusing one contact). */
	bodyIncludes?: string;
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
	/** The rate limit in force (changed by POST /__sandbox/rate-limit); {} for none. */
	rateLimit: RateLimit;
	close(): Promise<void>;
	/** Resolves when every webhook delivery started so far has finished. */
	idle(): Promise<void>;
	emit(type: string, data?: JsonObject): Promise<void>;
	/** The contacts' phones: link previews, and a contact answering on the page a link opens. */
	phone: {
		preview(phone: string): ReturnType<typeof previewLinks>;
		answer(phone: string, input: Parameters<typeof answer>[2]): ReturnType<typeof answer>;
	};
}

export const DEFAULT_API_KEY = 'sandbox-key';

/**
 * The rate limit from the environment (`npm run sandbox`, `npm run dev`): PEACH_SANDBOX_MAX_IN_FLIGHT,
 * PEACH_SANDBOX_MAX_PER_SECOND, PEACH_SANDBOX_RETRY_AFTER (seconds) and PEACH_SANDBOX_LATENCY_MS.
 */
export function rateLimitFromEnvironment(env: NodeJS.ProcessEnv = process.env): RateLimit {
	const number = (name: string) => {
		const value = env[name];
		return value === undefined || value === '' ? undefined : Number(value);
	};
	const limit: RateLimit = {
		inFlight: number('PEACH_SANDBOX_MAX_IN_FLIGHT'),
		perSecond: number('PEACH_SANDBOX_MAX_PER_SECOND'),
		retryAfter: number('PEACH_SANDBOX_RETRY_AFTER'),
		latencyMs: number('PEACH_SANDBOX_LATENCY_MS'),
	};
	for (const key of Object.keys(limit) as Array<keyof RateLimit>) {
		if (limit[key] === undefined) delete limit[key];
		else if (!Number.isFinite(limit[key]) || (limit[key] as number) < 0)
			throw new Error(`${key} from the environment is not a number of 0 or more`);
	}
	return limit;
}

export function redactAuthorization(value: string | undefined, apiKey: string): string {
	if (value === undefined) return '<missing>';
	if (value === apiKey) return '<sandbox key>';
	if (value === `Bearer ${apiKey}`) return 'Bearer <sandbox key>';
	return `<other key, ${value.length} chars>`;
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
	const rateLimit: RateLimit = { ...options.rateLimit };
	/** When the API requests of the last second came (for `perSecond`). */
	const lastSecond: number[] = [];
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

	const routeContext: RouteContext = {
		get state() {
			return state;
		},
		get baseUrl() {
			return baseUrl;
		},
		deliveryDelayMs,
		now,
		deliver,
		track,
		listPage,
	};

	function route(
		method: string,
		path: string,
		query: Record<string, string>,
		body: Json | undefined,
	): RouteResult {
		const segments = path.replace(/\/+$/, '').split('/').slice(3); // after /api/v1
		const routes = Object.hasOwn(ROUTES, segments[0]) ? ROUTES[segments[0]] : undefined;
		const result = routes?.(routeContext, {
			method,
			segments,
			query,
			body: isObject(body) ? body : {},
			raw: body,
		});
		if (!result) throw new HttpError(404, { message: 'Not found' });
		return result;
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
		if (action === 'storage' && method === 'GET') {
			// What reached the storage: direct uploads created, files received, media finalized.
			return {
				status: 200,
				body: {
					directUploads: state.uploads.length,
					filesReceived: state.uploads.filter((upload) => upload.bytes !== null).length,
					medias: state.medias.length,
					storageRequests: state.storageRequests.length,
				},
			};
		}
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
			const kinds: FaultKind[] = [
				'rate_limit',
				'server_error',
				'slow',
				'drop',
				'non_json',
				'refuse',
			];
			if (!kinds.includes(input.kind as FaultKind))
				throw validationFailed({ kind: [`must be one of ${kinds.join(', ')}`] });
			const fault: Fault = {
				kind: input.kind as FaultKind,
				method: typeof input.method === 'string' ? input.method.toUpperCase() : undefined,
				path: typeof input.path === 'string' ? input.path : undefined,
				times: typeof input.times === 'number' ? input.times : 1,
				retryAfter: typeof input.retryAfter === 'number' ? input.retryAfter : 1,
				delayMs: typeof input.delayMs === 'number' ? input.delayMs : 2000,
				every: typeof input.every === 'number' && input.every >= 1 ? input.every : 1,
				after: typeof input.after === 'number' && input.after >= 0 ? input.after : 0,
				forMs: typeof input.forMs === 'number' && input.forMs > 0 ? input.forMs : undefined,
				bodyIncludes: typeof input.bodyIncludes === 'string' ? input.bodyIncludes : undefined,
				seen: 0,
			};
			faults.push(fault);
			return { status: 201, body: fault as unknown as JsonObject };
		}
		if (action === 'rate-limit' && method === 'POST') {
			for (const key of ['inFlight', 'perSecond', 'retryAfter', 'latencyMs'] as const) {
				const value = input[key];
				if (value !== undefined && (typeof value !== 'number' || value < 0))
					throw validationFailed({ [key]: ['must be a number, 0 or more'] });
			}
			for (const key of Object.keys(rateLimit)) delete rateLimit[key as keyof RateLimit];
			Object.assign(rateLimit, input);
			// A new limit counts from now.
			lastSecond.length = 0;
			return { status: 200, body: rateLimit as JsonObject };
		}
		if (action === 'rate-limit' && method === 'DELETE') {
			for (const key of Object.keys(rateLimit)) delete rateLimit[key as keyof RateLimit];
			return { status: 200, body: { cleared: true } };
		}
		if (action === 'faults' && method === 'DELETE') {
			faults.length = 0;
			return { status: 200, body: { cleared: true } };
		}
		const review = /^templates\/([^/]+)\/status$/.exec(action);
		if (review && method === 'POST') {
			// Meta's review, which the sandbox cannot do: set a template's status by hand.
			const template = state.templates.find((entry) => entry.id === review[1]);
			if (!template) throw new HttpError(404, { message: 'Template not found' });
			if (typeof input.status !== 'string') throw validationFailed({ status: ["can't be blank"] });
			template.status = input.status;
			return { status: 200, body: template };
		}
		const paid = /^orders\/([^/]+)\/pay$/.exec(action);
		if (paid && method === 'POST') {
			// The customer paying, which the sandbox cannot do: the order completes, Peach posts order.completed.
			const order = state.orders.find((entry) => entry.id === paid[1]);
			if (!order) throw new HttpError(404, { message: 'Order not found' });
			order.status = 'completed';
			track(
				deliver('order.completed', {
					id: order.id,
					reference_id: order.reference_id ?? order.id,
					status: 'completed',
					contact: order.contact,
				}),
			);
			return { status: 200, body: order };
		}
		if (action === 'reset' && method === 'POST') {
			state = seed();
			sandbox.state = state;
			faults.length = 0;
			return { status: 200, body: { reset: true } };
		}
		throw new HttpError(404, { message: 'Not found' });
	}

	/**
	 * Acting as a contact: GET /__sandbox/phone[?phone=] (the messages shown), POST
	 * /__sandbox/phone/preview {phone} (WhatsApp's link preview: GETs only), POST
	 * /__sandbox/phone/answer {phone, choice?, text?, link?} (open the link, answer on its page).
	 */
	async function phoneAction(method: string, url: URL, body: Json | undefined) {
		const input = isObject(body) ? body : {};
		const phone = String(input.phone ?? url.searchParams.get('phone') ?? '');
		const action = url.pathname.slice('/__sandbox/phone'.length).replace(/^\/|\/$/g, '');
		if (action === '' && method === 'GET') {
			// By its digits: a + typed in an address bar arrives as a space.
			const digits = phoneQuery(url.searchParams.get('phone'));
			return state.phone.filter((message) => !digits || digitsOf(message.phone_number) === digits);
		}
		if (action === 'preview' && method === 'POST') return await previewLinks(state, phone);
		if (action === 'answer' && method === 'POST')
			return await answer(state, phone, {
				choice: typeof input.choice === 'string' ? input.choice : undefined,
				text: typeof input.text === 'string' ? input.text : undefined,
				link: typeof input.link === 'string' ? input.link : undefined,
				fields: isObject(input.fields)
					? (input.fields as Record<string, string | string[]>)
					: undefined,
			});
		throw new Error(`${method} /__sandbox/phone/${action} is not a phone action`);
	}

	function takeFault(
		method: string,
		path: string,
		header: string | undefined,
		body: string,
	): Fault | undefined {
		if (header) return { kind: header as FaultKind, retryAfter: 1, delayMs: 2000 };
		const now = Date.now();
		// A time-limited fault whose time is over is gone.
		for (let at = faults.length - 1; at >= 0; at--) {
			const fault = faults[at];
			if (fault.since !== undefined && now - fault.since >= (fault.forMs ?? 0))
				faults.splice(at, 1);
		}
		const index = faults.findIndex((fault) => {
			if (fault.method && fault.method !== method) return false;
			if (fault.path && !path.startsWith(fault.path)) return false;
			if (fault.bodyIncludes !== undefined && !body.includes(fault.bodyIncludes)) return false;
			fault.seen = (fault.seen ?? 0) + 1;
			const counted = fault.seen - (fault.after ?? 0);
			return counted > 0 && counted % (fault.every ?? 1) === 0;
		});
		if (index === -1) return undefined;
		const fault = faults[index];
		if (fault.forMs !== undefined) {
			fault.since ??= now;
			return fault;
		}
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
		if (status === 204) {
			res.writeHead(204, headers);
			res.end();
			return;
		}
		res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', ...headers });
		res.end(JSON.stringify(body));
	}

	async function handle(req: IncomingMessage, res: ServerResponse) {
		const url = new URL(req.url ?? '/', baseUrl);
		const method = (req.method ?? 'GET').toUpperCase();
		const chunks: Buffer[] = [];
		for await (const chunk of req) chunks.push(chunk as Buffer);
		const bytes = Buffer.concat(chunks);
		if (url.pathname.startsWith('/storage/'))
			state.storageRequests.push({
				method,
				path: url.pathname,
				headerNames: Object.keys(req.headers).sort(),
			});
		const stored = storage(state, req, method, url.pathname, bytes);
		if (stored) {
			log(`${method} ${url.pathname} -> ${stored.status} (storage)`);
			res.writeHead(stored.status, stored.headers);
			res.end(stored.body);
			return;
		}
		const rawBody = bytes.toString('utf8');
		let body: Json | undefined;
		let badJson = false;
		if (rawBody !== '') {
			try {
				body = JSON.parse(rawBody) as Json;
			} catch {
				badJson = true;
			}
		}

		if (
			method === 'GET' &&
			url.pathname.replace(/\/$/, '') === '/__sandbox/phone' &&
			url.searchParams.get('format') !== 'json' &&
			/text\/html/.test(req.headers.accept ?? '')
		) {
			// A person's browser: the page; scripts get JSON.
			res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
			res.end(phonePage(state.phone, phoneQuery(url.searchParams.get('phone'))));
			return;
		}
		if (url.pathname.startsWith('/__sandbox/phone')) {
			try {
				send(res, 200, (await phoneAction(method, url, body)) as Json);
			} catch (error) {
				send(res, 400, { message: (error as Error).message });
			}
			return;
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
			startedMs: performance.now(),
		};
		if (url.pathname.startsWith('/api/v1/')) {
			state.requests.push(record);
			// How many API requests are open at once: a client's parallelism, seen from here.
			state.inFlight++;
			state.peakInFlight = Math.max(state.peakInFlight, state.inFlight);
			res.once('close', () => state.inFlight--);
		}
		const reply = (status: number, replyBody: Json, extra: Record<string, string> = {}) => {
			record.status = status;
			record.answeredMs = performance.now();
			log(`${method} ${url.pathname} -> ${status}`);
			send(res, status, replyBody, extra);
		};

		if (!url.pathname.startsWith('/api/v1/')) return reply(404, { message: 'Not found' });
		if (req.headers.authorization !== apiKey) return reply(401, { message: 'Unauthorized' });

		const arrived = performance.now();
		while (lastSecond.length && arrived - lastSecond[0] >= 1000) lastSecond.shift();
		const overLimit =
			(rateLimit.inFlight !== undefined && state.inFlight > rateLimit.inFlight) ||
			(rateLimit.perSecond !== undefined && lastSecond.length >= rateLimit.perSecond);
		if (overLimit) {
			state.rateLimited++;
			return reply(
				429,
				{ message: 'Too many requests' },
				{ 'Retry-After': String(rateLimit.retryAfter ?? 1) },
			);
		}
		lastSecond.push(arrived);
		if (rateLimit.latencyMs)
			await new Promise((resolve) => setTimeout(resolve, rateLimit.latencyMs));

		const fault = takeFault(
			method,
			url.pathname,
			req.headers['x-sandbox-fault'] as string | undefined,
			rawBody,
		);
		if (fault?.kind === 'rate_limit')
			return reply(
				429,
				{ message: 'Too many requests' },
				{ 'Retry-After': String(fault.retryAfter ?? 1) },
			);
		if (fault?.kind === 'server_error') return reply(500, { message: 'Internal server error' });
		// Peach's validation failure: the request is refused, nothing happens.
		if (fault?.kind === 'refuse')
			return reply(422, {
				status: 'failed',
				reason: { contact: { phone_number: ['is blocked by the sandbox'] } },
			});
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
		rateLimit,
		emit,
		async idle() {
			while (pending.size) await Promise.all([...pending]);
		},
		phone: {
			preview: (phone) => previewLinks(state, phone),
			answer: (phone, input) => answer(state, phone, input),
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
