/**
 * Real-n8n checks that a failed item goes where n8n sends failed items: with On Error → Continue
 * (using error output) the error branch gets exactly the failed items, paired to their inputs (a
 * per-item, a batch and a delivering operation); and that an unknown outcome is never a success (Retry
 * On Fail with a server error: the execution ends in error naming it, nothing sent twice).
 */
import { randomUUID } from 'node:crypto';

import { codeNode, type Json, peachNode, sendParameters, webhookNode } from '../n8n.mts';
import { assertEqual, type Check, type Context } from '../suite.mts';

const noOp = (name: string, x: number): Json => ({
	id: randomUUID(),
	name,
	type: 'n8n-nodes-base.noOp',
	typeVersion: 1,
	position: [x, 0],
	parameters: {},
});

/**
 * Webhook → Items → the Peach node with its error output wired (Succeeded / Failed); runs it and
 * answers the items of each output of the Peach node, as n8n recorded them.
 */
async function runWithErrorOutput(ctx: Context, items: Json[], peach: Json) {
	const path = `e2e-error-output-${randomUUID().slice(0, 8)}`;
	const nodes = [
		webhookNode(path, 'Webhook', { responseMode: 'onReceived' }),
		codeNode(`return ${JSON.stringify(items.map((json) => ({ json })))};`, 'Items'),
		{ ...peachNode(peach, ctx.credential, 'Peach'), onError: 'continueErrorOutput' },
		noOp('Succeeded', 800),
		noOp('Failed', 800),
	];
	const link = (node: string) => ({ node, type: 'main', index: 0 });
	const workflowId = await ctx.client.createWorkflow({
		name: `e2e ${path}`,
		nodes,
		connections: {
			Webhook: { main: [[link('Items')]] },
			Items: { main: [[link('Peach')]] },
			Peach: { main: [[link('Succeeded')], [link('Failed')]] },
		},
	});
	await ctx.client.activate(workflowId);
	await ctx.client.callWebhook(path, {});
	const [done] = await ctx.client.waitForExecutions(workflowId, 1, 60_000);
	await ctx.client.deactivate(workflowId);
	const execution = await ctx.client.api('GET', `/executions/${String(done.id)}?includeData=true`);
	const runData = ((execution.data as Json).resultData as Json).runData as Record<string, Json[]>;
	const main = (runData.Peach[0].data as Json).main as Array<Array<Json>>;
	const ran = (name: string) => (runData[name] ? 'ran' : 'did not run');
	return {
		status: String(execution.status),
		success: main[0] ?? [],
		error: main[1] ?? [],
		branches: [ran('Succeeded'), ran('Failed')],
	};
}

const pairedTo = (items: Json[]) => items.map((item) => (item.pairedItem as Json).item);

