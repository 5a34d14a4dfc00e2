import type {
	IDataObject,
	IExecuteFunctions,
	IHookFunctions,
	IHttpRequestMethods,
	IHttpRequestOptions,
	ILoadOptionsFunctions,
	INode,
	JsonObject,
} from 'n8n-workflow';
import { NodeApiError, sleep } from 'n8n-workflow';

export const CREDENTIAL_TYPE = 'peachMessagingApi';
export const API_PREFIX = '/api/v1';

export type PeachContext = IExecuteFunctions | ILoadOptionsFunctions | IHookFunctions;

export interface PeachRequest {
	method: IHttpRequestMethods;
	/** Path below /api/v1, e.g. `/events` or `/triggers/trig_1`. */
	path: string;
	body?: IDataObject | IDataObject[];
	qs?: IDataObject;
	itemIndex?: number;
	/** Names the entity in a 404, e.g. `{ label: 'Trigger', id: 'trig_1' }`. */
	notFound?: { label: string; id: string };
	/** Whether the request may deliver something when it is repeated (sends). Such requests are never retried. */
	delivers?: boolean;
}

export interface PeachResponse {
	statusCode: number;
	body: unknown;
	headers: Record<string, unknown>;
}

/** How often a rate-limited read (GET) is tried in all, and the longest wait Peach may ask for between tries. */
export const RATE_LIMIT_ATTEMPTS = 3;
export const RATE_LIMIT_MAX_WAIT_SECONDS = 30;

async function baseUrlOf(context: PeachContext): Promise<string> {
	const credentials = await context.getCredentials(CREDENTIAL_TYPE);
	return normalizeBaseUrl(credentials.baseUrl);
}

/** `https://app.trypeach.io/` and `https://app.trypeach.io/api/v1` both become `https://app.trypeach.io`. */
export function normalizeBaseUrl(value: unknown): string {
	const text =
		typeof value === 'string' && value.trim() !== '' ? value.trim() : 'https://app.trypeach.io';
	return text.replace(/\/+$/, '').replace(/\/api\/v1$/, '');
}

