import type { INode, JsonObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { isPlainObject } from '../helpers/json';
import { markNotSent } from './outcome';
import type { PeachRequest, PeachResponse } from './types';

export const API_PREFIX = '/api/v1';

/** `reason` of a 422 (`{"template_message": {"whats_app_template_id": ["is not approved"]}}`) as "field: message" lines. */
export function flattenReasons(reason: unknown, path = ''): string[] {
	if (typeof reason === 'string') return [path ? `${path}: ${reason}` : reason];
	if (Array.isArray(reason)) {
		if (reason.every((entry) => typeof entry === 'string' || typeof entry === 'number')) {
			return reason.length ? [path ? `${path}: ${reason.join(', ')}` : reason.join(', ')] : [];
		}
		return reason.flatMap((entry) => flattenReasons(entry, path));
	}
	if (isPlainObject(reason)) {
		return Object.entries(reason).flatMap(([key, value]) =>
			flattenReasons(value, path ? `${path}.${key}` : key),
		);
	}
	if (reason === null || reason === undefined) return [];
	return [path ? `${path}: ${String(reason)}` : String(reason)];
}

/**
 * The node's names of the request fields Peach's validation names (`template_message.whats_app_template_id`
 * is the Template field), so a refusal names what the user can change; a field not listed keeps
 * Peach's path.
 */
const NODE_FIELDS: Array<[prefix: string, name: string]> = [
	['template_message.whats_app_template_id', 'Template'],
	['broadcast.whats_app_template_id', 'Template'],
	['flow.whats_app_template_id', 'Fallback Template'],
	['template_message.liquid_values', 'Variables'],
	['broadcast.liquid_values', 'Global Variables'],
	['flow.liquid_values', 'Variables'],
	['contact.phone_number', 'Phone Number'],
	['template_message.business_phone_number', 'Business Phone Number'],
	['template_message.retry_until', 'Retry Until'],
	['broadcast.audience_id', 'Audience ID'],
	['broadcast.scheduled_launch_time', 'Scheduled Launch Time'],
	['ai_agent.id', 'AI Agent ID'],
];

/** A "path: message" line of a 422 in the node's words: `Template: is not approved`. */
function inNodeWords(line: string): string {
	for (const [prefix, name] of NODE_FIELDS) {
		if (line.startsWith(`${prefix}: `)) return `${name}: ${line.slice(prefix.length + 2)}`;
		if (line.startsWith(`${prefix}.`)) {
			const rest = line.slice(prefix.length + 1);
			return `${name} → ${rest}`;
		}
	}
	return line;
}

/** The API's own words from an error body, whatever its shape; '' when there are none. */
export function apiErrorText(body: unknown): string {
	if (typeof body === 'string') {
		const text = body.trim();
		if (text === '' || /^<(!doctype|html)/i.test(text)) return '';
		return text.length > 300 ? `${text.slice(0, 297)}...` : text;
	}
	if (!isPlainObject(body)) return '';
	const parts: string[] = [];
	if (body.reason !== undefined) parts.push(...flattenReasons(body.reason).map(inNodeWords));
	if (body.errors !== undefined) parts.push(...flattenReasons(body.errors));
	if (typeof body.message === 'string' && body.message) parts.push(body.message);
	if (typeof body.error === 'string' && body.error) parts.push(body.error);
	if (isPlainObject(body.error) && typeof body.error.message === 'string')
		parts.push(body.error.message);
	const unique = [...new Set(parts.map((part) => part.trim()).filter(Boolean))];
	let text = unique.join('; ');
	if (typeof body.code === 'string' && body.code && !text.includes(body.code)) {
		text = text ? `${text} (${body.code})` : body.code;
	}
	return text;
}

function headerText(value: unknown): string {
	if (Array.isArray(value)) return headerText(value[0]);
	return typeof value === 'string' ? value.trim() : '';
}

/** Where a URL points, without its path and query (which may carry tokens). */
export function originOf(url: string): string {
	try {
		return new URL(url).origin;
	} catch {
		return 'another address';
	}
}

/** Seconds from a `Retry-After` header (seconds or an HTTP date); undefined when there is none. */
export function retryAfterSeconds(headers: Record<string, unknown>): number | undefined {
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
	SELF_SIGNED_CERT_IN_CHAIN: 'self-signed TLS certificate',
	UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'TLS certificate not trusted',
	ERR_TLS_CERT_ALTNAME_INVALID: 'TLS certificate for another host',
};

/**
 * Failures before a request left this machine (no connection was made, or TLS refused the host):
 * the request did not happen. Any other failure (a reset, a timeout) may come after Peach got it.
 */
const NEVER_SENT_CODES = new Set([
	'ECONNREFUSED',
	'ENOTFOUND',
	'EAI_AGAIN',
	'EHOSTUNREACH',
	'ENETUNREACH',
	'CERT_HAS_EXPIRED',
	'DEPTH_ZERO_SELF_SIGNED_CERT',
	'SELF_SIGNED_CERT_IN_CHAIN',
	'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
	'ERR_TLS_CERT_ALTNAME_INVALID',
]);

/**
 * For a request that can deliver a message or move money: what an unclear failure means. Written
 * for people and for AI agents using the node as a tool, which must not simply try again.
 */
export const MAY_HAVE_HAPPENED =
	" It may already have been queued in Peach, so it is never sent again by itself: a Retry of this execution lists it as unknown instead of sending it. Check the contact's conversation (or the order) in the Peach web app.";

/**
 * What to do about the machine codes Peach's trigger errors carry, whatever the HTTP status they
 * come with (409, 404 and 422 in Peach's skill docs).
 */
export const CODE_FIXES: Record<string, string> = {
	event_source_not_connected:
		'Connect the integration (e.g. Shopify or Stripe) in the Peach web app first, then run again.',
	condition_ambiguous:
		'Several integrations have a condition of this name: set Source (e.g. peach_shopify), or pick the condition From List, which sends its exact ID.',
	condition_not_found:
		'No condition of this name exists: pick one From List (the Condition Library), or check the spelling.',
	missing_variables:
		"The condition needs variables you did not give: add them under Variables (the Condition Library lists each condition's variables).",
};

function codeOf(body: unknown): string | undefined {
	if (!isPlainObject(body)) return undefined;
	const code = body.code ?? (isPlainObject(body.error) ? body.error.code : undefined);
	return typeof code === 'string' && Object.prototype.hasOwnProperty.call(CODE_FIXES, code)
		? code
		: undefined;
}

/**
 * Peach's failure envelope, `{"status": "failed", "reason": ...}` (its validation errors), which can
 * also come with a 2xx. An event's own answer (`{"id", "status": "failed", "result"}`) is a record, not
 * this envelope.
 */
export function failureEnvelope(body: unknown): boolean {
	return (
		isPlainObject(body) &&
		body.status === 'failed' &&
		body.reason !== undefined &&
		body.id === undefined &&
		body.result === undefined
	);
}

/** Turns a non-2xx Peach answer into the NodeApiError the user sees: the API's text as message, the fix as description. */
export function buildApiError(
	node: INode,
	response: PeachResponse,
	request: PeachRequest,
	rateLimitedForSeconds?: number,
): NodeApiError {
	const { statusCode, body, headers } = response;
	const text = apiErrorText(body);
	let message = text;
	let description: string;
	switch (true) {
		case statusCode >= 200 && statusCode < 300:
			message = `Peach did not do it: ${text || 'status "failed"'}`;
			description = `Peach answered ${statusCode} with status "failed", so nothing was done. Change the fields named in the message.`;
			break;
		case statusCode >= 300 && statusCode < 400: {
			const location = headerText(headers.location ?? headers.Location);
			message = `Peach answered with a redirect (${statusCode})${location ? ` to ${originOf(location)}` : ''}, which the node does not follow`;
			description = `${request.delivers ? 'Nothing was sent. ' : ''}Redirects are not followed, so the API key never goes to another address. Set Base URL in the Peach API credential to the address the Peach API answers at (e.g. https://app.trypeach.io), not one that forwards.`;
			break;
		}
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
			description =
				'The request conflicts with the current state in Peach. Adjust the fields named in the message.';
			break;
		case statusCode === 422:
			message ||= 'Peach rejected the values sent (422 Unprocessable Entity)';
			description = request.delivers
				? 'Peach validated the request and refused it, so it was not queued. Change the fields named in the message.'
				: 'Peach validated the request and refused it. Change the fields named in the message and run again.';
			break;
		case statusCode === 429: {
			const wait = retryAfterSeconds(headers);
			const kept =
				rateLimitedForSeconds !== undefined
					? `Peach kept answering 429 for ${rateLimitedForSeconds} s, so the node stopped waiting. `
					: '';
			message = `Peach is rate-limiting requests (429 Too Many Requests)${text ? `: ${text}` : ''}`;
			description = request.delivers
				? `${kept}Peach refused this request, so it was not queued${wait !== undefined ? `; Peach asks to wait ${wait} s` : ''}. A Retry of this execution sends it. Lower Request Options → Max Concurrent Requests, or spread the items out (e.g. Loop Over Items with a Wait node).`
				: `${kept}${wait !== undefined ? `Peach asks to wait ${wait} s before the next request. ` : ''}Run it again later, or slow it down (e.g. Loop Over Items with a Wait node).`;
			break;
		}
		case statusCode >= 500:
			message = `Peach had a server error (${statusCode})${text ? `: ${text}` : ''}`;
			description = request.delivers
				? `This is on Peach's side.${MAY_HAVE_HAPPENED}`
				: "This is on Peach's side; try again later.";
			break;
		default:
			message ||= `Peach answered with HTTP ${statusCode}`;
			description = 'Check the request fields and the Base URL in the credential.';
	}
	const code = codeOf(body);
	if (code) description = CODE_FIXES[code];
	const errorResponse: JsonObject = {
		httpCode: String(statusCode),
		message,
		body: (isPlainObject(body) || Array.isArray(body)
			? body
			: typeof body === 'string'
				? body.slice(0, 1000)
				: null) as JsonObject,
	};
	const error = peachError(node, errorResponse, {
		message,
		description,
		httpCode: String(statusCode),
		itemIndex: request.itemIndex,
	});
	// Peach answered: a refusal did not happen; after a server error the outcome is unknown.
	return statusCode < 500 ? markNotSent(error) : error;
}

/** The credential could not be read (missing, or n8n could not decrypt it): nothing was sent. */
export function buildCredentialError(
	node: INode,
	error: unknown,
	request: PeachRequest,
): NodeApiError {
	const reason = isPlainObject(error) && typeof error.message === 'string' ? error.message : '';
	const message = `Could not read the Peach API credential${reason ? ` (${reason})` : ''}`;
	return markNotSent(
		peachError(node, { message } as JsonObject, {
			message,
			description:
				'Nothing was sent to Peach. Choose a Peach API credential in the node, or open it and save it again (its key may not be readable by this n8n, e.g. after N8N_ENCRYPTION_KEY changed).',
			itemIndex: request.itemIndex,
		}),
	);
}

/** A failure before any HTTP answer (refused, reset, timed out). Only safe fields are copied: never the request config, which holds the key. */
export function buildNetworkError(
	node: INode,
	error: unknown,
	baseUrl: string,
	request: PeachRequest,
): NodeApiError {
	const source = isPlainObject(error) ? error : {};
	const cause = isPlainObject(source.cause) ? source.cause : {};
	// n8n 1.x hands over its own NodeApiError: the code is gone, its message is advice of its own
	// ("You can retry the request immediately"), and the original text ("read ECONNRESET") is in messages.
	const originalTexts = (Array.isArray(source.messages) ? source.messages : []).filter(
		(text): text is string => typeof text === 'string',
	);
	const code = ([source.code, cause.code].find((value) => typeof value === 'string') ??
		originalTexts
			.map(
				(text) =>
					Object.keys(NETWORK_CODES).find((known) => text.includes(known)) ??
					(text.includes('socket hang up') ? 'ECONNRESET' : undefined),
			)
			.find(Boolean)) as string | undefined;
	const rawMessage = [originalTexts[0], source.message, cause.message].find(
		(value) => typeof value === 'string' && value,
	) as string | undefined;
	const what = (code && NETWORK_CODES[code]) || code || rawMessage || 'no answer';
	const neverSent = code !== undefined && NEVER_SENT_CODES.has(code);
	const message = `Could not reach Peach at ${baseUrl} (${what})`;
	const description = `${code ? `Network error ${code}. ` : ''}Check Base URL in the Peach API credential and that n8n can reach it.${
		request.delivers
			? neverSent
				? ' Nothing was sent: no connection was made.'
				: MAY_HAVE_HAPPENED
			: ''
	}`;
	const failure = peachError(node, { message } as JsonObject, {
		message,
		description,
		itemIndex: request.itemIndex,
	});
	return neverSent ? markNotSent(failure) : failure;
}
