import type { IDataObject } from 'n8n-workflow';
import { describe, expect, it, vi } from 'vitest';

import { PeachTrigger } from '../../../nodes/PeachTrigger/PeachTrigger.node';
import { call, type Call } from './webhookHarness';

const deliveredAsSent = {
	type: 'message_delivery.sent',
	data: {
		message: { id: 'cmsg_1', status: 'delivered', type: 'template_message', reason: null },
		contact: { phone_number: '+919988776655', name: 'Asha' },
		event: null,
	},
};

describe('Peach Trigger webhook', () => {
	it('starts one execution with the decided event and the data at the top', async () => {
		const { result } = await call({ body: deliveredAsSent });
		const items = result.workflowData?.[0] ?? [];
		expect(items).toHaveLength(1);
		expect(items[0].json).toMatchObject({
			event: 'message_delivery.delivered',
			kind: 'messageDelivery',
			sentType: 'message_delivery.sent',
			decidedBy: 'messageStatus',
			contact: { phone_number: '+919988776655', name: 'Asha' },
		});
		expect(typeof items[0].json.receivedAt).toBe('string');
		expect(items[0].json).not.toHaveProperty('rawBody');
	});

	it.each([
		['order.completed', 'order'],
		['order.canceled', 'order'],
		['flow_execution.pending', 'flowExecution'],
		['flow_execution.in_progress', 'flowExecution'],
		['flow_execution.completed', 'flowExecution'],
		['ai_flow_execution.started', 'aiAgent'],
		['ai_flow_execution.escalated', 'aiAgent'],
		['ai_flow_execution.completed', 'aiAgent'],
		['ai_flow_execution.analyzed', 'aiAgent'],
	])('%s → kind %s', async (type, kind) => {
		const { result } = await call({
			body: { type, data: { id: 'x_1' } },
			parameters: { events: [type] },
		});
		expect(result.workflowData?.[0][0].json).toMatchObject({ event: type, kind, id: 'x_1' });
	});

	it('lets n8n answer an accepted delivery with JSON {"received": true}, once it has stored the execution', async () => {
		const { result, sent } = await call({ body: deliveredAsSent });
		// The node answers nothing itself: n8n 2.x sends the webhook response after it stored the run.
		expect(sent).toEqual({});
		expect(result.noWebhookResponse).toBeUndefined();
		expect(result.webhookResponse).toEqual({ received: true });
		expect(result.workflowData?.[0]).toHaveLength(1);
		// An empty responseData makes n8n send that response, not its default text "firstEntryJson".
		expect(new PeachTrigger().description.webhooks).toEqual([
			expect.objectContaining({ httpMethod: 'POST', responseMode: 'onReceived', responseData: '' }),
		]);
	});

	it.each([
		[
			'a type longer than 200 characters',
			{ type: 'x'.repeat(201), data: {} },
			'The body\'s "type" is longer than 200 characters.',
		],
		[
			'data nested deeper than 64 levels',
			{ type: 'order.completed', data: JSON.parse('{"a":'.repeat(70) + '1' + '}'.repeat(70)) },
			'The body is nested deeper than 64 levels.',
		],
	])('refuses %s with 400 and a reason, starting nothing', async (_label, body, reason) => {
		const { result, sent } = await call({ body });
		expect(sent).toEqual({ status: 400, body: { message: reason } });
		expect(result.workflowData).toBeUndefined();
	});

	it('refuses a body over 1 MB with 400 before parsing it', async () => {
		const big = JSON.stringify({
			type: 'order.completed',
			data: { blob: 'x'.repeat(1024 * 1024) },
		});
		const { result, sent } = await call({ body: {}, raw: big });
		expect(sent).toEqual({
			status: 400,
			body: { message: "The body is larger than 1 MB; Peach's events are a few KB." },
		});
		expect(result.workflowData).toBeUndefined();
	});

	it('acknowledges an event that is not chosen with 200 and starts nothing', async () => {
		const { result } = await call({
			body: { type: 'order.completed', data: {} },
			parameters: { events: ['message_delivery.delivered'] },
		});
		expect(result.workflowData).toBeUndefined();
		expect(result.webhookResponse).toEqual({
			received: true,
			ignored: 'event order.completed is not selected',
		});
	});

	it('matches the chosen events against the decided event, not the sent type', async () => {
		const onlySent = await call({
			body: deliveredAsSent,
			parameters: { events: ['message_delivery.sent'] },
		});
		expect(onlySent.result.workflowData).toBeUndefined();
		const onlyDelivered = await call({
			body: deliveredAsSent,
			parameters: { events: ['message_delivery.delivered'] },
		});
		expect(onlyDelivered.result.workflowData?.[0]).toHaveLength(1);
	});

	it('starts an unknown type only under All Events', async () => {
		const body = { type: 'conversation.message_received', data: { text: 'hi' } };
		expect((await call({ body })).result.workflowData?.[0][0].json).toMatchObject({
			event: 'conversation.message_received',
			kind: 'unknown',
			text: 'hi',
		});
		expect(
			(await call({ body, parameters: { events: ['order.completed'] } })).result.workflowData,
		).toBeUndefined();
	});

	it('filters delivery events by message type', async () => {
		const interactive = {
			...deliveredAsSent,
			data: {
				...deliveredAsSent.data,
				message: { ...deliveredAsSent.data.message, id: 7, type: 'message' },
			},
		};
		const templateOnly = { options: { messageTypes: 'templateMessage' } };
		expect(
			(await call({ body: interactive, parameters: templateOnly })).result.webhookResponse,
		).toEqual({
			received: true,
			ignored: 'message type filtered out (templateMessage)',
		});
		expect(
			(await call({ body: deliveredAsSent, parameters: templateOnly })).result.workflowData?.[0],
		).toHaveLength(1);
		expect(
			(await call({ body: interactive, parameters: { options: { messageTypes: 'interactive' } } }))
				.result.workflowData?.[0],
		).toHaveLength(1);
	});

	it('includes the raw body when asked', async () => {
		const raw = JSON.stringify(deliveredAsSent);
		const { result } = await call({
			body: deliveredAsSent,
			raw,
			parameters: { options: { includeRawBody: true } },
		});
		expect(result.workflowData?.[0][0].json.rawBody).toBe(raw);
	});

	describe('verification', () => {
		const secret = ['shared', 'phrase', '123'].join('-');
		/** Peach's delivery to a trigger with `parameters` whose credential holds `secret`. */
		const deliver = (parameters: IDataObject, request: Pick<Call, 'headers' | 'query'>) =>
			call({ body: deliveredAsSent, parameters, credentialSecret: secret, ...request });
		it('requires a secret from the Peach Webhook Secret credential by default', async () => {
			const description = new PeachTrigger().description;
			expect(description.version).toBe(1);
			expect(description.properties.find((p) => p.name === 'verification')?.default).toBe(
				'queryToken',
			);
			expect(description.credentials).toEqual([
				expect.objectContaining({ name: 'peachWebhookApi', required: true }),
			]);
			// No plain-text secret field: the secret lives only in the credential.
			expect(description.properties.map((p) => p.name)).not.toContain('secret');
			const defaults = { verification: undefined, ignoreDuplicates: undefined };
			const right = await deliver(defaults, { query: { token: secret } });
			expect(right.result.workflowData?.[0]).toHaveLength(1);
			const missing = await deliver(defaults, {});
			expect(missing.sent.status).toBe(401);
		});

		it('reads the credential once per 10 s per node and credential; a changed secret works at once', async () => {
			// A wrong secret is read again each time.
			vi.useFakeTimers();
			try {
				const at = {
					workflowId: 'wf-secret-kept',
					body: deliveredAsSent,
					parameters: { verification: 'queryToken' },
				};
				const first = await call({
					...at,
					credentialSecret: 'first-secret',
					query: { token: 'first-secret' },
				});
				const second = await call({
					...at,
					credentialSecret: 'first-secret',
					query: { token: 'first-secret' },
				});
				expect([first.sent.status, second.sent.status]).toEqual([undefined, undefined]);
				expect([first.credentialReads, second.credentialReads]).toEqual([1, 0]);
				// Another credential on the node: its own read.
				const other = await call({
					...at,
					credentialId: '2',
					credentialSecret: 'other-secret',
					query: { token: 'other-secret' },
				});
				expect(other.credentialReads).toBe(1);

				// The secret changes in the credential: the new one is checked against a fresh read.
				const rotated = await call({
					...at,
					credentialSecret: 'second-secret',
					query: { token: 'second-secret' },
				});
				expect([rotated.sent.status, rotated.credentialReads]).toEqual([undefined, 1]);
				const old = await call({
					...at,
					credentialSecret: 'second-secret',
					query: { token: 'first-secret' },
				});
				expect([old.sent.status, old.credentialReads]).toEqual([401, 1]);
				for (let attempt = 0; attempt < 3; attempt++) {
					const wrong = await call({
						...at,
						credentialSecret: 'second-secret',
						query: { token: 'guess' },
					});
					expect([wrong.sent.status, wrong.credentialReads]).toEqual([401, 1]);
				}

				// After 10 s the kept secret is read again.
				vi.advanceTimersByTime(10_001);
				const later = await call({
					...at,
					credentialSecret: 'second-secret',
					query: { token: 'second-secret' },
				});
				expect([later.sent.status, later.credentialReads]).toEqual([undefined, 1]);
			} finally {
				vi.useRealTimers();
			}
		});

		it('the credential test accepts a long printable secret only', async () => {
			const test = new PeachTrigger().methods.credentialTest.peachWebhookSecretTest;
			const check = (secret: string) =>
				test.call({} as never, { id: '1', name: 's', type: 'peachWebhookApi', data: { secret } });
			expect((await check('short')).status).toBe('Error');
			expect((await check('has spaces in the middle!')).status).toBe('Error');
			expect((await check('a-long-credential-secret')).status).toBe('OK');
		});

		it('token query parameter: right passes, wrong and missing answer 401 and start nothing', async () => {
			const parameters = { verification: 'queryToken' };
			const right = await deliver(parameters, { query: { token: secret } });
			expect(right.result.workflowData?.[0]).toHaveLength(1);
			for (const query of [{ token: 'nope' }, {}, { token: [secret, secret] }]) {
				const { result, sent } = await deliver(parameters, { query });
				expect(result).toEqual({ noWebhookResponse: true });
				expect(sent).toEqual({ status: 401, body: { message: 'Unauthorized' } });
			}
		});

		it('a trigger published without its credential (n8n 1.x allows it) refuses every delivery with 401', async () => {
			const { result, sent, credentialReads } = await call({
				body: deliveredAsSent,
				parameters: { verification: 'queryToken' },
				query: { token: '' },
			});
			expect(result).toEqual({ noWebhookResponse: true });
			expect(sent).toEqual({ status: 401, body: { message: 'Unauthorized' } });
			expect(credentialReads).toBe(0);
		});

		it('header: the named header, case-insensitively', async () => {
			const parameters = { verification: 'header', headerName: 'X-Peach-Token' };
			const right = await deliver(parameters, { headers: { 'x-peach-token': secret } });
			expect(right.result.workflowData?.[0]).toHaveLength(1);
			// A wrong token, the token in another header, the token in the query.
			const wrongs: Array<Pick<Call, 'headers' | 'query'>> = [
				{ headers: { 'x-peach-token': 'nope' } },
				{ headers: { authorization: secret } },
				{ query: { token: secret } },
			];
			for (const wrong of wrongs) expect((await deliver(parameters, wrong)).sent.status).toBe(401);
		});

		it('checks the secret before reading the body', async () => {
			const { sent } = await call({
				body: 'junk',
				raw: 'junk',
				parameters: { verification: 'queryToken' },
				credentialSecret: secret,
			});
			expect(sent.status).toBe(401);
		});
	});

	it.each([
		['not JSON', 'junk', 'The body is not JSON'],
		['an array', '[{"type":"order.completed"}]', 'The body is an array'],
		['without type', '{"data":{}}', 'The body has no "type"'],
	])('answers 400 to a body %s, starting nothing', async (_label, raw, reason) => {
		const { result, sent } = await call({ body: {}, raw });
		expect(result).toEqual({ noWebhookResponse: true });
		expect(sent.status).toBe(400);
		expect((sent.body as { message: string }).message).toContain(reason);
	});
});
