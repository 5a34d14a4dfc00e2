import type { INode, JsonObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { isPlainObject } from '../helpers/json';
import { apiErrorText } from './errorText';
import { codeFixOf, readNetworkFailure } from './failureCodes';
import { markNotSent } from './outcome';
import { type Explanation, explainRefusal } from './refusals';
import type { PeachRequest, PeachResponse } from './types';

export const API_PREFIX = '/api/v1';

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

/**
 * For a request that can deliver a message or move money: what an unclear failure means. Written
 * for people and for AI agents using the node as a tool, which must not simply try again.
 */
export const MAY_HAVE_HAPPENED =
	" It may already have been queued in Peach, so it is never sent again by itself: a Retry of this execution lists it as unknown instead of sending it. Check the contact's conversation (or the order) in the Peach web app.";

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

/** A redirect: never followed, so the API key never goes to another address. */
function explainRedirect(response: PeachResponse, request: PeachRequest): Explanation {
	const { statusCode, headers } = response;
	const location = headerText(headers.location ?? headers.Location);
	return {
		message: `Peach answered with a redirect (${statusCode})${location ? ` to ${originOf(location)}` : ''}, which the node does not follow`,
		description: `${request.delivers ? 'Nothing was sent. ' : ''}Redirects are not followed, so the API key never goes to another address. Set Base URL in the Peach API credential to the address the Peach API answers at (e.g. https://app.trypeach.io), not one that forwards.`,
	};
}

/** A 404: the record the request named (`notFound`), else the path it went to. */
function explainNotFound(request: PeachRequest, text: string): Explanation {
	const apiWords = text && !/^not found$/i.test(text) ? ` (${text})` : '';
	if (request.notFound) {
		return {
			message: `${request.notFound.label} "${request.notFound.id}" was not found in Peach${apiWords}`,
			description: `Check the ${request.notFound.label} ID, or pick it From List to see the ones that exist in this Peach account.`,
		};
	}
	return {
		message: `Not found: ${request.method} ${API_PREFIX}${request.path}${apiWords}`,
		description:
			'Check the IDs used and that Base URL in the credential is your Peach address, without /api/v1.',
	};
}

/** A 429 the node no longer waits for: whether a Retry sends it, and how to slow down. */
function explainRateLimit(
	response: PeachResponse,
	request: PeachRequest,
	text: string,
	rateLimitedForSeconds: number | undefined,
): Explanation {
	const wait = retryAfterSeconds(response.headers);
	const kept =
		rateLimitedForSeconds !== undefined
			? `Peach kept answering 429 for ${rateLimitedForSeconds} s, so the node stopped waiting. `
			: '';
	return {
		message: `Peach is rate-limiting requests (429 Too Many Requests)${text ? `: ${text}` : ''}`,
		description: request.delivers
			? `${kept}Peach refused this request, so it was not queued${wait !== undefined ? `; Peach asks to wait ${wait} s` : ''}. A Retry of this execution sends it. Lower Request Options → Max Concurrent Requests, or spread the items out (e.g. Loop Over Items with a Wait node).`
			: `${kept}${wait !== undefined ? `Peach asks to wait ${wait} s before the next request. ` : ''}Run it again later, or slow it down (e.g. Loop Over Items with a Wait node).`,
	};
}

/** What Peach's answer means, by its status; `text` is the API's own words ('' when it gave none). */
function explainStatus(
	response: PeachResponse,
	request: PeachRequest,
	text: string,
	rateLimitedForSeconds: number | undefined,
): Explanation {
	const { statusCode } = response;
	if (statusCode >= 200 && statusCode < 300) {
		return {
			message: `Peach did not do it: ${text || 'status "failed"'}`,
			description: `Peach answered ${statusCode} with status "failed", so nothing was done. Change the fields named in the message.`,
		};
	}
	if (statusCode >= 300 && statusCode < 400) return explainRedirect(response, request);
	if (statusCode === 404) return explainNotFound(request, text);
	if (statusCode === 429) return explainRateLimit(response, request, text, rateLimitedForSeconds);
	if (statusCode >= 500) {
		return {
			message: `Peach had a server error (${statusCode})${text ? `: ${text}` : ''}`,
			description: request.delivers
				? `This is on Peach's side.${MAY_HAVE_HAPPENED}`
				: "This is on Peach's side; try again later.",
		};
	}
	return explainRefusal(statusCode, request, text);
}

/** Turns a non-2xx Peach answer into the NodeApiError the user sees: the API's text as message, the fix as description. */
export function buildApiError(
	node: INode,
	response: PeachResponse,
	request: PeachRequest,
	rateLimitedForSeconds?: number,
): NodeApiError {
	const { statusCode, body } = response;
	const { message, description } = explainStatus(
		response,
		request,
		apiErrorText(body),
		rateLimitedForSeconds,
	);
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
		// A machine code Peach's trigger errors carry has a fix of its own, whatever the status.
		description: codeFixOf(body) ?? description,
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
	const { code, what, neverSent } = readNetworkFailure(error);
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
