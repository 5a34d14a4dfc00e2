/** Publishing a Peach Trigger for the real-n8n checks (peachTrigger.e2e.mts re-exports it). */
import { randomUUID } from 'node:crypto';

import { type Json, PACKAGE_NAME, waitForTriggerWebhook } from '../n8n.mts';
import type { Context } from '../suite.mts';

export const TRIGGER = 'Peach Trigger';

/**
 * Publishes a workflow with only a Peach Trigger; returns its id and production URL once it answers.
 * Without verification unless the parameters choose one; `secret` puts it in a Peach Webhook Secret
 * credential.
 */
export async function publishTrigger(
	ctx: Context,
	parameters: Json,
	options: { secret?: string; credentials?: Json } = {},
) {
	const webhookId = randomUUID();
	let credentials = options.credentials;
	if (options.secret !== undefined) {
		const credential = await ctx.client.createCredential(
			`Peach webhook secret ${webhookId.slice(0, 8)}`,
			'peachWebhookApi',
			{ secret: options.secret },
		);
		credentials = { peachWebhookApi: { id: credential.id, name: credential.name } };
	}
	const workflowId = await ctx.client.createWorkflow({
		name: `e2e trigger ${webhookId.slice(0, 8)}`,
		nodes: [
			{
				id: randomUUID(),
				name: TRIGGER,
				type: `${PACKAGE_NAME}.peachTrigger`,
				typeVersion: 1,
				position: [0, 0],
				webhookId,
				parameters: credentials
					? { events: ['*'], options: {}, ...parameters }
					: { events: ['*'], verification: 'none', options: {}, ...parameters },
				...(credentials ? { credentials } : {}),
			},
		],
		connections: {},
	});
	await ctx.client.activate(workflowId);
	const url = `${ctx.n8n.url}/webhook/${webhookId}/webhook`;
	// Activation returns before the webhook is live; 401 where verification wants a secret.
	await waitForTriggerWebhook(url, { accept: [400, 401] });
	return { workflowId, url };
}
