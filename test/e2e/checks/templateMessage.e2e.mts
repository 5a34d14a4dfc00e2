/** Real-n8n checks of Template Message → Send: list search, requests, options, errors, no retries. */
import { codeNode, nodeError, nodeOutput, type Json, sendParameters } from '../n8n.mts';
import { assert, assertEqual, type Check, runPeachWorkflow, SANDBOX_KEY } from '../suite.mts';

/** Send to the phone and name a Webhook received (list mode, as the editor saves it). */
const sendFromWebhook = (templateId: string): Json => ({
	resource: 'templateMessage',
	operation: 'send',
	phoneNumber: '={{ $json.body.phone }}',
	templateId: { __rl: true, mode: 'list', value: templateId, cachedResultName: templateId },
	variablesInput: 'fields',
	variables: { values: [{ key: 'first_name', value: '={{ $json.body.name }}' }] },
	contactFields: { name: '={{ $json.body.name }}' },
	additionalFields: {},
});

export const templateMessageChecks: Check[] = [
	{
		name: 'template list search offers only approved templates',
		fn: async ({ client, credential }) => {
			const result = await client.rest(
				'POST',
				'/dynamic-node-parameters/resource-locator-results',
				{
					path: 'templateId',
					nodeTypeAndVersion: { name: 'n8n-nodes-peach.peach', version: 1 },
					currentNodeParameters: { resource: 'templateMessage', operation: 'send' },
					methodName: 'searchTemplates',
					credentials: { peachMessagingApi: credential },
				},
			);
			assertEqual(
				result.results,
				[
					{
						name: 'approval_request (en, approved) · Approval needed: {{message}} Please answer here: {{approval_link}} Thank you.',
						value: 'wat_approval',
					},
					{
						name: 'invoice_ready (en, approved) · Hi {{first_name}}, your invoice {{invoice_number}} is attached.',
						value: 'wat_invoice',
					},
					{
						name: 'order_update (en, approved) · Order {{order_id}} is on its way.',
						value: 'wat_order_update',
					},
					{
						name: 'spring_offer (en, approved) · Our spring offer is here, {{first_name}}.',
						value: 'wat_offer',
					},
					{ name: 'welcome (en, approved) · Hi {{first_name}}, welcome!', value: 'wat_welcome' },
				],
				'template list',
			);
		},
	},
	{
		name: 'the template kept by n8n: two single-send executions read it once; paused in Peach, the next send is refused by Peach, the one after reads it afresh and is refused before sending; a Dry Run reads it afresh',
		fn: async (ctx) => {
			// A template and a credential of this check's own, so what n8n keeps is this check's alone.
			const welcome = ctx.sandbox.state.templates.find((template) => template.id === 'wat_welcome');
			assert(welcome !== undefined, 'the sandbox has no wat_welcome');
			const kept = {
				...structuredClone(welcome),
				id: 'wat_kept',
				template_name: 'kept_welcome',
				name: 'kept_welcome',
			};
			ctx.sandbox.state.templates.push(kept);
			const credential = await ctx.client.createCredential(
				'Peach, kept template',
				'peachMessagingApi',
				{
					apiKey: SANDBOX_KEY,
					baseUrl: ctx.sandbox.url,
				},
			);
			const own = { ...ctx, credential };
			let run = 0;
			const send = async (more: Json = {}) =>
				await runPeachWorkflow(
					own,
					`e2e-kept-template-${++run}`,
					{ ...sendFromWebhook('wat_kept'), ...more },
					{ phone: `+91990000050${run}`, name: 'Asha' },
				);
			try {
				const first = await send();
				assertEqual(first.execution.status, 'success', 'first execution');
				assertEqual(first.templateReads, ['wat_kept'], 'first execution: template reads');
				const second = await send();
				assertEqual(second.execution.status, 'success', 'second execution');
				assertEqual(second.templateReads, [], 'second execution: template reads');
				assertEqual(
					second.requests.map((request) => `${request.method} ${request.path}`),
					['POST /api/v1/events'],
					'second execution: its one request',
				);

				kept.status = 'paused';
				const refused = await send();
				assertEqual(refused.templateReads, [], 'refused by Peach: template reads');
				assertEqual(
					nodeError(refused.execution, 'Peach')?.message,
					'Template: template wat_kept is not approved (status: paused)',
					'refused by Peach: the error',
				);
				const afresh = await send();
				assertEqual(afresh.templateReads, ['wat_kept'], 'after the refusal: template reads');
				assertEqual(afresh.requests.length, 0, 'after the refusal: requests that send');
				assertEqual(
					nodeError(afresh.execution, 'Peach')?.message,
					'Template "kept_welcome" (wat_kept) is paused: WhatsApp sends approved templates only',
					'after the refusal: the error',
				);

				kept.status = 'approved';
				const sent = await send();
				assertEqual(sent.execution.status, 'success', 'approved again: sent');
				assertEqual(
					sent.templateReads,
					['wat_kept'],
					'approved again: read (a paused one is not kept)',
				);
				const dry = await send({ dryRun: true });
				assertEqual(dry.templateReads, ['wat_kept'], 'Dry Run: template reads');
			} finally {
				ctx.sandbox.state.templates.splice(ctx.sandbox.state.templates.indexOf(kept), 1);
			}
		},
	},
	{
		name: 'Dry Run: a send reaches nothing at the sandbox but its template read and shows wouldSend and the message; the real run that follows sends exactly wouldSend',
		fn: async (ctx) => {
			const input = { phone: '+919988776601', name: 'Asha' };
			const dry = await runPeachWorkflow(
				ctx,
				'e2e-dry-run',
				{ ...sendFromWebhook('wat_welcome'), dryRun: true },
				input,
			);
			assertEqual(dry.execution.status, 'success', 'dry run status');
			assertEqual(dry.requests.length, 0, 'requests that send, upload or record');
			assertEqual(dry.templateReads, ['wat_welcome'], 'template reads');
			const [out] = nodeOutput(dry.execution, 'Peach');
			// What a person checks first, in n8n's own output: whom, the message, not sent.
			assertEqual(
				Object.keys(out).slice(0, 4),
				['to', 'message', 'outcome', 'dryRun'],
				'the output leads with the person’s view',
			);
			assertEqual(
				[out.to, out.message, out.outcome, out.dryRun],
				['+919988776601', 'Hi Asha, welcome!', 'not sent: Dry Run', true],
				'to, message, outcome, dryRun',
			);
			const preview = out.preview as Json;
			assertEqual(preview.to, '+919988776601', 'preview.to');
			assertEqual(preview.body, 'Hi Asha, welcome!', 'preview.body');
			const wouldSend = out.wouldSend as { method: string; path: string; body: Json };
			const real = await runPeachWorkflow(
				ctx,
				'e2e-dry-run-then-real',
				sendFromWebhook('wat_welcome'),
				input,
			);
			assertEqual(real.execution.status, 'success', 'real run status');
			assertEqual(
				real.requests.map((request) => ({
					method: request.method,
					path: request.path,
					body: request.body,
				})),
				[wouldSend],
				'the real request is wouldSend',
			);
		},
	},
	{
		name: 'send template message: the sandbox queues it and n8n outputs the event_id',
		fn: async (ctx) => {
			const { execution, requests, response } = await runPeachWorkflow(
				ctx,
				'e2e-send',
				sendFromWebhook('wat_welcome'),
				{ phone: '+919988776655', name: 'Asha' },
			);
			assertEqual(execution.status, 'success', 'execution status');
			assertEqual(requests.length, 1, 'requests to the sandbox');
			const [request] = requests;
			assertEqual(
				[
					request.method,
					request.path,
					request.headers.authorization,
					request.headers['content-type'],
				],
				['POST', '/api/v1/events', '<sandbox key>', 'application/json'],
				'request line and headers',
			);
			assertEqual(
				request.body,
				{
					event_type: 'send_template_message',
					contact: { phone_number: '+919988776655', name: 'Asha' },
					template_message: {
						whats_app_template_id: 'wat_welcome',
						liquid_values: { first_name: 'Asha' },
					},
				},
				'request body',
			);
			const [output] = nodeOutput(execution, 'Peach');
			assert(
				typeof output?.event_id === 'string' && output.event_id.startsWith('evt_'),
				`no event_id in output: ${JSON.stringify(output)}`,
			);
			assertEqual(response.json.event_id, output.event_id, 'webhook response (last node)');
			assert(
				ctx.sandbox.state.events.some((event) => event.id === output.event_id),
				'the sandbox has no such event',
			);
		},
	},
	{
		name: 'send with every optional field: nested locator, retry window and until, metadata, JSON variables',
		fn: async (ctx) => {
			const { execution, requests } = await runPeachWorkflow(ctx, 'e2e-send-full', {
				resource: 'templateMessage',
				operation: 'send',
				phoneNumber: '+1 (415) 555-0123',
				templateId: { __rl: true, mode: 'id', value: 'wat_order_update' },
				variablesInput: 'json',
				variablesJson: '{"order_id": "A-7", "total": 42}',
				contactFields: {
					email: 'ben@example.com',
					language: 'en',
					metadata: { values: [{ key: 'tier', value: 'gold' }] },
				},
				additionalFields: {
					businessPhoneNumber: '919876543222',
					replyAutomation: {
						__rl: true,
						mode: 'list',
						value: 'strm_welcome',
						cachedResultName: 'Welcome journey',
					},
					retryUntil: '2099-01-01T10:00:00+05:30',
					retryWindow: { window: { startAt: '09:00', endAt: '18:00', timezone: 'Asia/Kolkata' } },
				},
			});
			assertEqual(execution.status, 'success', 'execution status');
			assertEqual(
				requests.map((r) => r.body),
				[
					{
						event_type: 'send_template_message',
						contact: {
							phone_number: '+14155550123',
							email: 'ben@example.com',
							language: 'en',
							metadata: { tier: 'gold' },
						},
						template_message: {
							whats_app_template_id: 'wat_order_update',
							liquid_values: { order_id: 'A-7', total: 42 },
							retry_until: '2099-01-01T04:30:00.000Z',
							retry_window: { start_at: '09:00', end_at: '18:00', timezone: 'Asia/Kolkata' },
							business_phone_number: '919876543222',
							reply_automation: { app_id: 'strm_welcome' },
						},
					},
				],
				'request body',
			);
		},
	},
	{
		name: 'send with Retry Until from a date expression ({{ $now.plus({ days: 1 }) }}) sends UTC ISO 8601',
		fn: async (ctx) => {
			const { execution, requests } = await runPeachWorkflow(
				ctx,
				'e2e-send-expression-date',
				{
					...sendFromWebhook('wat_welcome'),
					additionalFields: { retryUntil: '={{ $now.plus({ days: 1 }) }}' },
				},
				{ phone: '+919988776655', name: 'Asha' },
			);
			assertEqual(execution.status, 'success', 'execution status');
			const retryUntil = ((requests[0]?.body as Json)?.template_message as Json)
				?.retry_until as string;
			assert(
				/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/.test(retryUntil),
				`retry_until is not UTC ISO 8601: ${retryUntil}`,
			);
			const hoursAhead = (Date.parse(retryUntil) - Date.now()) / 3_600_000;
			assert(
				hoursAhead > 23 && hoursAhead < 25,
				`retry_until is ${hoursAhead.toFixed(2)} h ahead, expected about 24`,
			);
		},
	},
	{
		name: "send with a pending template is refused in the node's words after reading the template, before any send",
		fn: async (ctx) => {
			const { execution, requests, templateReads } = await runPeachWorkflow(
				ctx,
				'e2e-send-pending',
				sendFromWebhook('wat_promo'),
				{ phone: '+919988776655', name: 'Asha' },
			);
			assertEqual(execution.status, 'error', 'execution status');
			assertEqual(templateReads, ['wat_promo'], 'the template read');
			assertEqual(requests.length, 0, 'other requests to the sandbox (no send)');
			const error = nodeError(execution, 'Peach');
			assertEqual(
				error?.message,
				'Template "spring_promo" (wat_promo) is pending: WhatsApp sends approved templates only',
				'error message',
			);
		},
	},
	{
		name: 'send of 3 items with a pending template: one error for no one item, the template named once, nothing sent',
		fn: async (ctx) => {
			const phones = ['+919900000311', '+919900000312', '+919900000313'];
			const { execution, requests } = await runPeachWorkflow(
				ctx,
				'e2e-send-pending-many',
				{
					resource: 'templateMessage',
					operation: 'send',
					phoneNumber: '={{ $json.phone }}',
					templateId: { __rl: true, mode: 'id', value: 'wat_promo' },
					variablesInput: 'fields',
					variables: { values: [] },
					contactFields: {},
					additionalFields: {},
				},
				{},
				{
					before: codeNode(
						`return ${JSON.stringify(phones)}.map((phone) => ({ json: { phone } }));`,
					),
				},
			);
			assertEqual(execution.status, 'error', 'execution status');
			assertEqual(requests.length, 0, 'other requests to the sandbox (no send)');
			const error = nodeError(execution, 'Peach');
			assertEqual(
				error?.message,
				'Template "spring_promo" (wat_promo) is pending: WhatsApp sends approved templates only',
				'error message',
			);
			assertEqual((error?.context as Json | undefined)?.itemIndex, undefined, 'no item index');
			const description = String(error?.description);
			assert(
				description.includes('This holds for items 0 to 2.') &&
					!description.includes('Also to fix') &&
					!description.includes('is pending'),
				`description: ${description}`,
			);
		},
	},
	{
		name: 'send whose template variable comes out empty for item 1 (From the Template, {{ $json.nickname }}): nothing is sent, the error names item 1 as n8n numbers it, its contact and first_name',
		fn: async (ctx) => {
			const phones = ['+919900000301', '+919900000302', '+919900000303'];
			const { execution, requests, templateReads } = await runPeachWorkflow(
				ctx,
				'e2e-send-empty-variable',
				{
					resource: 'templateMessage',
					operation: 'send',
					phoneNumber: '={{ $json.phone }}',
					templateId: { __rl: true, mode: 'list', value: 'wat_welcome' },
					variablesInput: 'template',
					variablesMapped: {
						mappingMode: 'defineBelow',
						value: { first_name: '={{ $json.nickname }}' },
						matchingColumns: [],
						schema: [],
					},
					contactFields: {},
					additionalFields: {},
				},
				{},
				{
					before: codeNode(
						`return ${JSON.stringify(phones)}.map((phone, i) => ({ json: i === 1 ? { phone } : { phone, nickname: 'Guest ' + i } }));`,
					),
				},
			);
			assertEqual(execution.status, 'error', 'execution status');
			// Read by this execution, or kept by n8n from an earlier one within the minute.
			assert(
				templateReads.every((id) => id === 'wat_welcome') && templateReads.length <= 1,
				`template reads: ${JSON.stringify(templateReads)}`,
			);
			assertEqual(requests.length, 0, 'other requests to the sandbox (no send)');
			assertEqual(
				ctx.sandbox.state.phone.filter((message) => phones.includes(message.phone_number)).length,
				0,
				'messages on the phones',
			);
			const error = nodeError(execution, 'Peach');
			assertEqual(
				error?.message,
				'Variable first_name is empty for +919900000302 (item 1)',
				'error message',
			);
			assertEqual(
				(error?.context as Json | undefined)?.itemIndex,
				1,
				"n8n's Item Index: the same number",
			);
			assert(
				String(error?.description).startsWith(
					'Variables → first_name is {{ $json.nickname }}, which gave no value for this item. Template "welcome" shows {{first_name}} in its body: sent without a value, the contact would see the placeholder. Give every item a value (e.g. {{ $json.nickname || \'there\' }})',
				),
				String(error?.description),
			);
		},
	},
	{
		name: 'send with a bad phone number fails in n8n before any request',
		fn: async (ctx) => {
			const { execution, requests } = await runPeachWorkflow(
				ctx,
				'e2e-send-badphone',
				sendFromWebhook('wat_welcome'),
				{ phone: '9988776655', name: 'Asha' },
			);
			assertEqual(execution.status, 'error', 'execution status');
			assertEqual(requests.length, 0, 'requests to the sandbox');
			assertEqual(
				nodeError(execution, 'Peach')?.message,
				'Phone Number "9988776655" has no + and country code',
				'error message',
			);
		},
	},
	{
		name: 'send: 1,000 items for 200 contacts with the defaults: several at a time, each contact in input order, every output paired',
		fn: async (ctx) => {
			// Every answer takes 20 ms, so requests that run side by side overlap at the sandbox.
			ctx.sandbox.faults.push({ kind: 'slow', path: '/api/v1/events', times: 1000, delayMs: 20 });
			ctx.sandbox.state.peakInFlight = 0;
			const { execution, requests } = await runPeachWorkflow(
				ctx,
				'e2e-send-1000-defaults',
				sendParameters('wat_order_update', { key: 'order_id', value: '={{ $json.seq }}' }),
				{},
				{
					before: codeNode(
						// Five items in a row for each contact: sent side by side, they would overlap.
						"return Array.from({ length: 1000 }, (_, i) => ({ json: { seq: String(i), phone: '+1415' + String(5580000 + Math.floor(i / 5)) } }));",
					),
				},
			);
			ctx.sandbox.faults.length = 0;
			assertEqual(execution.status, 'success', 'execution status');
			const sends = requests.filter((request) => request.path === '/api/v1/events');
			assertEqual(sends.length, 1000, 'sends');
			const byPhone = new Map<string, typeof sends>();
			for (const request of sends) {
				const phone = (request.body as { contact: { phone_number: string } }).contact.phone_number;
				byPhone.set(phone, [...(byPhone.get(phone) ?? []), request]);
			}
			assertEqual(byPhone.size, 200, 'contacts');
			const seqOf = (request: (typeof sends)[number]) =>
				Number(
					(request.body as { template_message: { liquid_values: { order_id: string } } })
						.template_message.liquid_values.order_id,
				);
			const outOfOrder = [...byPhone.values()].filter((list) =>
				list.some((request, index) => index > 0 && seqOf(request) < seqOf(list[index - 1])),
			);
			assertEqual(outOfOrder.length, 0, 'contacts whose messages arrived out of input order');
			// One contact's next message starts only once the previous one was answered.
			const overlapping = [...byPhone.values()].filter((list) =>
				list.some(
					(request, index) =>
						index > 0 && (request.startedMs ?? 0) < (list[index - 1].answeredMs ?? Infinity),
				),
			);
			assertEqual(overlapping.length, 0, 'contacts with two messages open at once');
			const peak = ctx.sandbox.state.peakInFlight;
			// It starts at 32 at a time and widens while the answers are prompt, up to the ceiling (200).
			assert(
				peak > 32 && peak <= 200,
				`requests open at once at the sandbox: ${peak} (expected 33–200)`,
			);
			const runData = (
				execution.data as {
					resultData: {
						runData: Record<
							string,
							Array<{ data: { main: Array<Array<{ json: Json; pairedItem: { item: number } }>> } }>
						>;
					};
				}
			).resultData.runData.Peach[0].data.main[0];
			assertEqual(runData.length, 1000, 'output items');
			assertEqual(
				runData.filter((item, index) => item.pairedItem.item !== index || !item.json.event_id)
					.length,
				0,
				'outputs not paired with their own item, or without event_id',
			);
			console.log(
				`      1,000 sends for 200 contacts (5 each, in a row): at most ${peak} open at once at the sandbox, 0 contacts out of order or overlapping, 1,000 outputs paired`,
			);
		},
	},
	{
		name: 'send: 1,000 items against a rate-limited Peach (429 beyond 20 in flight), one contact 20 times among them: every item sent once, that contact in input order',
		fn: async (ctx) => {
			Object.assign(ctx.sandbox.rateLimit, { inFlight: 20, retryAfter: 1, latencyMs: 50 });
			ctx.sandbox.state.peakInFlight = 0;
			const limitedBefore = ctx.sandbox.state.rateLimited;
			const began = Date.now();
			const { execution, requests } = await runPeachWorkflow(
				ctx,
				'e2e-send-1000-rate-limited',
				sendParameters('wat_order_update', { key: 'order_id', value: '={{ $json.seq }}' }),
				{},
				{
					before: codeNode(
						// Every 50th item is for one contact (20 in all); the others each for their own.
						"return Array.from({ length: 1000 }, (_, i) => ({ json: { seq: String(i), phone: i % 50 === 7 ? '+14155590000' : '+1415' + String(5590001 + i) } }));",
					),
				},
			);
			for (const key of Object.keys(ctx.sandbox.rateLimit))
				delete ctx.sandbox.rateLimit[key as keyof typeof ctx.sandbox.rateLimit];
			const seconds = (Date.now() - began) / 1000;
			const rateLimited = ctx.sandbox.state.rateLimited - limitedBefore;
			assertEqual(execution.status, 'success', 'execution status');
			const accepted = requests.filter(
				(request) => request.path === '/api/v1/events' && request.status === 201,
			);
			const seqOf = (request: (typeof accepted)[number]) =>
				Number(
					(request.body as { template_message: { liquid_values: { order_id: string } } })
						.template_message.liquid_values.order_id,
				);
			const perItem = new Map<number, number>();
			for (const request of accepted)
				perItem.set(seqOf(request), (perItem.get(seqOf(request)) ?? 0) + 1);
			const twice = [...perItem.values()].filter((count) => count > 1).length;
			const theContact = accepted.filter(
				(request) =>
					(request.body as { contact: { phone_number: string } }).contact.phone_number ===
					'+14155590000',
			);
			console.log(
				`      1,000 sends in ${seconds.toFixed(1)} s, Peach answering 429 beyond 20 in flight: ${rateLimited} answered 429 and sent again, ${perItem.size} items accepted, ${twice} twice, at most ${ctx.sandbox.state.peakInFlight} open; the contact with 20 items: ${theContact.length} in input order`,
			);
			assert(
				rateLimited > 0,
				'the sandbox never answered 429: the check did not test the back-off',
			);
			assertEqual(perItem.size, 1000, 'items accepted by Peach');
			assertEqual(twice, 0, 'items accepted twice');
			assertEqual(
				theContact.map(seqOf),
				Array.from({ length: 20 }, (_, index) => 7 + index * 50),
				"the contact's 20 messages, in the order they were accepted",
			);
			const overlapping = theContact.some(
				(request, index) =>
					index > 0 && (request.startedMs ?? 0) < (theContact[index - 1].answeredMs ?? Infinity),
			);
			assertEqual(overlapping, false, "two of the contact's messages open at once");
		},
	},
	{
		name: 'a server error on a send is reported and the send not repeated; a dropped connection is reported',
		fn: async (ctx) => {
			ctx.sandbox.faults.push({ kind: 'server_error', path: '/api/v1/events', times: 1 });
			const failed = await runPeachWorkflow(ctx, 'e2e-send-500', sendFromWebhook('wat_welcome'), {
				phone: '+14155550123',
				name: 'Ben',
			});
			assertEqual(
				failed.requests.length,
				1,
				'requests (a send that may have reached Peach is never repeated)',
			);
			const error = nodeError(failed.execution, 'Peach');
			assertEqual(
				error?.message,
				'Peach had a server error (500): Internal server error',
				'error message',
			);
			assert(
				String(error?.description).includes('It may already have been queued in Peach'),
				String(error?.description),
			);
			ctx.sandbox.faults.push({ kind: 'drop', path: '/api/v1/streams', times: 1 });
			const dropped = await runPeachWorkflow(ctx, 'e2e-drop', {
				resource: 'automation',
				operation: 'create',
				name: 'x',
				additionalFields: {},
			});
			assertEqual(
				nodeError(dropped.execution, 'Peach')?.message,
				`Could not reach Peach at ${ctx.sandbox.url} (connection closed unexpectedly)`,
				'error message',
			);
		},
	},
];
