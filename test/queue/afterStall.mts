/**
 * npm run test:queue, after n8n's stall check: a worker killed while an execution sends template
 * messages, another while one refunds orders. Once n8n has given up on both (their data replaced, so
 * that a Retry runs no node: docs/running-at-scale.md), README's way on,
 * examples/what-was-sent-before-a-crash.json, names each contact made or never made and each order
 * refunded or not, as Peach (the sandbox) made them; sending and refunding only what it names never
 * made makes every one once.
 */
import { randomUUID } from 'node:crypto';

import {
	codeNode,
	type Json,
	log,
	nodeOutput,
	nodeRuns,
	peachNode,
	webhookNode,
} from '../e2e/n8n.mts';
import { assert, assertEqual } from '../e2e/suite.mts';
import { loadExamples } from '../e2e/workflows/examples.mts';
import { paidOrder } from './money.mts';
import {
	addFault,
	executionOf,
	kill,
	N8N_1,
	queuedPerPhone,
	type RecoveryContext,
	sendsSince,
	sendWithConcurrency,
	sleep,
	workerRunning,
} from './recovery.mts';

const CONTACTS = 300;
const ORDERS = 10;
const EXAMPLE = 'what-was-sent-before-a-crash.json';
const STALLED = 'failed to be processed too many times';

const refundParameters: Json = {
	resource: 'order',
	operation: 'refund',
	orderId: '={{ $json.id }}',
	refundType: 'partial',
	amount: 5000,
	currency: 'INR',
	speed: 'normal',
	// Two at a time: the kill finds some orders refunded, some under way, the rest not asked.
	requestOptions: { concurrency: 2 },
};

/** Webhook → the body's `list` as items → the Peach node; activated. */
async function listWorkflow(q: RecoveryContext, parameters: Json) {
	const path = `queue-after-stall-${randomUUID().slice(0, 8)}`;
	const workflowId = await q.client.createWorkflow({
		name: `queue ${path}`,
		nodes: [
			webhookNode(path, 'Webhook', { responseMode: 'onReceived' }),
			codeNode('return $input.first().json.body.list.map((json) => ({ json }));', 'Items'),
			peachNode(parameters, q.credential, 'Send'),
		],
		connections: {
			Webhook: { main: [[{ node: 'Items', type: 'main', index: 0 }]] },
			Items: { main: [[{ node: 'Send', type: 'main', index: 0 }]] },
		},
	});
	await q.client.activate(workflowId);
	return { workflowId, path };
}

/** Starts the workflow with `list`, waits until `made()` reaches `count`, kills the worker running it. */
async function crashAt(
	q: RecoveryContext,
	workflow: { workflowId: string; path: string },
	list: Json[],
	made: () => number,
	count: number,
): Promise<string> {
	await q.client.callWebhook(workflow.path, { list });
	const began = Date.now();
	while (made() < count && Date.now() - began < 180_000) await sleep(50);
	const [executionId] = await q.client.executionIds(workflow.workflowId);
	await kill(q, workerRunning(q, executionId));
	return executionId;
}

/** Waits until n8n's stall check replaced the execution's data; how long after `killedAt`. */
async function untilStalled(q: RecoveryContext, executionId: string, killedAt: number) {
	for (;;) {
		const execution = await executionOf(q, executionId);
		if (JSON.stringify(execution.data ?? {}).includes(STALLED)) return Date.now() - killedAt;
		assert(Date.now() - killedAt < 240_000, `execution ${executionId} not given up on in 240 s`);
		await sleep(1000);
	}
}

/** The example, its lists and start time set to the crashed executions', run as the editor runs it. */
async function runExample(q: RecoveryContext, since: string, phones: string[], orders: string[]) {
	const example = loadExamples({ peachMessagingApi: q.credential, peachWebhookApi: q.credential })
		.filter((candidate) => candidate.file === EXAMPLE)
		.map(({ workflow }) => workflow)[0];
	assert(example, `examples/${EXAMPLE} not found`);
	const listCode = (values: string[], key: string) =>
		`return ${JSON.stringify(values)}.map((${key}) => ({ json: { ${key} } }));`;
	const nodes = example.nodes.map((node) => {
		if (node.name === 'When the failed execution started')
			return {
				...node,
				parameters: {
					...(node.parameters as Json),
					assignments: {
						assignments: [
							{ id: randomUUID(), name: 'since', value: since, type: 'string' },
							{ id: randomUUID(), name: 'template', value: 'wat_welcome', type: 'string' },
						],
					},
				},
			};
		if (node.name === 'The contacts it was sending to')
			return { ...node, parameters: { jsCode: listCode(phones, 'phone') } };
		if (node.name === 'The orders it was refunding')
			return { ...node, parameters: { jsCode: listCode(orders, 'id') } };
		return node;
	});
	const workflowId = await q.client.createWorkflow({ ...example, nodes });
	const trigger = nodes.find((node) => node.type === 'n8n-nodes-base.manualTrigger');
	assert(trigger, `examples/${EXAMPLE}: no Manual Trigger`);
	await q.client.runManually(workflowId, String(trigger.name));
	const [execution] = await q.client.waitForExecutions(workflowId, 1, 120_000);
	assertEqual(execution.status, 'success', 'the example');
	return execution;
}

/** Per key, how many: the phones' queued template messages, the orders' refunds since `since`. */
function madeAtPeach(q: RecoveryContext, phones: string[], orders: string[], since: string) {
	const messages = queuedPerPhone(q, phones);
	const refunds = new Map(
		orders.map((id) => {
			const order = q.sandbox.state.orders.find((candidate) => candidate.id === id);
			const made = (order?.refunds ?? []).filter((refund) => String(refund.created_at) >= since);
			return [id, made.length];
		}),
	);
	return { messages, refunds };
}

