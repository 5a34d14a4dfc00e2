/**
 * What every real-n8n check shares: the context (n8n, its client, the sandbox, the credential), the
 * check type, assertions, and a Webhook → Peach workflow runner. Checks live in checks/<resource>.e2e.mts.
 */
import type { Sandbox } from '../sandbox/server.mts';
import {
	chain,
	type Json,
	type N8nClient,
	type N8nInstance,
	peachNode,
	webhookNode,
} from './n8n.mts';

export const SANDBOX_KEY = 'e2e-sandbox-key';

export interface Context {
	n8n: N8nInstance;
	client: N8nClient;
	sandbox: Sandbox;
	credential: { id: string; name: string };
	/** Kills n8n (kill -9) and starts it again on the same port and folder (last checks only). */
	crashAndRestart(): Promise<void>;
}

export type Check = { name: string; fn: (ctx: Context) => Promise<void> };

export function assert(condition: unknown, message: string): asserts condition {
	if (!condition) throw new Error(message);
}

export function assertEqual(actual: unknown, expected: unknown, what: string) {
	const a = JSON.stringify(actual);
	const e = JSON.stringify(expected);
	if (a !== e) throw new Error(`${what}: expected ${e}, got ${a}`);
}

/** Runs `tasks` with at most `concurrency` at a time; results in task order. */
export async function pool<T>(concurrency: number, tasks: Array<() => Promise<T>>): Promise<T[]> {
	const results: T[] = new Array(tasks.length);
	let next = 0;
	await Promise.all(
		Array.from({ length: concurrency }, async () => {
			while (next < tasks.length) {
				const index = next++;
				results[index] = await tasks[index]();
			}
		}),
	);
	return results;
}

/**
 * POSTs a delivery to a webhook and reads the answer; a request that gets none (refused, reset, no answer in
 * a minute) is status 0 with the error's text, so a caller counts it instead of stopping.
 */
export async function postDelivery(
	url: string,
	body: string,
	headers: Record<string, string> = { 'Content-Type': 'application/json' },
): Promise<{ status: number; text: string }> {
	try {
		const response = await fetch(url, {
			method: 'POST',
			headers,
			body,
			signal: AbortSignal.timeout(60_000),
		});
		return { status: response.status, text: await response.text() };
	} catch (error) {
		return { status: 0, text: (error as Error).message };
	}
}

/** Creates, publishes and calls a Webhook → Peach workflow; returns the newest execution and the sandbox requests it caused. */
export async function runPeachWorkflow(
	ctx: Context,
	path: string,
	parameters: Json,
	input: Json = {},
	options: { typeVersion?: number; before?: Json } = {},
) {
	const nodes = [
		webhookNode(path),
		peachNode(parameters, ctx.credential, 'Peach', options.typeVersion),
	];
	if (options.before) nodes.splice(1, 0, options.before);
	const workflowId = await ctx.client.createWorkflow({
		name: `e2e ${path}`,
		nodes,
		connections: options.before
			? chain('Webhook', String(options.before.name), 'Peach')
			: chain('Webhook', 'Peach'),
	});
	await ctx.client.activate(workflowId);
	const before = ctx.sandbox.state.requests.length;
	const response = await ctx.client.callWebhook(path, input);
	const [execution] = await ctx.client.waitForExecutions(workflowId, 1);
	await ctx.client.deactivate(workflowId);
	const all = ctx.sandbox.state.requests.slice(before);
	// The template reads a send makes first (once per execution, or none when the n8n process kept
	// the template from an earlier one within a minute) are listed apart, so that a check of what an
	// operation asks lists its own requests (WhatsApp Template's reads are its own).
	const apart = (request: { method: string; path: string }) =>
		parameters.resource !== 'whatsAppTemplate' && isTemplateRead(request);
	return {
		response,
		execution,
		requests: all.filter((request) => !apart(request)),
		templateReads: all.filter(apart).map((request) => request.path.split('/').pop()),
		workflowId,
	};
}

/** `GET /api/v1/whats_app_templates/{id}`. */
export function isTemplateRead(request: { method: string; path: string }): boolean {
	return request.method === 'GET' && /^\/api\/v1\/whats_app_templates\/[^/]+$/.test(request.path);
}
