import type {
	IDataObject,
	IRunExecutionData,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';

import { Peach } from '../../../nodes/Peach/Peach.node';
import { node } from './harness';
import { customDataOf, type WaitingExecution } from './n8nExecutionData';
import { resolveParameters } from './parameters';

/**
 * n8n's waiting webhook, for Send and Wait: a link of a waiting execution opened, with the execution's
 * data as saved (n8nExecutionData.ts), in the context each n8n line makes.
 */

/** The execution as read from the database when a link is opened: a copy of what was saved. */
function reloaded(execution: WaitingExecution): WaitingExecution {
	return { ...execution, data: JSON.parse(JSON.stringify(execution.data)) as IRunExecutionData };
}

/**
 * A form body as n8n 2.40 parses it (middlewares/body-parser: Node's `querystring.parse`): names and
 * values decoded (`+` a space), a name posted more than once a list, in order.
 */
function parsedForm(encoded: string): IDataObject {
	const body: Record<string, string | string[]> = {};
	for (const [name, value] of new URLSearchParams(encoded)) {
		const before = body[name];
		body[name] =
			before === undefined ? value : [...(Array.isArray(before) ? before : [before]), value];
	}
	return body;
}

/** What the answer page sent back. */
export interface SentPage {
	status?: number;
	headers: Record<string, string>;
	body?: string;
}

/**
 * Opens a link of the waiting execution as n8n does (after its own checks): the node's webhook runs
 * with the saved execution's data, in the context each n8n line makes. Returns what the node
 * answered, the page it sent, and the execution's data as the webhook left it.
 */
export async function openLink(input: {
	execution: WaitingExecution;
	/** The node's parameters (as set in the editor). */
	parameters: Record<string, unknown>;
	method: 'GET' | 'POST';
	/** The link's query (its peachWait and signature). */
	query?: Record<string, string>;
	body?: IDataObject;
	/**
	 * A form as a browser posts it (application/x-www-form-urlencoded, UTF-8, a checkbox's name once
	 * per ticked box), parsed as n8n 2.40 parses it.
	 */
	form?: Array<[string, string]>;
}) {
	const execution = reloaded(input.execution);
	const encoded = input.form ? new URLSearchParams(input.form).toString() : undefined;
	const body = encoded !== undefined ? parsedForm(encoded) : (input.body ?? {});
	const headers: Record<string, string> =
		encoded !== undefined
			? {
					'content-type': 'application/x-www-form-urlencoded',
					'content-length': String(Buffer.byteLength(encoded)),
				}
			: {};
	const params = resolveParameters(new Peach().description, input.parameters);
	const sent: SentPage = { headers: {} };
	const response = {
		status(code: number) {
			sent.status = code;
			return response;
		},
		setHeader(name: string, value: string) {
			sent.headers[name.toLowerCase()] = value;
		},
		send(body: string) {
			sent.body = body;
			return response;
		},
	};
	const lookup = (name: string) =>
		name.split('.').reduce<unknown>((value, part) => (value as IDataObject)?.[part], params);
	const context: Record<string, unknown> = {
		getNode: () => node,
		getRequestObject: () => ({ method: input.method, headers, query: input.query ?? {} }),
		getResponseObject: () => response,
		getQueryData: () => input.query ?? {},
		getBodyData: () => body,
		getNodeParameter: (name: string, fallback?: unknown) => lookup(name) ?? fallback,
	};
	// n8n 2.x: the context's customData; n8n 1.x: none, only the execution's data as the context's
	// runExecutionData field (its expressions there cannot call $execution.customData's functions).
	if (execution.n8nLine === 2) context.customData = customDataOf(execution);
	else context.runExecutionData = execution.data;
	const result = (await new Peach().webhook.call(
		context as unknown as IWebhookFunctions,
	)) as IWebhookResponseData;
	return { result, sent, data: execution.data };
}

/** The query of a link the node made (its peachWait, and n8n's signature). */
export function queryOf(link: string): Record<string, string> {
	return Object.fromEntries(new URL(link).searchParams);
}