const byState = (output: Json[], key: string) =>
	new Map(output.map((item) => [String(item[key]), String(item.state)]));

export const afterStallChecks: Array<{ name: string; fn: (q: RecoveryContext) => Promise<void> }> =
	[
		{
			name: `after n8n's stall check, README's way on names what a killed send and a killed refund run left, by contact and by order: ${N8N_1 ? 'measured (n8n 1.x)' : 'as Peach made it; the rest made once'}`,
			fn: async (q) => {
				assert(q.restartWorkers, 'the queue run gives this check a way to restart its workers');
				const phones = Array.from({ length: CONTACTS }, (_, i) => `+1431${String(5000000 + i)}`);
				const orders: string[] = [];
				for (let i = 0; i < ORDERS; i++) orders.push(await paidOrder(q, `+9199100${10000 + i}`));
				// Peach takes 50 ms for a message and 1 s for a refund: the kills find requests under way.
				await addFault(q, { kind: 'slow', path: '/api/v1/events', delayMs: 50, times: 100_000 });
				await addFault(q, { kind: 'slow', path: '/api/v1/orders', delayMs: 1000, times: 1000 });
				const send = await listWorkflow(q, sendWithConcurrency());
				const refund = await listWorkflow(q, refundParameters);
				const from = q.sandbox.state.requests.length;
				const refundsAsked = () =>
					q.sandbox.state.requests
						.slice(from)
						.filter((request) => request.method === 'POST' && request.path.endsWith('/refunds'))
						.length;
				const sendExecution = await crashAt(
					q,
					send,
					phones.map((phone) => ({ phone })),
					() => sendsSince(q, from).sends.length,
					CONTACTS / 2,
				);
				const sendKilledAt = Date.now();
				const refundExecution = await crashAt(
					q,
					refund,
					orders.map((id) => ({ id })),
					refundsAsked,
					ORDERS / 2,
				);
				const refundKilledAt = Date.now();
				q.sandbox.faults.length = 0;
				await q.restartWorkers();
				const since = String((await executionOf(q, sendExecution)).startedAt);
				if (N8N_1) {
					await sleep(30_000);
					for (const { workflowId } of [send, refund]) await q.client.deactivate(workflowId);
					log(`      n8n 1.x runs a stalled job again: measured only`);
					return;
				}
				const stalledAfter = [
					await untilStalled(q, sendExecution, sendKilledAt),
					await untilStalled(q, refundExecution, refundKilledAt),
				];
				// README's premise: after the stall check a Retry runs no node.
				const retry = await q.client.retryExecution(sendExecution, false);
				const retried = await executionOf(q, retry.id);
				assertEqual(nodeRuns(retried, 'Send').length, 0, "runs of Send in the stalled one's Retry");

				const execution = await runExample(q, since, phones, orders);
				const contacts = byState(
					nodeOutput(execution, 'Made, never made or unknown, by contact'),
					'phone',
				);
				const refunded = byState(
					nodeOutput(execution, 'Refunded, not refunded or unknown, by order'),
					'order',
				);
				const atPeach = madeAtPeach(q, phones, orders, since);
				const wrong = [
					...phones
						.filter(
							(phone) =>
								contacts.get(phone) !==
								((atPeach.messages.get(phone) ?? 0) > 0 ? 'made' : 'neverMade'),
						)
						.map((phone) => `${phone}: ${String(contacts.get(phone))}`),
					...orders
						.filter(
							(id) =>
								refunded.get(id) !==
								((atPeach.refunds.get(id) ?? 0) > 0 ? 'refunded' : 'notRefunded'),
						)
						.map((id) => `${id}: ${String(refunded.get(id))}`),
				];
				const neverMade = phones.filter((phone) => contacts.get(phone) === 'neverMade');
				const notRefunded = orders.filter((id) => refunded.get(id) === 'notRefunded');
				log(
					`      killed after ${CONTACTS / 2}+ sends and ${ORDERS / 2}+ refunds; n8n gave up on them ${stalledAfter.map((ms) => Math.round(ms / 1000)).join(' and ')} s after the kills; the example: ${CONTACTS - neverMade.length} contacts made, ${neverMade.length} never made, ${orders.length - notRefunded.length} orders refunded, ${notRefunded.length} not refunded; ${wrong.length} named otherwise than Peach made them`,
				);
				assertEqual(
					wrong,
					[],
					'contacts and orders the example names otherwise than Peach made them',
				);
				assert(neverMade.length > 0 && notRefunded.length > 0, 'the kills left nothing unmade');

				// README's way on: send and refund only what it names never made.
				const rest = [
					{ workflow: send, list: neverMade.map((phone) => ({ phone })) },
					{ workflow: refund, list: notRefunded.map((id) => ({ id })) },
				];
				for (const { workflow, list } of rest) {
					const earlier = new Set(await q.client.executionIds(workflow.workflowId));
					await q.client.callWebhook(workflow.path, { list });
					const done = await q.client.waitForExecution(
						workflow.workflowId,
						(finished) => !earlier.has(String(finished.id)),
						180_000,
					);
					assertEqual(done.status, 'success', 'the run of what was never made');
					await q.client.deactivate(workflow.workflowId);
				}
				const after = madeAtPeach(q, phones, orders, since);
				assertEqual(
					[...after.messages, ...after.refunds].filter(([, count]) => count !== 1),
					[],
					'contacts and orders not made exactly once',
				);
			},
		},
	];