function isObject(value: unknown): value is IDataObject {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `reason` of a 422 (`{"template_message": {"whats_app_template_id": ["is not approved"]}}`) as "field: message" lines. */
export function flattenReasons(reason: unknown, path = ''): string[] {
	if (typeof reason === 'string') return [path ? `${path}: ${reason}` : reason];
	if (Array.isArray(reason)) {
		if (reason.every((entry) => typeof entry === 'string' || typeof entry === 'number')) {
			return reason.length ? [path ? `${path}: ${reason.join(', ')}` : reason.join(', ')] : [];
		}
		return reason.flatMap((entry) => flattenReasons(entry, path));
	}
	if (isObject(reason)) {
		return Object.entries(reason).flatMap(([key, value]) =>
			flattenReasons(value, path ? `${path}.${key}` : key),
		);
	}
	if (reason === null || reason === undefined) return [];
	return [path ? `${path}: ${String(reason)}` : String(reason)];
}

/** The API's own words from an error body, whatever its shape; '' when there are none. */
export function apiErrorText(body: unknown): string {
	if (typeof body === 'string') {
		const text = body.trim();
		if (text === '' || /^<(!doctype|html)/i.test(text)) return '';
		return text.length > 300 ? `${text.slice(0, 297)}...` : text;
	}
	if (!isObject(body)) return '';
	const parts: string[] = [];
	if (body.reason !== undefined) parts.push(...flattenReasons(body.reason));
	if (body.errors !== undefined) parts.push(...flattenReasons(body.errors));
	if (typeof body.message === 'string' && body.message) parts.push(body.message);
	if (typeof body.error === 'string' && body.error) parts.push(body.error);
	if (isObject(body.error) && typeof body.error.message === 'string')
		parts.push(body.error.message);
	const unique = [...new Set(parts.map((part) => part.trim()).filter(Boolean))];
	let text = unique.join('; ');
	if (typeof body.code === 'string' && body.code && !text.includes(body.code)) {
		text = text ? `${text} (${body.code})` : body.code;
	}
	return text;
}

function retryAfterSeconds(headers: Record<string, unknown>): number | undefined {
	const raw = headers['retry-after'] ?? headers['Retry-After'];
	if (raw === undefined || raw === null || raw === '') return undefined;
	const seconds = Number(raw);
	if (Number.isFinite(seconds)) return Math.max(0, seconds);
	const date = Date.parse(String(raw));
	return Number.isFinite(date) ? Math.max(0, Math.ceil((date - Date.now()) / 1000)) : undefined;
}

/**
 * A NodeApiError that keeps our message. NodeApiError replaces a message that mentions a network
 * code (ECONNREFUSED...) or has an HTTP status with canned text; the user should read Peach's words.
 */
function peachError(
	node: INode,
	errorResponse: JsonObject,
	options: { message: string; description: string; httpCode?: string; itemIndex?: number },
): NodeApiError {
	const error = new NodeApiError(node, errorResponse, options);
	error.message = options.message;
	return error;
}

const NETWORK_CODES: Record<string, string> = {
	ECONNREFUSED: 'connection refused',
	ECONNRESET: 'connection closed unexpectedly',
	ECONNABORTED: 'timed out',
	ETIMEDOUT: 'timed out',
	ESOCKETTIMEDOUT: 'timed out',
	ENOTFOUND: 'host not found',
	EAI_AGAIN: 'host name lookup failed',
	EHOSTUNREACH: 'host unreachable',
	ENETUNREACH: 'network unreachable',
	CERT_HAS_EXPIRED: 'TLS certificate expired',
	DEPTH_ZERO_SELF_SIGNED_CERT: 'self-signed TLS certificate',
};

const DUPLICATE_WARNING =
	" The send may or may not have been queued: check the contact's conversation in the Peach web app before sending again, so the contact does not get the message twice.";

/** Turns a non-2xx Peach answer into the NodeApiError the user sees: the API's text as message, the fix as description. */
export function buildApiError(
	node: INode,
	response: PeachResponse,
	request: PeachRequest,
): NodeApiError {
	const { statusCode, body, headers } = response;
	const text = apiErrorText(body);
	let message = text;
	let description: string;
	switch (true) {
		case statusCode === 400:
			message ||= 'Peach could not read the request (400 Bad Request)';
			description = 'Check the values of the fields named in the message.';
			break;
		case statusCode === 401:
			message = `Peach rejected the API key: ${text || 'Unauthorized'}`;
			description =
				'Open the Peach API credential and paste a current key from the Peach web app (Developers → API Keys). The key is sent as the raw Authorization header, without "Bearer". Check that Base URL is your Peach address.';
			break;
		case statusCode === 403:
			message = `Peach refused access: ${text || 'Forbidden'}`;
			description =
				'This API key may not use this endpoint. Use an account API key with access to it.';
			break;
		case statusCode === 404:
			if (request.notFound) {
				message = `${request.notFound.label} "${request.notFound.id}" was not found in Peach${text && !/^not found$/i.test(text) ? ` (${text})` : ''}`;
				description = `Check the ${request.notFound.label} ID, or pick it From List to see the ones that exist in this Peach account.`;
			} else {
				message = `Not found: ${request.method} ${API_PREFIX}${request.path}${text && !/^not found$/i.test(text) ? ` (${text})` : ''}`;
				description =
					'Check the IDs used and that Base URL in the credential is your Peach address, without /api/v1.';
			}
			break;
		case statusCode === 409:
			message ||= 'Conflict (409)';
			description = /event_source_not_connected/.test(text)
				? 'Connect the integration (e.g. Shopify) in the Peach web app first, then run again.'
				: 'The request conflicts with the current state in Peach. Adjust the fields named in the message.';
			break;
		case statusCode === 422:
			message ||= 'Peach rejected the values sent (422 Unprocessable Entity)';
			description =
				'Peach validated the request and refused it. Change the fields named in the message and run again.';
			break;
		case statusCode === 429: {
			const wait = retryAfterSeconds(headers);
			message = `Peach is rate-limiting requests (429 Too Many Requests)${text ? `: ${text}` : ''}`;
			description = `Run again ${wait !== undefined ? `after ${wait} s ` : ''}later, or slow the workflow down (e.g. Loop Over Items with a Wait node).${request.delivers ? ' Peach refused this send, so it was not queued.' : ''}`;
			break;
		}
		case statusCode >= 500:
			message = `Peach had a server error (${statusCode})${text ? `: ${text}` : ''}`;
			description = `This is on Peach's side; try again later.${request.delivers ? DUPLICATE_WARNING : ''}`;
			break;
		default:
			message ||= `Peach answered with HTTP ${statusCode}`;
			description = 'Check the request fields and the Base URL in the credential.';
	}
	const errorResponse: JsonObject = {
		httpCode: String(statusCode),
		message,
		body: (isObject(body) || Array.isArray(body)
			? body
			: typeof body === 'string'
				? body.slice(0, 1000)
				: null) as JsonObject,
	};
	return peachError(node, errorResponse, {
		message,
		description,
		httpCode: String(statusCode),
		itemIndex: request.itemIndex,
	});
}

/** A failure before any HTTP answer (refused, reset, timed out). Only safe fields are copied: never the request config, which holds the key. */
export function buildNetworkError(
	node: INode,
	error: unknown,
	baseUrl: string,
	request: PeachRequest,
): NodeApiError {
	const source = isObject(error) ? error : {};
	const cause = isObject(source.cause) ? source.cause : {};
	const code = [source.code, cause.code].find((value) => typeof value === 'string') as
		| string
		| undefined;
	const rawMessage = [source.message, cause.message].find(
		(value) => typeof value === 'string' && value,
	) as string | undefined;
	const what = (code && NETWORK_CODES[code]) || code || rawMessage || 'no answer';
	const message = `Could not reach Peach at ${baseUrl} (${what})`;
	const description = `${code ? `Network error ${code}. ` : ''}Check Base URL in the Peach API credential and that n8n can reach it.${request.delivers ? DUPLICATE_WARNING : ''}`;
	return peachError(node, { message } as JsonObject, {
		message,
		description,
		itemIndex: request.itemIndex,
	});
}

/** One raw exchange with Peach. Resolves with any HTTP status; rejects only when no answer came. */
export async function peachHttp(
	this: PeachContext,
	request: PeachRequest,
	baseUrl: string,
): Promise<PeachResponse> {
	const options: IHttpRequestOptions = {
		method: request.method,
		url: `${baseUrl}${API_PREFIX}${request.path}`,
		json: true,
		headers: { Accept: 'application/json' },
		ignoreHttpStatusErrors: true,
		returnFullResponse: true,
	};
	if (request.qs && Object.keys(request.qs).length) options.qs = request.qs;
	if (request.body !== undefined) {
		options.body = request.body;
		options.headers = { ...options.headers, 'Content-Type': 'application/json' };
	}
	const raw = (await this.helpers.httpRequestWithAuthentication.call(
		this,
		CREDENTIAL_TYPE,
		options,
	)) as {
		statusCode?: number;
		body?: unknown;
		headers?: Record<string, unknown>;
	};
	return { statusCode: Number(raw.statusCode ?? 200), body: raw.body, headers: raw.headers ?? {} };
}

/**
 * A request to Peach. Returns the parsed body of a 2xx answer; throws a NodeApiError otherwise.
 * A rate-limited GET is tried again after Retry-After; nothing else is ever repeated, so a send
 * (POST /events) is made exactly once.
 */
export async function peachApiRequest(this: PeachContext, request: PeachRequest): Promise<unknown> {
	const baseUrl = await baseUrlOf(this);
	const retries = request.method === 'GET' && !request.delivers ? RATE_LIMIT_ATTEMPTS : 1;
	for (let attempt = 1; ; attempt++) {
		let response: PeachResponse;
		try {
			response = await peachHttp.call(this, request, baseUrl);
		} catch (error) {
			throw buildNetworkError(this.getNode(), error, baseUrl, request);
		}
		if (response.statusCode >= 200 && response.statusCode < 300) {
			return response.body === '' || response.body === undefined ? {} : response.body;
		}
		if (response.statusCode === 429 && attempt < retries) {
			const wait = Math.min(
				retryAfterSeconds(response.headers) ?? attempt,
				RATE_LIMIT_MAX_WAIT_SECONDS,
			);
			await sleep(wait * 1000);
			continue;
		}
		throw buildApiError(this.getNode(), response, request);
	}
}

const COMMON_LIST_KEYS = ['data', 'items', 'results', 'records'];

/** The records of a list answer: a bare array, or the array under `key` (or any one array field). */
export function extractItems(response: unknown, keys: string[] = []): IDataObject[] {
	if (Array.isArray(response)) return response as IDataObject[];
	if (!isObject(response)) return [];
	for (const key of [...keys, ...COMMON_LIST_KEYS]) {
		if (Array.isArray(response[key])) return response[key] as IDataObject[];
	}
	const arrays = Object.values(response).filter(Array.isArray);
	return arrays.length === 1 ? (arrays[0] as IDataObject[]) : [];
}

/** The longest run of pages read for one list; a safety stop for an endpoint that never ends. */
export const MAX_PAGES = 500;

function identity(item: IDataObject | undefined): string {
	if (!item) return '';
	return item.id !== undefined ? String(item.id) : JSON.stringify(item);
}

/**
 * Every record of a paginated list (`page` query parameter), up to `limit`.
 * Follows `next` where the answer has one (`{count, next, prev|previous, <key>: [...]}`), and for a
 * bare array reads pages until one is empty or repeats the previous one (an endpoint that ignores `page`).
 */
export async function peachApiRequestAllItems(
	this: PeachContext,
	request: PeachRequest,
	options: { itemsKey?: string[]; limit?: number } = {},
): Promise<IDataObject[]> {
	const items: IDataObject[] = [];
	let previousFirst: string | undefined;
	for (let page = 1; page <= MAX_PAGES; page++) {
		const response = await peachApiRequest.call(this, { ...request, qs: { ...request.qs, page } });
		const pageItems = extractItems(response, options.itemsKey);
		if (pageItems.length === 0) break;
		const first = identity(pageItems[0]);
		if (page > 1 && first === previousFirst) break;
		previousFirst = first;
		items.push(...pageItems);
		if (options.limit !== undefined && items.length >= options.limit)
			return items.slice(0, options.limit);
		if (isObject(response) && 'next' in response && !response.next) break;
	}
	return items;
}
