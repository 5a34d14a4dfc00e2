import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';

import { startReceiver } from './receiver.mts';
import { type Sandbox, startSandbox, validateDefinition } from './server.mts';
import { WEBHOOK_EVENT_TYPES } from './webhooks.mts';

const KEY = 'test-sandbox-key';
let sandbox: Sandbox;
let receiver: Awaited<ReturnType<typeof startReceiver>>;

async function api(
	method: string,
	path: string,
	body?: unknown,
	headers: Record<string, string> = {},
) {
	const response = await fetch(`${sandbox.url}${path}`, {
		method,
		headers: { Authorization: KEY, 'Content-Type': 'application/json', ...headers },
		body: body === undefined ? undefined : JSON.stringify(body),
	});
	const text = await response.text();
	let json: unknown = text;
	try {
		json = JSON.parse(text);
	} catch {
		// keep text
	}
	return {
		status: response.status,
		headers: response.headers,
		json: json as Record<string, any>,
		text,
	};
}

const send = (
	templateId: string,
	contact: Record<string, unknown> = { phone_number: '+919988776655' },
) =>
	api('POST', '/api/v1/events', {
		event_type: 'send_template_message',
		contact,
		template_message: { whats_app_template_id: templateId },
	});

beforeAll(async () => {
	receiver = await startReceiver();
});
afterAll(async () => {
	await receiver.close();
});
beforeEach(async () => {
	receiver.received.length = 0;
	sandbox = await startSandbox({
		apiKey: KEY,
		webhookTargets: [`${receiver.url}/hook`],
		deliveryDelayMs: 5,
	});
});
afterEach(async () => {
	await sandbox.idle();
	await sandbox.close();
});

describe('auth', () => {
	it.each([
		['missing', undefined],
		['wrong', 'nope'],
		['Bearer-prefixed', `Bearer ${KEY}`],
	])('answers 401 {"message":"Unauthorized"} to a %s key', async (_label, authorization) => {
		const response = await fetch(`${sandbox.url}/api/v1/streams`, {
			headers: authorization ? { Authorization: authorization } : {},
		});
		expect(response.status).toBe(401);
		expect(await response.json()).toEqual({ message: 'Unauthorized' });
	});

	it('records requests with the key redacted', async () => {
		await api('GET', '/api/v1/streams');
		await fetch(`${sandbox.url}/api/v1/streams`, { headers: { Authorization: `Bearer ${KEY}` } });
		const recorded = sandbox.state.requests;
		expect(recorded.map((r) => [r.path, r.headers.authorization, r.status])).toEqual([
			['/api/v1/streams', '<sandbox key>', 200],
			['/api/v1/streams', 'Bearer <sandbox key>', 401],
		]);
		expect(JSON.stringify(recorded)).not.toContain(KEY);
	});
});

describe('templates', () => {
	it('lists templates as a bare array, approved, pending and rejected', async () => {
		const { status, json } = await api('GET', '/api/v1/whats_app_templates/');
		expect(status).toBe(200);
		expect(Array.isArray(json)).toBe(true);
		expect((json as unknown as Array<{ status: string }>).map((t) => t.status).sort()).toEqual([
			'approved',
			'approved',
			'approved',
			'approved',
			'approved',
			'pending',
			'rejected',
		]);
	});

	it('pages the array with page and per', async () => {
		const first = await api('GET', '/api/v1/whats_app_templates/?page=1&per=3');
		const second = await api('GET', '/api/v1/whats_app_templates/?page=2&per=3');
		const third = await api('GET', '/api/v1/whats_app_templates/?page=3&per=3');
		const fourth = await api('GET', '/api/v1/whats_app_templates/?page=4&per=3');
		expect(
			[first, second, third, fourth].map((page) => (page.json as unknown as unknown[]).length),
		).toEqual([3, 3, 1, 0]);
	});
});

