import { returnJsonArray } from 'n8n-core';
import type { IDataObject, IWebhookFunctions } from 'n8n-workflow';

import { PeachTrigger } from '../../../nodes/PeachTrigger/PeachTrigger.node';
import { lookup, resolveParameters } from '../support/parameters';

/** Calls the Peach Trigger's webhook() as n8n does, recording what it answered. */
export interface Call {
	/**
	 * What the user set, on top of what most of these tests need (every event, no verification,
	 * no duplicate check); the node gets them as n8n resolves them, with the description's defaults.
	 */
	parameters?: Record<string, unknown>;
	/** The Peach Webhook Secret credential's secret, when the node has one chosen. */
	credentialSecret?: string;
	/** That credential's ID (n8n's, in the node's `credentials`). */
	credentialId?: string;
	body: unknown;
	raw?: string;
	query?: Record<string, unknown>;
	headers?: Record<string, string>;
	/** The trigger node's static data, kept by n8n per workflow (Ignore Duplicates records in it). */
	staticData?: IDataObject;
	/** The workflow the trigger is in; Ignore Duplicates remembers per workflow and node. */
	workflowId?: string;
	/** `manual` for a test delivery ("Listen for test event"). */
	mode?: string;
}

export async function call({
	parameters = {},
	body,
	raw,
	query = {},
	headers = {},
	credentialSecret,
	credentialId = '1',
	staticData = {},
	workflowId = 'wf-default',
	mode = 'webhook',
}: Call) {
	const params = resolveParameters(new PeachTrigger().description, {
		events: ['*'],
		verification: 'none',
		ignoreDuplicates: false,
		...parameters,
	});
	const sent: { status?: number; body?: unknown } = {};
	let credentialReads = 0;
	const response = {
		status(code: number) {
			sent.status = code;
			return response;
		},
		json(payload: unknown) {
			sent.body = payload;
			return response;
		},
	};
	const context = {
		getMode: () => mode,
		getWorkflow: () => ({ id: workflowId, name: 'Workflow', active: true }),
		getWorkflowStaticData: (type: string) => {
			if (type !== 'node') throw new Error(`static data of type ${type} is not used`);
			return staticData;
		},
		getNode: () => ({
			id: 'trigger-node-1',
			name: 'Peach Trigger',
			credentials:
				credentialSecret === undefined
					? undefined
					: { peachWebhookApi: { id: credentialId, name: 'secret' } },
		}),
		getCredentials: async (type: string) => {
			credentialReads++;
			// As n8n does when the node has no credential of that type chosen.
			if (credentialSecret === undefined)
				throw new Error(`Node does not have any credentials set for "${type}"`);
			return { secret: credentialSecret };
		},
		getNodeParameter: (name: string, fallback?: unknown) => lookup(params, name) ?? fallback,
		getRequestObject: () => ({
			rawBody: raw === undefined ? Buffer.from(JSON.stringify(body)) : Buffer.from(raw),
			originalUrl: `/${mode === 'manual' ? 'webhook-test' : 'webhook'}/trigger-webhook-1/webhook?a=1`,
		}),
		getResponseObject: () => response,
		// As n8n 2.40's webhook context: the Production URL, also while the editor listens.
		getNodeWebhookUrl: (name: string) =>
			name === 'default' ? 'http://localhost:5678/webhook/trigger-webhook-1/webhook' : undefined,
		getBodyData: () => body,
		getQueryData: () => query,
		getHeaderData: () => headers,
		helpers: { returnJsonArray },
	} as unknown as IWebhookFunctions;
	const result = await new PeachTrigger().webhook.call(context);
	return { result, sent, credentialReads };
}
