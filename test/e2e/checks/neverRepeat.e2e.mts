/**
 * Real-n8n checks of the promise that nothing is sent twice and nothing sent is lost: partial
 * failures, a refund without an amount, a status read that fails after a send, keys that are data,
 * AI agent events that look alike, media URLs.
 */
import { codeNode, type Json, nodeError, nodeOutput, sendParameters } from '../n8n.mts';
import { publishTrigger, TRIGGER } from './peachTrigger.e2e.mts';
import { assert, assertEqual, type Check, runPeachWorkflow } from '../suite.mts';

/** Three input items (phone numbers), each a contact for the Send that follows. */
const threeItems = (phones: string[]) =>
	codeNode(`return ${JSON.stringify(phones.map((phone) => ({ json: { phone } })))};`, 'Items');

const send = sendParameters();

const sendsOf = <T extends { method: string; path: string }>(requests: T[]) =>
	requests.filter((request) => request.method === 'POST' && request.path === '/api/v1/events');

export const neverRepeatChecks: Check[] = [
	{
		name: 'partial failure: a 3-item send whose 3rd contact Peach refuses queues 2, and the error lists their event_ids',
		fn: async (ctx) => {
			const queuedBefore = ctx.sandbox.state.events.length;
			ctx.sandbox.faults.push({
				kind: 'refuse',
				method: 'POST',
				path: '/api/v1/events',
				bodyIncludes: '+14155550203',
				times: 1,
			});
			const { execution, requests } = await runPeachWorkflow(
				ctx,
				'e2e-partial-refused',
				send,
				{},
				{
					before: threeItems(['+14155550201', '+14155550202', '+14155550203']),
				},
			);
			assertEqual(execution.status, 'error', 'execution status');
			assertEqual(sendsOf(requests).length, 3, 'send requests (none repeated)');
			const queued = ctx.sandbox.state.events.slice(queuedBefore).map((event) => event.id);
			assertEqual(queued.length, 2, 'queued in Peach');
			const error = nodeError(execution, 'Peach');
			const description = String(error?.description);
			assertEqual(error?.httpCode, '422', 'error httpCode');
			for (const eventId of queued) {
				assert(
					description.includes(`event_id ${eventId}`),
					`${eventId} not listed: ${description}`,
				);
			}
			assert(description.includes('Already sent: item'), description);
			assert(!/run the workflow again/i.test(description), `advises a rerun: ${description}`);
		},
	},
	{
		name: 'a 429 on the 3rd send: Peach did not take it, so the node waits Retry-After and sends it again; each contact queued once',
		fn: async (ctx) => {
			ctx.sandbox.faults.push({
				kind: 'rate_limit',
				method: 'POST',
				path: '/api/v1/events',
				bodyIncludes: '+14155550233',
				times: 1,
				retryAfter: 1,
			});
			const { execution, requests } = await runPeachWorkflow(
				ctx,
				'e2e-rate-limited-send',
				send,
				{},
				{
					before: threeItems(['+14155550231', '+14155550232', '+14155550233']),
				},
			);
			assertEqual(execution.status, 'success', 'execution status');
			const sends = sendsOf(requests);
			assertEqual(
				sends.map((request) => request.status).sort(),
				[201, 201, 201, 429],
				'send requests (the refused one sent again)',
			);
			const queued = sends
				.filter((request) => request.status === 201)
				.map((request) => String(((request.body as Json)?.contact as Json)?.phone_number));
			assertEqual(queued.sort(), ['+14155550231', '+14155550232', '+14155550233'], 'queued');
		},
	},
	{
		name: 'partial failure: a 3-item send whose 3rd item is invalid sends nothing',
		fn: async (ctx) => {
			const { execution, requests } = await runPeachWorkflow(
				ctx,
				'e2e-partial-invalid',
				send,
				{},
				{
					before: threeItems(['+14155550211', '+14155550212', '9988776655']),
				},
			);
			assertEqual(execution.status, 'error', 'execution status');
			assertEqual(requests.length, 0, 'requests to the sandbox');
			const error = nodeError(execution, 'Peach');
			assertEqual(
				error?.message,
				'Phone Number "9988776655" has no + and country code',
				'error message',
			);
			assert(String(error?.description).includes('Nothing was sent'), String(error?.description));
		},
	},
	{
		name: 'Wait for Delivery: a status read that fails after the send keeps the event_id; the item is not an error',
		fn: async (ctx) => {
			ctx.sandbox.faults.push({
				kind: 'server_error',
				method: 'GET',
				path: '/api/v1/events/',
				times: 1,
			});
			const { execution, requests } = await runPeachWorkflow(
				ctx,
				'e2e-wait-poll-fails',
				{ ...send, phoneNumber: '+14155550221', waitForDelivery: true, waitTimeout: 30 },
				{},
				{ before: threeItems(['+14155550221']) },
			);
			assertEqual(execution.status, 'success', 'execution status');
			assertEqual(sendsOf(requests).length, 1, 'sends');
			const [output] = nodeOutput(execution, 'Peach');
			assert(String(output.event_id).startsWith('evt_'), `no event_id: ${JSON.stringify(output)}`);
			const delivery = output.delivery as Json;
			assert(
				String(delivery.error).startsWith(
					`The message was sent (event_id ${String(output.event_id)})`,
				),
				`delivery: ${JSON.stringify(delivery)}`,
			);
		},
	},
	{
		name: 'refund without an amount (an expression that finds nothing) is refused before any request; the whole order only when chosen',
		fn: async (ctx) => {
			const created = await runPeachWorkflow(ctx, 'e2e-refund-order', {
				resource: 'order',
				operation: 'create',
				phoneNumber: '+919988776655',
				items: { item: [{ name: 'Mango box', amount: 12000, quantity: 1, saleAmount: 0 }] },
				contactFields: {},
				additionalFields: {},
			});
			const id = String(nodeOutput(created.execution, 'Peach')[0]?.id);
			await fetch(`${ctx.sandbox.url}/__sandbox/orders/${id}/pay`, { method: 'POST' });
			const missing = await runPeachWorkflow(ctx, 'e2e-refund-missing', {
				resource: 'order',
				operation: 'refund',
				orderId: id,
				amount: '={{ $json.body.amount }}',
			});
			assertEqual(missing.execution.status, 'error', 'execution status');
			assertEqual(missing.requests.length, 0, 'requests to the sandbox');
			assert(
				/^Amount \(Minor Units\) (.* )?is empty or zero$/.test(
					String(nodeError(missing.execution, 'Peach')?.message),
				),
				`message: ${nodeError(missing.execution, 'Peach')?.message}`,
			);
			const order = ctx.sandbox.state.orders.find((entry) => entry.id === id);
			assertEqual(order?.refunded, 0, 'refunded');
			const whole = await runPeachWorkflow(ctx, 'e2e-refund-whole', {
				resource: 'order',
				operation: 'refund',
				orderId: id,
				refundType: 'full',
			});
			assertEqual(whole.execution.status, 'success', 'whole-order refund');
			assertEqual(
				nodeOutput(whole.execution, 'Peach')[0]?.wholeOrder,
				true,
				'what was asked, beside the answer',
			);
			assertEqual(
				whole.requests.map((request) => request.body),
				[{ speed: 'normal' }],
				'body',
			);
			assertEqual(order?.refunded, 12000, 'refunded in full');
		},
	},
	{
		name: 'keys are data: metadata constructor/toString and payload __proto__ reach Peach as given',
		fn: async (ctx) => {
			const metadata = await runPeachWorkflow(ctx, 'e2e-keys-metadata', {
				...send,
				phoneNumber: '+14155550231',
				contactFields: {
					metadata: {
						values: [
							{ key: 'constructor', value: 'x' },
							{ key: 'toString', value: 'y' },
						],
					},
				},
			});
			assertEqual(metadata.execution.status, 'success', 'execution status');
			assertEqual(
				metadata.requests[0]?.rawBody?.includes('"metadata":{"constructor":"x","toString":"y"}'),
				true,
				`metadata on the wire: ${metadata.requests[0]?.rawBody}`,
			);
			const payload = await runPeachWorkflow(ctx, 'e2e-keys-payload', {
				resource: 'automation',
				operation: 'trigger',
				automationId: { __rl: true, mode: 'id', value: 'strm_welcome' },
				phoneNumber: '+14155550232',
				contactFields: {},
				payloadInput: 'fields',
				payload: {
					values: [
						{ key: '__proto__', value: 'p' },
						{ key: 'constructor', value: 'c' },
					],
				},
			});
			assertEqual(payload.execution.status, 'success', 'execution status');
			assertEqual(
				payload.requests[0]?.rawBody?.includes('"__proto__":"p","constructor":"c"'),
				true,
				`payload on the wire: ${payload.requests[0]?.rawBody}`,
			);
		},
	},
	{
		name: 'trigger defaults: two real escalations by one AI agent (identical bodies) start two executions',
		fn: async (ctx) => {
			const trigger = await publishTrigger(ctx, { ignoreDuplicates: true });
			const body = JSON.stringify({
				type: 'ai_flow_execution.escalated',
				data: {
					id: 'aiflw_1',
					name: 'Support agent',
					app_type: 'AI App',
					status: 'published',
					description: 'Answers questions',
				},
			});
			for (let i = 0; i < 2; i++) {
				const answer = await fetch(trigger.url, {
					method: 'POST',
					headers: { 'Content-Type': 'application/json' },
					body,
				});
				assertEqual(await answer.json(), { received: true }, `answer ${i + 1}`);
			}
			const executions = await ctx.client.waitForExecutions(trigger.workflowId, 2);
			assertEqual(
				executions.map((execution) => nodeOutput(execution, TRIGGER)[0]?.event),
				['ai_flow_execution.escalated', 'ai_flow_execution.escalated'],
				'executions',
			);
			await ctx.client.deactivate(trigger.workflowId);
		},
	},
	{
		name: "media: Delete by a media:// URL deletes the file that URL names (not the URL's number as an ID)",
		fn: async (ctx) => {
			// A file uploaded by the media checks: its media URL names the stored blob, not its ID.
			const uploaded = ctx.sandbox.state.medias.find(
				(media) => media.media_url !== `media://${media.id}`,
			);
			assert(uploaded, 'the sandbox has no uploaded media');
			const { execution, requests } = await runPeachWorkflow(ctx, 'e2e-media-delete-url', {
				resource: 'media',
				operation: 'delete',
				mediaId: { __rl: true, mode: 'id', value: uploaded.media_url },
			});
			assertEqual(execution.status, 'success', 'execution status');
			assertEqual(
				requests.map((request) => `${request.method} ${request.path}`),
				['GET /api/v1/medias', `DELETE /api/v1/medias/${uploaded.id}`],
				'requests',
			);
			assert(
				!ctx.sandbox.state.medias.some((media) => media.media_url === uploaded.media_url),
				`${uploaded.media_url} is still there`,
			);
		},
	},
];