describe('send template message', () => {
	it('queues an approved template: 201 echo with event_id, then sent and delivered webhooks', async () => {
		const { status, json } = await send('wat_welcome', {
			phone_number: '+919988776655',
			name: 'Asha',
		});
		expect(status).toBe(201);
		expect(json).toMatchObject({
			event_type: 'send_template_message',
			contact: { phone_number: '+919988776655', name: 'Asha' },
			template_message: { whats_app_template_id: 'wat_welcome' },
		});
		expect(json.event_id).toMatch(/^evt_/);
		await sandbox.idle();
		expect(receiver.received.map((r) => [r.path, (r.body as { type: string }).type])).toEqual([
			['/hook', 'message_delivery.sent'],
			['/hook', 'message_delivery.delivered'],
		]);
		const delivered = receiver.received[1].body as {
			data: { message: { status: string; type: string }; contact: { phone_number: string } };
		};
		expect(delivered.data.message).toMatchObject({ status: 'delivered', type: 'template_message' });
		expect(delivered.data.contact.phone_number).toBe('+919988776655');
		const event = await api('GET', `/api/v1/events/${json.event_id}`);
		expect(event.json).toMatchObject({
			id: json.event_id,
			status: 'processed',
			result: { type: 'template_message', status: 'delivered' },
		});
	});

	it.each([
		['wat_promo', 'template wat_promo is not approved (status: pending)'],
		['wat_old_offer', 'template wat_old_offer is not approved (status: rejected)'],
		['wat_nope', 'template wat_nope does not exist'],
	])('refuses %s with 422 naming the field', async (templateId, message) => {
		const { status, json } = await send(templateId);
		expect(status).toBe(422);
		expect(json).toEqual({
			status: 'failed',
			reason: { template_message: { whats_app_template_id: [message] } },
		});
		await sandbox.idle();
		expect(receiver.received).toHaveLength(0);
	});

	it('validates formats: phone, retry window, retry until, business number', async () => {
		const { status, json } = await api('POST', '/api/v1/events', {
			event_type: 'send_template_message',
			contact: { phone_number: '9988776655' },
			template_message: {
				whats_app_template_id: 'wat_welcome',
				retry_until: '2000-01-01T00:00:00Z',
				retry_window: { start_at: '8am', end_at: '20:00', timezone: 'Mars/Base' },
				business_phone_number: '+91987',
			},
		});
		expect(status).toBe(422);
		expect(json.reason).toEqual({
			contact: { phone_number: ['is not a valid E.164 phone number (+ and country code)'] },
			template_message: {
				retry_until: ['must be in the future'],
				'retry_window.start_at': ['must be HH:MM'],
				'retry_window.timezone': ['is not a known time zone'],
				business_phone_number: ['must be digits with the country code, no +'],
			},
		});
	});

	it('404s an unknown event id, 422s an unsupported event type, 400s a non-JSON body', async () => {
		expect((await api('GET', '/api/v1/events/evt_nope')).status).toBe(404);
		expect((await api('POST', '/api/v1/events', { event_type: 'teleport' })).status).toBe(422);
		const response = await fetch(`${sandbox.url}/api/v1/events`, {
			method: 'POST',
			headers: { Authorization: KEY },
			body: '{oops',
		});
		expect(response.status).toBe(400);
	});
});

describe('triggers', () => {
	it('lists the triggers of an automation', async () => {
		const { json } = await api('GET', '/api/v1/streams/strm_welcome/triggers');
		expect(json.triggers.map((t: { id: string }) => t.id)).toEqual([
			'trig_order_paid',
			'trig_cart_abandoned',
		]);
		expect(json.next).toBeNull();
	});

	it('activates (recording a webhook registration) and pauses', async () => {
		const activated = await api('PATCH', '/api/v1/triggers/trig_order_paid', { activate: true });
		expect(activated.status).toBe(200);
		expect(activated.json.status).toBe('active');
		expect(sandbox.state.registrations).toEqual([
			expect.objectContaining({ trigger_id: 'trig_order_paid', stream_id: 'strm_welcome' }),
		]);
		const paused = await api('PATCH', '/api/v1/triggers/trig_order_paid', { activate: false });
		expect(paused.json.status).toBe('paused');
		expect(sandbox.state.registrations).toHaveLength(1);
	});

	it('updates variables, replaces data mappings, sets the description', async () => {
		const { json } = await api('PATCH', '/api/v1/triggers/trig_cart_abandoned', {
			variables: { key_path: '$.source_name' },
			data_mappings: [{ mapping_for: 'variable', value: { cart: '$.id' } }],
			description: 'Carts left for an hour',
		});
		expect(json.condition.variables).toEqual({ delay: '1h', key_path: '$.source_name' });
		expect(json.data_mappings).toEqual([{ mapping_for: 'variable', value: { cart: '$.id' } }]);
		expect(json.description).toBe('Carts left for an hour');
	});

	it('404s an unknown trigger and 422s a recipient mapping without phone_number', async () => {
		const missing = await api('PATCH', '/api/v1/triggers/trig_nope', { activate: true });
		expect(missing.status).toBe(404);
		expect(missing.json).toEqual({ message: 'Trigger not found', id: 'trig_nope' });
		const bad = await api('PATCH', '/api/v1/triggers/trig_order_paid', {
			data_mappings: [{ mapping_for: 'recipient', value: { name: '$.n' } }],
		});
		expect(bad.status).toBe(422);
		expect(bad.json.reason).toEqual({
			'data_mappings[0].value.phone_number': ['is required for a recipient mapping'],
		});
	});
});

