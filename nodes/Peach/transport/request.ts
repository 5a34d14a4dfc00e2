import type {
	IExecuteFunctions,
	IHookFunctions,
	IHttpRequestOptions,
	ILoadOptionsFunctions,
} from 'n8n-workflow';

import { normalizeBaseUrl } from '../../../credentials/PeachMessagingApi.credentials';
import { API_PREFIX, buildApiError, buildNetworkError, retryAfterSeconds } from './errors';
import { credentialsOf, executionState, slowDown, waitForTurn } from './pace';
import type { PeachRequest, PeachResponse } from './types';

export const CREDENTIAL_TYPE = 'peachMessagingApi';

export type PeachContext = IExecuteFunctions | ILoadOptionsFunctions | IHookFunctions;

/** How often a rate-limited read (GET) is tried in all, and the longest wait Peach may ask for between tries. */
export const RATE_LIMIT_ATTEMPTS = 3;
export const RATE_LIMIT_MAX_WAIT_SECONDS = 30;

/**
 * One raw exchange with Peach. The path is relative: the credential's authenticate() adds the
 * normalised Base URL and the key. The credential is decrypted once per execution (credentialsOf),
 * not per request. Resolves with any HTTP status; rejects only when no answer came.
 */
export async function peachHttp(this: PeachContext, request: PeachRequest): Promise<PeachResponse> {
	const options: IHttpRequestOptions = {
		method: request.method,
		url: `${API_PREFIX}${request.path}`,
		json: true,
		headers: { Accept: 'application/json' },
		ignoreHttpStatusErrors: true,
		returnFullResponse: true,
		timeout: executionState(this).timeoutMs,
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
		{
			credentialsDecrypted: await credentialsOf(this, CREDENTIAL_TYPE),
		},
	)) as {
		statusCode?: number;
		body?: unknown;
		headers?: Record<string, unknown>;
	};
	return { statusCode: Number(raw.statusCode ?? 200), body: raw.body, headers: raw.headers ?? {} };
}

/** The Base URL, for messages only: read from the credential on the failure path. */
export async function baseUrlForMessages(context: PeachContext): Promise<string> {
	try {
		return normalizeBaseUrl((await credentialsOf(context, CREDENTIAL_TYPE)).data?.baseUrl);
	} catch {
		return 'the Base URL of the Peach API credential';
	}
}

/**
 * A request to Peach. Returns the parsed body of a 2xx answer; throws a NodeApiError otherwise.
 * A rate-limited GET is tried again after Retry-After; nothing else is ever repeated, so a send
 * (POST /events) is made exactly once. Any 429 also pauses the execution's other requests for
 * Retry-After, so concurrent items slow down together. Every request has the execution's timeout.
 */
export async function peachApiRequest(this: PeachContext, request: PeachRequest): Promise<unknown> {
	const retries = request.method === 'GET' && !request.delivers ? RATE_LIMIT_ATTEMPTS : 1;
	for (let attempt = 1; ; attempt++) {
		await waitForTurn(this);
		let response: PeachResponse;
		try {
			response = await peachHttp.call(this, request);
		} catch (error) {
			throw buildNetworkError(this.getNode(), error, await baseUrlForMessages(this), request);
		}
		if (response.statusCode >= 200 && response.statusCode < 300) {
			return response.body === '' || response.body === undefined ? {} : response.body;
		}
		if (response.statusCode === 429) {
			const wait = Math.min(
				retryAfterSeconds(response.headers) ?? attempt,
				RATE_LIMIT_MAX_WAIT_SECONDS,
			);
			slowDown(this, wait);
			if (attempt < retries) continue;
		}
		throw buildApiError(this.getNode(), response, request);
	}
}
