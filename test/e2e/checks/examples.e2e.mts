/**
 * examples/*.json in a real n8n: each file imports, and each runnable one runs green against the sandbox
 * (by its webhook, manually through the editor's run endpoint, or by a Peach Trigger delivery).
 */
import { randomUUID } from 'node:crypto';

import { type Json, nodeOutput, waitForTriggerWebhook } from '../n8n.mts';
import { assert, assertEqual, type Check, type Context } from '../suite.mts';
import { type Example, loadExamples } from '../workflows/examples.mts';
import { waitForStatus } from './sendAndWait.e2e.mts';

async function secretCredential(ctx: Context, secret: string) {
	return ctx.client.createCredential(
		`Example webhook secret ${secret.slice(-6)}`,
		'peachWebhookApi',
		{
			secret,
		},
	);
}

/** Runs one imported example the way it says; returns the finished execution. */
async function runExample(ctx: Context, example: Example, workflowId: string, secret: string) {
	const { how } = example;
	if (how.run === 'webhook') {
		await ctx.client.activate(workflowId);
		const answer = await ctx.client.callWebhook(how.path, how.body);
		assertEqual(answer.status, 200, `${example.file}: webhook answer`);
		if (how.answer) {
			await waitForStatus(ctx, workflowId, ['waiting']);
			const { phone, ...given } = how.answer;
			const tap = await ctx.sandbox.phone.answer(phone, given);
			assertEqual(tap.status, 200, `${example.file}: the answer on the phone`);
			const done = await waitForStatus(ctx, workflowId, ['success', 'error']);
			await ctx.client.deactivate(workflowId);
			return done;
		}
		const [execution] = await ctx.client.waitForExecutions(workflowId, 1, 60_000);
		await ctx.client.deactivate(workflowId);
		return execution;
	}
	if (how.run === 'manual') {
		const trigger = example.workflow.nodes.find(
			(node) => node.type === 'n8n-nodes-base.manualTrigger',
		);
		assert(trigger, `${example.file}: no Manual Trigger`);
		await ctx.client.runManually(workflowId, String(trigger.name));
		const [execution] = await ctx.client.waitForExecutions(workflowId, 1, 90_000);
		return execution;
	}
	if (how.run === 'trigger') {
		await ctx.client.activate(workflowId);
		const trigger = example.workflow.nodes.find((node) =>
			String(node.type).endsWith('.peachTrigger'),
		);
		const url = `${ctx.n8n.url}/webhook/${String(trigger?.webhookId)}/webhook?token=${secret}`;
		await waitForTriggerWebhook(url, { what: `${example.file}: the trigger` });
		ctx.sandbox.targets.splice(0, ctx.sandbox.targets.length, { url, headers: {} });
		await ctx.sandbox.emit(how.event);
		// The probe that found the webhook live is a refused delivery: an example that reports refusals
		// (Options → Report Refused Deliveries) starts an execution of its own for it, on the Refused
		// output. The delivery's execution is the one that ran the node the example expects.
		const execution = await ctx.client.waitForExecution(
			workflowId,
			(finished) => nodeOutput(finished, how.expect.node).length > 0,
			30_000,
		);
		await ctx.client.deactivate(workflowId);
		return execution;
	}
	return undefined;
}

export const exampleChecks: Check[] = [
	{
		name: 'examples/*.json: each imports into n8n, and the runnable ones run green against the sandbox',
		fn: async (ctx) => {
			const secret = `example-${randomUUID()}`;
			const secretCred = await secretCredential(ctx, secret);
			const examples = loadExamples(
				{ peachMessagingApi: ctx.credential, peachWebhookApi: secretCred },
				ctx.sandbox.url,
			);
			assert(examples.length >= 7, `only ${examples.length} examples`);
			const knownTypes = new Set(await ctx.client.nodeTypes());
			const results: string[] = [];
			for (const example of examples) {
				for (const node of example.workflow.nodes) {
					assert(
						knownTypes.has(String(node.type)),
						`${example.file}: n8n does not know ${String(node.type)}`,
					);
				}
				const workflowId = await ctx.client.createWorkflow(example.workflow);
				const imported = await ctx.client.api('GET', `/workflows/${workflowId}`);
				assertEqual(
					(imported.nodes as Json[]).map((node) => node.name),
					example.workflow.nodes.map((node) => node.name),
					`${example.file}: imported nodes`,
				);
				const execution = await runExample(ctx, example, workflowId, secret);
				if (!execution) {
					results.push(
						`${example.file}: imported (not run: ${example.how.run === 'none' ? example.how.why : ''})`,
					);
					continue;
				}
				assertEqual(execution.status, 'success', `${example.file}: execution status`);
				const expectation = 'expect' in example.how ? example.how.expect : undefined;
				if (expectation) {
					const output = nodeOutput(execution, expectation.node);
					assert(output.length > 0, `${example.file}: ${expectation.node} has no output`);
					if (expectation.field) {
						const value = output[0][expectation.field];
						assert(
							value !== undefined && value !== '',
							`${example.file}: ${expectation.node} output has no ${expectation.field}: ${JSON.stringify(output[0]).slice(0, 300)}`,
						);
						if ('value' in expectation)
							assertEqual(value, expectation.value, `${example.file}: ${expectation.field}`);
					}
				}
				results.push(`${example.file}: ran (${example.how.run})`);
			}
			for (const line of results) process.stdout.write(`      ${line}\n`);
		},
	},
];