export const errorOutputChecks: Check[] = [
	{
		name: 'On Error → Continue (using error output): Order → Get of three orders, one unknown to Peach: that one alone on the error branch, paired',
		fn: async (ctx) => {
			const run = await runWithErrorOutput(
				ctx,
				[
					{ order: 'wa_ord_demo_paid_1' },
					{ order: 'wa_ord_nobody' },
					{ order: 'wa_ord_demo_paid_2' },
				],
				{ resource: 'order', operation: 'get', orderId: '={{ $json.order }}' },
			);
			assertEqual(run.status, 'success', 'execution');
			assertEqual(pairedTo(run.success), [0, 2], 'success output (paired items)');
			assertEqual(pairedTo(run.error), [1], 'error output (paired items)');
			assertEqual(
				String((run.error[0].json as Json).error).includes('wa_ord_nobody'),
				true,
				'the error item names the order',
			);
			assertEqual(run.branches, ['ran', 'ran'], 'both branches');
		},
	},
	{
		name: 'On Error → Continue (using error output): Contact → Create Many with one number that is not one: that item alone on the error branch, the others created in one request',
		fn: async (ctx) => {
			const run = await runWithErrorOutput(
				ctx,
				[{ phone: '+919900070001' }, { phone: 'not a phone' }, { phone: '+919900070003' }],
				{
					resource: 'contact',
					operation: 'createMany',
					phoneNumber: '={{ $json.phone }}',
					contactFields: {},
				},
			);
			assertEqual(pairedTo(run.error), [1], 'error output (paired items)');
			assertEqual(run.success.length > 0, true, 'the others created');
		},
	},
	{
		name: 'On Error → Continue (using error output): Template Message → Send to four contacts, one refused by Peach and one not a phone number: those two on the error branch, the others sent',
		fn: async (ctx) => {
			const refusedPhone = '+919900070012';
			ctx.sandbox.faults.push({
				method: 'POST',
				kind: 'refuse',
				path: '/api/v1/events',
				bodyIncludes: `"phone_number":"${refusedPhone}"`,
				times: 1,
			});
			const run = await runWithErrorOutput(
				ctx,
				[
					{ phone: '+919900070011' },
					{ phone: refusedPhone },
					{ phone: 'not a phone' },
					{ phone: '+919900070014' },
				],
				{
					...sendParameters('wat_welcome', { key: 'first_name', value: 'Asha' }),
					phoneNumber: '={{ $json.phone }}',
				},
			);
			ctx.sandbox.faults.length = 0;
			assertEqual(pairedTo(run.success), [0, 3], 'success output (paired items)');
			assertEqual(pairedTo(run.error), [1, 2], 'error output (paired items)');
			assertEqual(
				run.success.map((item) => typeof (item.json as Json).event_id),
				['string', 'string'],
				'sent ones carry their event_id',
			);
		},
	},
	{
		name: 'Retry On Fail (3 tries), Peach has a server error on the 2nd contact: its outcome is unknown, it is never sent again, the others once, and the execution ends in error naming it',
		fn: async (ctx) => {
			const phones = ['+919900070021', '+919900070022', '+919900070023'];
			ctx.sandbox.faults.push({
				method: 'POST',
				kind: 'server_error',
				path: '/api/v1/events',
				bodyIncludes: `"phone_number":"${phones[1]}"`,
				times: 1,
			});
			const path = `e2e-unknown-${randomUUID().slice(0, 8)}`;
			const workflowId = await ctx.client.createWorkflow({
				name: `e2e ${path}`,
				nodes: [
					webhookNode(path, 'Webhook', { responseMode: 'onReceived' }),
					codeNode(
						`return ${JSON.stringify(phones.map((phone) => ({ json: { phone } })))};`,
						'Items',
					),
					{
						...peachNode(
							{
								...sendParameters(
									'wat_welcome',
									{ key: 'first_name', value: 'Asha' },
									{
										requestOptions: { concurrency: 1 },
									},
								),
								phoneNumber: '={{ $json.phone }}',
							},
							ctx.credential,
							'Peach',
						),
						retryOnFail: true,
						maxTries: 3,
						waitBetweenTries: 100,
					},
				],
				connections: {
					Webhook: { main: [[{ node: 'Items', type: 'main', index: 0 }]] },
					Items: { main: [[{ node: 'Peach', type: 'main', index: 0 }]] },
				},
			});
			const from = ctx.sandbox.state.requests.length;
			await ctx.client.activate(workflowId);
			await ctx.client.callWebhook(path, {});
			const [done] = await ctx.client.waitForExecutions(workflowId, 1, 60_000);
			await ctx.client.deactivate(workflowId);
			ctx.sandbox.faults.length = 0;
			const asked = ctx.sandbox.state.requests
				.slice(from)
				.filter((request) => request.method === 'POST' && request.path === '/api/v1/events')
				.map((request) => String(((request.body as Json).contact as Json).phone_number));
			const execution = await ctx.client.api(
				'GET',
				`/executions/${String(done.id)}?includeData=true`,
			);
			const error = ((execution.data as Json).resultData as Json).error as Json | undefined;
			assertEqual(String(done.status), 'error', 'execution');
			assertEqual(
				phones.map((phone) => asked.filter((one) => one === phone).length),
				[1, 1, 1],
				'requests per contact over the 3 tries',
			);
			assertEqual(
				String(error?.message),
				`The outcome of item 1 (${phones[1]}) is unknown: an earlier try's request may have reached Peach`,
				'the error of the last try',
			);
		},
	},
];
