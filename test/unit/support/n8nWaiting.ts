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
	return fieldsOf(new URLSearchParams(encoded));
}

/** Posted pairs as n8n's parsers give them: a name posted once a value, more than once a list, in order. */
function fieldsOf(pairs: Iterable<[string, string]>): Record<string, string | string[]> {
	const fields: Record<string, string | string[]> = {};
	for (const [name, value] of pairs) {
		const before = fields[name];
		fields[name] =
			before === undefined ? value : [...(Array.isArray(before) ? before : [before]), value];
	}
	return fields;
}

/**
 * A form body as n8n parses multipart/form-data (webhooks/webhook-form-data.ts, 2.40 and 2.41:
 * formidable with `multiples`, then a name posted once a value, more than once a list): `{ data, files }`.
 * The body goes over the wire as a browser encodes it and is read back by the standard parser.
 */
async function parsedMultipart(form: Array<[string, string]>) {
	const posted = new FormData();
	for (const [name, value] of form) posted.append(name, value);
	const wire = new Response(posted);
	const contentType = String(wire.headers.get('content-type'));
	const bytes = await wire.arrayBuffer();
	const parsed = await new Response(bytes, {
		headers: { 'content-type': contentType },
	}).formData();
	const pairs: Array<[string, string]> = [];
	parsed.forEach((value, name) => pairs.push([name, String(value)]));
	const data = fieldsOf(pairs);
	return {
		body: { data, files: {} } as IDataObject,
		headers: { 'content-type': contentType, 'content-length': String(bytes.byteLength) },
	};
}

/** A form as a browser posts it, encoded as the page's form says: multipart for a Custom Form. */
async function postedForm(form: Array<[string, string]>, multipart: boolean) {
	if (multipart) return await parsedMultipart(form);
	const encoded = new URLSearchParams(form).toString();
	return {
		body: parsedForm(encoded),
		headers: {
			'content-type': 'application/x-www-form-urlencoded',
			'content-length': String(Buffer.byteLength(encoded)),
		},
	};
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
	 * A form as a browser posts the page's form (UTF-8, a checkbox's name once per ticked box): encoded
	 * as the page's form says (its enctype, read from the page the link shows), parsed as n8n parses it.
	 */
	form?: Array<[string, string]>;
}): Promise<{ result: IWebhookResponseData; sent: SentPage; data: IRunExecutionData }> {
	const execution = reloaded(input.execution);
	const multipart = input.form ? await pagePostsMultipart(input) : false;
	// n8n 2.41 answers 415 before the node runs to a Custom Form posted other than multipart/form-data
	// (webhook-helpers.js, requiresMultipartFormData).
	if (input.form && input.parameters.responseType === 'customForm' && !multipart)
		throw new Error(
			"n8n 2.41 refuses this answer (415): the page's form does not post multipart/form-data",
		);
	const posted = input.form
		? await postedForm(input.form, multipart)
		: { body: input.body ?? {}, headers: {} };
	const { body } = posted;
	const headers: Record<string, string> = posted.headers;
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

/** Whether the page the link shows posts its form as multipart/form-data (its form's enctype). */
async function pagePostsMultipart(input: Parameters<typeof openLink>[0]): Promise<boolean> {
	const { sent } = await openLink({ ...input, method: 'GET', form: undefined, body: undefined });
	const form = /<form\b[^>]*>/i.exec(String(sent.body))?.[0] ?? '';
	return /\benctype="multipart\/form-data"/i.test(form);
}

/** The query of a link the node made (its peachWait, and n8n's signature). */
export function queryOf(link: string): Record<string, string> {
	return Object.fromEntries(new URL(link).searchParams);
}
