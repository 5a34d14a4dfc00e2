/**
 * The example workflows in examples/*.json, the files users import (Workflows → Import from File):
 * `npm run dev` loads exactly these, and the real-n8n suite imports each and runs the runnable ones.
 * Each file says in `meta.peachExample` how it runs: by its webhook, manually, by a Peach Trigger
 * delivery, or not here (it needs a credential the sandbox cannot give, e.g. a chat model).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import { type Json, REPO_ROOT } from '../n8n.mts';

export type ExampleRun =
	| {
			run: 'webhook';
			path: string;
			body: Json;
			/** A Send and Wait example: the person's answer on the sandbox phone, once it waits. */
			answer?: { phone: string; choice?: string; fields?: Record<string, string | string[]> };
	  }
	| { run: 'manual'; expect: { node: string; field?: string; value?: unknown } }
	| { run: 'trigger'; event: string; expect: { node: string; field: string } }
	| { run: 'none'; why: string };

export interface Example {
	file: string;
	/** What n8n's API accepts: name, nodes, connections, settings; credentials are this run's. */
	workflow: { name: string; nodes: Json[]; connections: Json; settings?: Json };
	how: ExampleRun;
}

export const EXAMPLES_FOLDER = join(REPO_ROOT, 'examples');

export interface ExampleCredentials {
	peachMessagingApi: { id: string; name: string };
	peachWebhookApi: { id: string; name: string };
}

/** Where the examples expect the local Peach sandbox: `npm run dev`'s default. */
export const EXAMPLE_SANDBOX_URL = 'http://127.0.0.1:4010';

/**
 * Reads examples/*.json, pointing each node's credentials at the given ones (by type), and a URL of
 * the sandbox (a sample file to download) at `sandboxUrl` when it runs elsewhere.
 */
export function loadExamples(credentials: ExampleCredentials, sandboxUrl?: string): Example[] {
	return readdirSync(EXAMPLES_FOLDER)
		.filter((file) => file.endsWith('.json'))
		.sort()
		.map((file) => {
			const text = readFileSync(join(EXAMPLES_FOLDER, file), 'utf8');
			const parsed = JSON.parse(
				sandboxUrl ? text.replaceAll(EXAMPLE_SANDBOX_URL, sandboxUrl) : text,
			) as Json;
			const nodes = (parsed.nodes as Json[]).map((node) => {
				if (!node.credentials) return node;
				const replaced: Json = {};
				for (const type of Object.keys(node.credentials as Json)) {
					replaced[type] =
						credentials[type as keyof ExampleCredentials] ?? (node.credentials as Json)[type];
				}
				return { ...node, credentials: replaced };
			});
			return {
				file,
				workflow: {
					name: String(parsed.name),
					nodes,
					connections: parsed.connections as Json,
					settings: parsed.settings as Json,
				},
				how: (parsed.meta as Json).peachExample as ExampleRun,
			};
		});
}

/** The webhook id of the example Peach Trigger (fixed in its file, so the sandbox can be pointed at it). */
export function exampleTriggerWebhookId(examples: Example[]): string | undefined {
	for (const example of examples) {
		if (example.how.run !== 'trigger') continue;
		const trigger = example.workflow.nodes.find((node) =>
			String(node.type).endsWith('.peachTrigger'),
		);
		return trigger?.webhookId as string | undefined;
	}
	return undefined;
}
