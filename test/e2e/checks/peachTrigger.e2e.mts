/** Peach Trigger checks for the real-n8n suite: published trigger workflows receiving the sandbox's webhooks. */
import { randomUUID } from 'node:crypto';

import { WEBHOOK_EVENT_TYPES } from '../../sandbox/webhooks.mts';
import { type Json, N8N_VERSION, nodeOutput, PACKAGE_NAME } from '../n8n.mts';
import { assert, assertEqual, type Check, type Context, runPeachWorkflow } from '../suite.mts';
import { peachTriggerRefusalChecks } from './peachTriggerRefusals.e2e.mts';
import { publishTrigger, TRIGGER } from './triggerSupport.mts';

export { publishTrigger, TRIGGER } from './triggerSupport.mts';

function target(ctx: Context, url: string, headers: Record<string, string> = {}) {
	ctx.sandbox.targets.splice(0, ctx.sandbox.targets.length, { url, headers });
}

/** Lets any late webhook or execution land before checking that nothing more happened. */
async function settle(ctx: Context) {
	await ctx.sandbox.idle();
	await new Promise((resolve) => setTimeout(resolve, 1500));
}

export const peachTriggerChecks: Check[] = [
	{
		name: 'trigger: a send made in n8n comes back as sent and delivered executions of a Peach Trigger',
		fn: async (ctx) => {
			const trigger = await publishTrigger(ctx, {
				events: ['message_delivery.sent', 'message_delivery.delivered'],
			});
			target(ctx, trigger.url);
			const deliveriesBefore = ctx.sandbox.state.deliveries.length;
			const send = await runPeachWorkflow(
				ctx,
				'e2e-loop-send',
				{
					resource: 'templateMessage',
					operation: 'send',
					phoneNumber: '={{ $json.body.phone }}',
					templateId: { __rl: true, mode: 'id', value: 'wat_order_update' },
					variablesInput: 'json',
					variablesJson: '={{ JSON.stringify({ order_id: $json.body.order }) }}',
					contactFields: {},
					additionalFields: {},
				},
				{ phone: '+33612345678', order: 'A-1001' },
			);
			assertEqual(send.execution.status, 'success', 'send execution status');
			const eventId = nodeOutput(send.execution, 'Peach')[0]?.event_id as string;
			await ctx.sandbox.idle();
			const deliveries = ctx.sandbox.state.deliveries.slice(deliveriesBefore);
			assertEqual(
				deliveries.map((d) => [d.type, d.status]),
				[
					['message_delivery.sent', 200],
					['message_delivery.delivered', 200],
				],
				'webhook deliveries',
			);
			const executions = await ctx.client.waitForExecutions(trigger.workflowId, 2);
			const outputs = executions.map((execution) => nodeOutput(execution, TRIGGER)[0]).reverse();
			assertEqual(
				outputs.map((o) => [o.event, o.kind, o.sentType]),
				[
					['message_delivery.sent', 'messageDelivery', 'message_delivery.sent'],
					['message_delivery.delivered', 'messageDelivery', 'message_delivery.delivered'],
				],
				'trigger outputs',
			);
			for (const output of outputs) {
				assertEqual((output.contact as Json)?.phone_number, '+33612345678', 'contact.phone_number');
				assertEqual((output.message as Json)?.type, 'template_message', 'message.type');
			}
			const event = ctx.sandbox.state.events.find((entry) => entry.id === eventId);
			assertEqual(
				(outputs[1].message as Json).id,
				(event?.result as Json)?.id,
				'message id of the send',
			);
			await ctx.client.deactivate(trigger.workflowId);
		},
	},
	{
		name: 'trigger: an event that is not chosen is acknowledged and starts no execution',
		fn: async (ctx) => {
			const trigger = await publishTrigger(ctx, { events: ['message_delivery.delivered'] });
			target(ctx, trigger.url);
			const before = ctx.sandbox.state.deliveries.length;
			await ctx.sandbox.emit('order.completed');
			await ctx.sandbox.emit('message_delivery.sent', {
				message: { id: 'cmsg_x', status: 'sent', type: 'template_message' },
				contact: {},
				event: null,
			});
			await ctx.sandbox.emit('message_delivery.sent', {
				message: { id: 'cmsg_x', status: 'delivered', type: 'template_message' },
				contact: {},
				event: null,
			});
			await settle(ctx);
			assertEqual(
				ctx.sandbox.state.deliveries.slice(before).map((d) => d.status),
				[200, 200, 200],
				'delivery statuses',
			);
			const executions = await ctx.client.executions(trigger.workflowId);
			assertEqual(
				executions.length,
				1,
				'executions (only the delivered one, decided by the message status)',
			);
			const [output] = nodeOutput(executions[0], TRIGGER);
			assertEqual(
				[output.event, output.sentType, output.decidedBy],
				['message_delivery.delivered', 'message_delivery.sent', 'messageStatus'],
				'decided event',
			);
			await ctx.client.deactivate(trigger.workflowId);
		},
	},
	{
		name: 'trigger: a wrong or missing secret answers 401 and starts nothing; the right one starts it',
		fn: async (ctx) => {
			const secret = randomUUID();
			const byQuery = await publishTrigger(ctx, { verification: 'queryToken' }, { secret });
			const before = ctx.sandbox.state.deliveries.length;
			target(ctx, `${byQuery.url}?token=wrong`);
			await ctx.sandbox.emit('order.completed');
			target(ctx, byQuery.url);
			await ctx.sandbox.emit('order.completed');
			target(ctx, `${byQuery.url}?token=${secret}`);
			await ctx.sandbox.emit('order.canceled');
			const byHeader = await publishTrigger(
				ctx,
				{ verification: 'header', headerName: 'X-Peach-Token' },
				{ secret },
			);
			target(ctx, byHeader.url, { 'X-Peach-Token': 'wrong' });
			await ctx.sandbox.emit('order.completed');
			target(ctx, byHeader.url, { 'X-Peach-Token': secret });
			await ctx.sandbox.emit('order.canceled');
			await settle(ctx);
			assertEqual(
				ctx.sandbox.state.deliveries.slice(before).map((d) => d.status),
				[401, 401, 200, 401, 200],
				'delivery statuses',
			);
			for (const { workflowId } of [byQuery, byHeader]) {
				const executions = await ctx.client.executions(workflowId);
				assertEqual(
					executions.map((execution) => nodeOutput(execution, TRIGGER)[0]?.event),
					['order.canceled'],
					'executions',
				);
				await ctx.client.deactivate(workflowId);
			}
		},
	},
	{
		name: 'trigger: every documented event kind emitted by the sandbox arrives with its output',
		fn: async (ctx) => {
			const trigger = await publishTrigger(ctx, {
				events: ['*'],
				options: { includeRawBody: true },
			});
			target(ctx, trigger.url);
			for (const type of WEBHOOK_EVENT_TYPES) await ctx.sandbox.emit(type);
			const executions = await ctx.client.waitForExecutions(
				trigger.workflowId,
				WEBHOOK_EVENT_TYPES.length,
				30_000,
			);
			const outputs = executions.map((execution) => nodeOutput(execution, TRIGGER)[0]);
			const byEvent = new Map(outputs.map((output) => [output.event as string, output]));
			const expectedKind = (type: string) =>
				type.startsWith('order.')
					? 'order'
					: type.startsWith('flow_execution.')
						? 'flowExecution'
						: type.startsWith('message_delivery.')
							? 'messageDelivery'
							: 'aiAgent';
			for (const type of WEBHOOK_EVENT_TYPES) {
				const output = byEvent.get(type);
				assert(output, `no execution for ${type}`);
				assertEqual(output.kind, expectedKind(type), `kind of ${type}`);
				assert(
					typeof output.rawBody === 'string' && JSON.parse(output.rawBody as string).type === type,
					`rawBody of ${type}`,
				);
			}
			assertEqual(
				(byEvent.get('order.completed')?.contact as Json)?.phone_number,
				'+919988776655',
				'order contact.phone_number',
			);
			assertEqual(
				(byEvent.get('flow_execution.completed')?.flow as Json)?.id,
				'flw_sandbox1',
				'flow id',
			);
			assertEqual(byEvent.get('ai_flow_execution.escalated')?.id, 'aiflw_sandbox1', 'AI agent id');
			assertEqual(
				((byEvent.get('message_delivery.replied')?.message as Json)?.reply as Json)?.text,
				'Yes, please!',
				'reply text',
			);
			await ctx.client.deactivate(trigger.workflowId);
		},
	},
	{
		name: 'trigger: malformed, deep, long-typed and over-1-MB bodies get 400 and start nothing; an accepted one is answered JSON',
		fn: async (ctx) => {
			const trigger = await publishTrigger(ctx, { events: ['*'] });
			const post = (body: string, type = 'application/json') =>
				fetch(trigger.url, { method: 'POST', headers: { 'Content-Type': type }, body });
			const answers = [
				await post('not json', 'text/plain'),
				await post('[1,2]'),
				await post('{"data":{}}'),
				await post('"just text"'),
				await post(JSON.stringify({ type: 'x'.repeat(201), data: {} })),
				await post(`{"type":"order.completed","data":${'{"a":'.repeat(100)}1${'}'.repeat(100)}}`),
				await post(
					JSON.stringify({ type: 'order.completed', data: { blob: 'x'.repeat(1024 * 1024) } }),
				),
			];
			assertEqual(
				answers.map((a) => a.status),
				[400, 400, 400, 400, 400, 400, 400],
				'statuses',
			);
			assertEqual(
				(await answers[5].json()).message,
				'The body is nested deeper than 64 levels.',
				'reason for a deep body',
			);
			assert(
				(await answers[2].json()).message.includes('no "type"'),
				'reason for a body without type',
			);
			await new Promise((resolve) => setTimeout(resolve, 1000));
			assertEqual((await ctx.client.executions(trigger.workflowId)).length, 0, 'executions');
			const accepted = await post(
				JSON.stringify({ type: 'order.completed', data: { id: 'wa_ord_1' } }),
			);
			assertEqual(
				[
					accepted.status,
					accepted.headers.get('content-type')?.split(';')[0],
					await accepted.json(),
				],
				[200, 'application/json', { received: true }],
				'accepted answer',
			);
			await ctx.client.waitForExecutions(trigger.workflowId, 1);
			await ctx.client.deactivate(trigger.workflowId);
		},
	},
	{
		name: 'trigger: the secret lives in a credential, required by default; absent from the workflow and executions',
		fn: async (ctx) => {
			const secret = `peach-${'s3cr3t'.repeat(4)}`;
			const bareWebhookId = randomUUID();
			const bare = await ctx.client.createWorkflow({
				name: 'e2e trigger without a secret',
				nodes: [
					{
						id: randomUUID(),
						name: TRIGGER,
						type: `${PACKAGE_NAME}.peachTrigger`,
						typeVersion: 1,
						position: [0, 0],
						webhookId: bareWebhookId,
						parameters: { events: ['*'], options: {} },
					},
				],
				connections: {},
			});
			const refused = await ctx.client.activate(bare).then(
				() => 'published',
				(error: Error) => error.message,
			);
			if (N8N_VERSION.startsWith('1.')) {
				// n8n 1.x publishes a trigger whose required credential is missing; the node still refuses
				// every delivery, because without a secret nothing can match.
				assertEqual(refused, 'published', 'n8n 1.x publishing without the credential');
				const url = `${ctx.n8n.url}/webhook/${String(bareWebhookId)}/webhook`;
				const deadline = Date.now() + 15_000;
				let status = 0;
				do {
					status = (
						await fetch(`${url}?token=`, {
							method: 'POST',
							headers: { 'Content-Type': 'application/json' },
							body: JSON.stringify({ type: 'order.completed', data: {} }),
						})
					).status;
					if (status === 401) break;
					await new Promise((resolve) => setTimeout(resolve, 250));
				} while (Date.now() < deadline);
				assertEqual(status, 401, 'a delivery to a trigger without its credential');
				await ctx.client.deactivate(bare);
			} else {
				assert(
					refused.includes('Missing required credential: peachWebhookApi'),
					`published without a secret: ${refused}`,
				);
			}
			const credential = await ctx.client.createCredential(
				'Peach webhook secret',
				'peachWebhookApi',
				{ secret },
			);
			const trigger = await publishTrigger(
				ctx,
				{},
				{ credentials: { peachWebhookApi: { id: credential.id, name: credential.name } } },
			);
			const body = JSON.stringify({ type: 'order.completed', data: { id: 'wa_ord_9' } });
			const post = (query: string) =>
				fetch(`${trigger.url}${query}`, {
					method: 'POST',
					headers: { 'Content-Type': 'application/json' },
					body,
				});
			assertEqual(
				[(await post('')).status, (await post('?token=wrong')).status],
				[401, 401],
				'refused',
			);
			assertEqual((await post(`?token=${secret}`)).status, 200, 'accepted');
			const [execution] = await ctx.client.waitForExecutions(trigger.workflowId, 1);
			assertEqual(nodeOutput(execution, TRIGGER)[0]?.id, 'wa_ord_9', 'output');
			const workflow = await ctx.client.api('GET', `/workflows/${trigger.workflowId}`);
			assert(!JSON.stringify(workflow).includes(secret), 'the secret is in the workflow');
			assert(!JSON.stringify(execution).includes(secret), 'the secret is in the execution');
			const [node] = workflow.nodes as Array<{ parameters: Json }>;
			assertEqual(node.parameters.verification, undefined, 'verification left at its default');
			await ctx.client.deactivate(trigger.workflowId);
		},
	},
	...peachTriggerRefusalChecks,
];
