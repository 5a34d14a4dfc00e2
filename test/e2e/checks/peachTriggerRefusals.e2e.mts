/**
 * Peach Trigger → Options → Report Refused Deliveries in a real n8n, read from n8n's executions: a
 * flood of refused deliveries starts at most one execution per reason a minute, each answered as
 * before; without the option, none.
 */
import { randomUUID } from 'node:crypto';

import { type Json, nodeOutputs } from '../n8n.mts';
import { assert, assertEqual, type Check, type Context, pool, postDelivery } from '../suite.mts';
import { publishTrigger, TRIGGER } from './triggerSupport.mts';

const FLOOD = 20;

const failed = (id: string) =>
	JSON.stringify({
		type: 'message_delivery.failed',
		data: { message: { id, status: 'failed', type: 'template_message' }, contact: {} },
	});

/** Posts every refused kind FLOOD times (10 at once) and one accepted delivery; returns the answers. */
async function flood(url: string, secret: string) {
	const withToken = `${url}?token=${secret}`;
	const accepted = await postDelivery(withToken, failed('cmsg_refusals_1'));
	const kinds: Array<[string, string, string]> = [
		['wrongSecret', `${url}?token=wrong-${randomUUID()}`, failed('cmsg_w')],
		['missingSecret', url, failed('cmsg_m')],
		['notPeachBody', withToken, '[1, 2]'],
		['eventNotSelected', withToken, JSON.stringify({ type: 'order.completed', data: {} })],
		['duplicate', withToken, failed('cmsg_refusals_1')],
	];
	const answers: Record<string, string[]> = {};
	await pool(
		10,
		kinds.flatMap(([reason, to, body]) =>
			Array.from({ length: FLOOD }, () => async () => {
				const answer = await postDelivery(to, body);
				(answers[reason] ??= []).push(`${answer.status} ${answer.text}`);
			}),
		),
	);
	return { accepted, answers };
}

/** The executions' Refused items by reason, and how many executions had an Event item. */
async function readExecutions(ctx: Context, workflowId: string) {
	const executions = await ctx.client.executions(workflowId);
	const refused: Record<string, Json[]> = {};
	let events = 0;
	for (const execution of executions) {
		events += nodeOutputs(execution, TRIGGER, 0).length;
		for (const item of nodeOutputs(execution, TRIGGER, 1))
			(refused[String(item.reason)] ??= []).push(item);
	}
	return { executions: executions.length, events, refused };
}

const EXPECTED_ANSWERS: Record<string, string> = {
	wrongSecret: '401 {"message":"Unauthorized"}',
	missingSecret: '401 {"message":"Unauthorized"}',
	notPeachBody:
		'400 {"message":"The body is an array; expected {\\"type\\": \\"...\\", \\"data\\": {...}}."}',
	eventNotSelected: '200 {"received":true,"ignored":"event order.completed is not selected"}',
	duplicate:
		'200 {"received":true,"ignored":"duplicate: the same event, ID and status was received before"}',
};

export const peachTriggerRefusalChecks: Check[] = [
	{
		name: 'trigger refusals: with Report Refused Deliveries, a flood starts one execution per reason a minute, answered as before; off, none',
		fn: async (ctx) => {
			const secret = randomUUID();
			const parameters = { events: ['message_delivery.failed'], ignoreDuplicates: true };
			const on = await publishTrigger(
				ctx,
				{
					...parameters,
					options: { reportRefused: ['secret', 'body', 'event', 'messageType', 'duplicate'] },
				},
				{ secret },
			);
			const off = await publishTrigger(ctx, parameters, { secret });
			const started = Date.now();
			for (const trigger of [on, off]) {
				const { accepted, answers } = await flood(trigger.url, secret);
				assertEqual(accepted, { status: 200, text: '{"received":true}' }, 'accepted delivery');
				for (const [reason, expected] of Object.entries(EXPECTED_ANSWERS))
					assertEqual(answers[reason], Array(FLOOD).fill(expected), `${reason} answers`);
			}
			await new Promise((resolve) => setTimeout(resolve, 3000));
			assert(Date.now() - started < 60_000, 'the flood took a minute or more: not one minute');
			const seen = await readExecutions(ctx, on.workflowId);
			assertEqual(seen.executions, 1 + 5, 'executions with the option: 1 accepted + 1 per reason');
			assertEqual(seen.events, 1, 'Event items with the option');
			for (const reason of Object.keys(EXPECTED_ANSWERS)) {
				assertEqual(seen.refused[reason]?.length, 1, `${reason} reports`);
				assertEqual(seen.refused[reason][0].count, 1, `${reason}: the first is reported`);
				assert(
					!JSON.stringify(seen.refused[reason]).includes(secret),
					`${reason} shows the secret`,
				);
			}
			const none = await readExecutions(ctx, off.workflowId);
			assertEqual([none.executions, none.events], [1, 1], 'executions without the option');

			// A minute after the first report, the next refusal reports the ones counted meanwhile.
			const reportedAt = Date.parse(String(seen.refused.wrongSecret[0].receivedAt));
			await new Promise((resolve) =>
				setTimeout(resolve, Math.max(0, reportedAt + 61_000 - Date.now())),
			);
			const late = await postDelivery(`${on.url}?token=late`, failed('cmsg_late'));
			assertEqual(late.status, 401, 'late refusal answer');
			const after = await ctx.client.waitForExecutions(on.workflowId, 7, 30_000);
			const counts = after.flatMap((execution) =>
				nodeOutputs(execution, TRIGGER, 1)
					.filter((item) => item.reason === 'wrongSecret')
					.map((item) => item.count),
			);
			assertEqual(
				counts,
				[FLOOD, 1],
				'wrongSecret reports, newest first: the count, then the first',
			);
			await ctx.client.deactivate(on.workflowId);
			await ctx.client.deactivate(off.workflowId);
		},
	},
];