describe('automations', () => {
	it('creates a draft with the business number as phone_number and backend_driven without a definition', async () => {
		const { status, json } = await api('POST', '/api/v1/streams', {
			name: 'Backend bot',
			business_phone_number: '919000000001',
			backend_url: 'https://x.test/b',
		});
		expect(status).toBe(201);
		expect(json).toMatchObject({
			name: 'Backend bot',
			status: 'draft',
			execution_mode: 'backend_driven',
			phone_number: '919000000001',
			backend_url: 'https://x.test/b',
		});
		expect(json.id).toMatch(/^strm_/);
		expect(json.created_at).toBe(json.updated_at);
		const list = await api('GET', '/api/v1/streams');
		expect(list.json.streams.map((s: { id: string }) => s.id)).toContain(json.id);
	});

	it('defaults execution_mode to definition_driven when a definition is given', async () => {
		const { json } = await api('POST', '/api/v1/streams', {
			name: 'Def',
			definition: { start_step: 'a', steps: { a: { type: 'send_message' } } },
		});
		expect(json.execution_mode).toBe('definition_driven');
	});

	it('validates the definition when publishing, on create and on update', async () => {
		const invalid = await api('POST', '/api/v1/streams', {
			name: 'Bad',
			status: 'published',
			definition: { start_step: 'missing', steps: {} },
		});
		expect(invalid.status).toBe(422);
		expect(invalid.json).toEqual({
			status: 'failed',
			reason: { definition: ['start_step "missing" is not one of the steps'] },
		});
		const draft = await api('POST', '/api/v1/streams', {
			name: 'Draft',
			definition: { steps: {} },
		});
		expect(draft.status).toBe(201);
		const publish = await api('PATCH', `/api/v1/streams/${draft.json.id}`, { status: 'published' });
		expect(publish.status).toBe(422);
		expect(
			validateDefinition({ start_step: 'a', steps: { a: { type: 'wait', next_step: 'b' } } }),
		).toEqual(['step "a" has next_step "b", which is not a step']);
	});
});

describe('outbound webhooks and admin routes', () => {
	it('emits every documented event type with its envelope', async () => {
		for (const type of WEBHOOK_EVENT_TYPES) {
			const response = await fetch(`${sandbox.url}/__sandbox/emit`, {
				method: 'POST',
				body: JSON.stringify({ type }),
			});
			expect(response.status).toBe(202);
		}
		await sandbox.idle();
		expect(receiver.received.map((r) => (r.body as { type: string }).type).sort()).toEqual(
			[...WEBHOOK_EVENT_TYPES].sort(),
		);
		const order = receiver.received.find(
			(r) => (r.body as { type: string }).type === 'order.canceled',
		)?.body as { data: { status: string; contact: object } };
		expect(order.data.status).toBe('canceled');
		expect(order.data.contact).toHaveProperty('phone_number');
	});

	it('adds webhook targets with their own headers', async () => {
		await fetch(`${sandbox.url}/__sandbox/webhooks`, {
			method: 'POST',
			body: JSON.stringify({
				url: `${receiver.url}/second?token=abc`,
				headers: { 'X-Peach-Token': 'abc' },
			}),
		});
		await fetch(`${sandbox.url}/__sandbox/emit`, {
			method: 'POST',
			body: JSON.stringify({ type: 'order.completed', data: { id: 'wa_ord_1' } }),
		});
		await sandbox.idle();
		const second = receiver.received.find((r) => r.path === '/second?token=abc');
		expect(second?.headers['x-peach-token']).toBe('abc');
		expect(second?.body).toEqual({ type: 'order.completed', data: { id: 'wa_ord_1' } });
	});

	it('resets to the seed', async () => {
		await api('POST', '/api/v1/streams', { name: 'Temp' });
		await fetch(`${sandbox.url}/__sandbox/reset`, { method: 'POST' });
		const { json } = await api('GET', '/api/v1/streams');
		expect(json.streams.map((s: { id: string }) => s.id)).toEqual(['strm_welcome']);
	});
});

describe('fault injection', () => {
	const fault = (body: Record<string, unknown>) =>
		fetch(`${sandbox.url}/__sandbox/faults`, { method: 'POST', body: JSON.stringify(body) });

	it('429 with Retry-After, once, then normal', async () => {
		await fault({ kind: 'rate_limit', path: '/api/v1/streams', retryAfter: 3 });
		const limited = await api('GET', '/api/v1/streams');
		expect(limited.status).toBe(429);
		expect(limited.headers.get('retry-after')).toBe('3');
		expect((await api('GET', '/api/v1/streams')).status).toBe(200);
	});

	it('500, non-JSON body and per-request header faults', async () => {
		await fault({ kind: 'server_error', method: 'POST', path: '/api/v1/events' });
		expect((await send('wat_welcome')).status).toBe(500);
		expect(sandbox.state.events).toHaveLength(0);
		await fault({ kind: 'non_json' });
		const html = await api('GET', '/api/v1/streams');
		expect(html.status).toBe(502);
		expect(html.text).toContain('<html>');
		expect(
			(await api('GET', '/api/v1/streams', undefined, { 'X-Sandbox-Fault': 'rate_limit' })).status,
		).toBe(429);
	});

	it('every N-th matching request, a given number of times', async () => {
		await fault({ kind: 'server_error', path: '/api/v1/streams', every: 3, times: 2 });
		const statuses = [];
		for (let i = 0; i < 9; i++) statuses.push((await api('GET', '/api/v1/streams')).status);
		expect(statuses).toEqual([200, 200, 500, 200, 200, 500, 200, 200, 200]);
	});

	it('from the N-th matching request on, for a time: every request in the window, then normal', async () => {
		await fault({ kind: 'rate_limit', path: '/api/v1/streams', after: 2, forMs: 300 });
		const statuses = [];
		for (let i = 0; i < 5; i++) statuses.push((await api('GET', '/api/v1/streams')).status);
		expect(statuses).toEqual([200, 200, 429, 429, 429]);
		await new Promise((resolve) => setTimeout(resolve, 320));
		expect((await api('GET', '/api/v1/streams')).status).toBe(200);
	});

	it("a refusal of one contact: Peach's 422 failure envelope, and nothing happens", async () => {
		await fault({
			kind: 'refuse',
			method: 'POST',
			path: '/api/v1/events',
			bodyIncludes: '+919988776655',
		});
		const refused = await send('wat_welcome');
		expect(refused.status).toBe(422);
		expect(refused.json).toEqual({
			status: 'failed',
			reason: { contact: { phone_number: ['is blocked by the sandbox'] } },
		});
		expect(sandbox.state.events).toHaveLength(0);
	});

	it('a rate-limited Peach: beyond N requests in flight, 429 with Retry-After, and nothing happens', async () => {
		const limit = (body: Record<string, unknown>) =>
			fetch(`${sandbox.url}/__sandbox/rate-limit`, { method: 'POST', body: JSON.stringify(body) });
		await limit({ inFlight: 2, retryAfter: 3, latencyMs: 150 });
		const before = sandbox.state.events.length;
		const answers = await Promise.all(
			Array.from({ length: 5 }, (_, index) =>
				send('wat_welcome', { phone_number: `+91998877665${index}` }),
			),
		);
		const statuses = answers.map((answer) => answer.status).sort();
		expect(statuses).toEqual([201, 201, 429, 429, 429]);
		expect(answers.find((answer) => answer.status === 429)?.headers.get('retry-after')).toBe('3');
		expect(sandbox.state.events.length - before).toBe(2);
		expect(sandbox.state.rateLimited).toBeGreaterThanOrEqual(3);
		await limit({ perSecond: 2 });
		const perSecond = [];
		for (let index = 0; index < 3; index++)
			perSecond.push((await api('GET', '/api/v1/streams')).status);
		expect(perSecond).toEqual([200, 200, 429]);
		await fetch(`${sandbox.url}/__sandbox/rate-limit`, { method: 'DELETE' });
		expect((await api('GET', '/api/v1/streams')).status).toBe(200);
	});

	it('a slow answer and a dropped connection', async () => {
		await fault({ kind: 'slow', delayMs: 300 });
		const started = Date.now();
		expect((await api('GET', '/api/v1/streams')).status).toBe(200);
		expect(Date.now() - started).toBeGreaterThanOrEqual(290);
		await fault({ kind: 'drop' });
		await expect(api('GET', '/api/v1/streams')).rejects.toThrow();
	});
});
