import type { IDataObject, IExecuteFunctions, IHttpRequestOptions } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import { normalizeBaseUrl } from '../../../credentials/PeachMessagingApi.credentials';
import { answerOf } from '../helpers/payload';
import { credentialsOf, CREDENTIAL_TYPE } from './credentials';
import {
	API_PREFIX,
	buildApiError,
	buildCredentialError,
	buildNetworkError,
	failureEnvelope,
	retryAfterSeconds,
} from './errors';
import { markPastDeadline } from './outcome';
import type { ApiPath } from './path';
import { requestOptionsOf } from './requestOptions';
import { type Width, widthOf } from './width';
import type { PeachContext, PeachRequest, PeachResponse } from './types';

/**
 * A 429 means Peach did not take the request, so it is sent again after Peach's Retry-After (or 1,
 * 2, 4 … s without one), each wait at most RATE_LIMIT_MAX_WAIT_SECONDS, for up to
 * RATE_LIMIT_BUDGET_SECONDS from its first 429 (its waits, and its turns for a place within the
 * width) and RATE_LIMIT_MAX_TRIES tries in all; then it fails as not sent.
 */
export const RATE_LIMIT_MAX_WAIT_SECONDS = 60;
export const RATE_LIMIT_BUDGET_SECONDS = 300;
export const RATE_LIMIT_MAX_TRIES = 50;

/**
 * One raw exchange with Peach. The path is relative: the credential's authenticate() adds the
 * normalised Base URL and the key. The credential is read once per execution, before anything is
 * sent: a credential that cannot be read is an error that says nothing was sent. The body goes as
 * JSON text, so every key the user gave reaches Peach (n8n copies request objects without keys such
 * as `constructor`). Resolves with any HTTP status; rejects only when no answer came.
 */
export async function peachHttp(this: PeachContext, request: PeachRequest): Promise<PeachResponse> {
	let credentialsDecrypted;
	try {
		credentialsDecrypted = await credentialsOf(this);
	} catch (error) {
		throw buildCredentialError(this.getNode(), error, request);
	}
	const options: IHttpRequestOptions = {
		method: request.method,
		url: `${API_PREFIX}${request.path}`,
		json: true,
		headers: { Accept: 'application/json' },
		ignoreHttpStatusErrors: true,
		returnFullResponse: true,
		// A redirect is never followed: n8n would carry the key (and a POST's meaning) to wherever it
		// points. It is an error that says so (errors.ts).
		disableFollowRedirect: true,
		timeout: Math.max(
			1,
			Math.min(
				requestOptionsOf(this).timeoutMs,
				request.deadline === undefined
					? Infinity
					: Math.floor(request.deadline - performance.now()),
			),
		),
	};
	if (request.qs && Object.keys(request.qs).length) options.qs = request.qs;
	if (request.body !== undefined) {
		options.body = JSON.stringify(request.body);
		options.headers = { ...options.headers, 'Content-Type': 'application/json' };
	}
	let raw: { statusCode?: number; body?: unknown; headers?: Record<string, unknown> };
	try {
		raw = await this.helpers.httpRequestWithAuthentication.call(this, CREDENTIAL_TYPE, options, {
			credentialsDecrypted,
		});
	} catch (error) {
		throw buildNetworkError(
			this.getNode(),
			error,
			normalizeBaseUrl(credentialsDecrypted.data?.baseUrl),
			request,
		);
	}
	return { statusCode: Number(raw.statusCode ?? 200), body: raw.body, headers: raw.headers ?? {} };
}

/** One exchange; its answer (a 429, a slow one, a fast one) adjusts the execution's width. */
async function timedExchange(
	context: PeachContext,
	width: Width,
	request: PeachRequest,
): Promise<PeachResponse> {
	const began = performance.now();
	let statusCode: number | undefined;
	try {
		const response = await peachHttp.call(context, request);
		statusCode = response.statusCode;
		return response;
	} finally {
		width.answered(performance.now() - began, statusCode === 429);
	}
}

/**
 * A request to Peach. Returns the parsed body of a 2xx answer; throws a NodeApiError otherwise, also
 * for a 2xx that carries Peach's failure envelope (`{"status": "failed", "reason": ...}`). A 429 is
 * waited out (Retry-After) and the request sent again, since Peach did not take it, within the bounds
 * above; it also narrows the execution's width. Each try holds a place within that width (width.ts)
 * for its exchange and, after a 429, for its Retry-After: so while Peach refuses, a width of N makes
 * at most N tries per Retry-After, those sent again included. Nothing else is ever repeated, so a
 * delivering request that may have reached Peach is made exactly once. Every request has the
 * execution's timeout.
 */
export async function peachApiRequest(this: PeachContext, request: PeachRequest): Promise<unknown> {
	const width = widthOf(this);
	/** The seconds waited after 429s, and when the first came (waiting for a place counts too). */
	let waited = 0;
	let firstRefusedAt: number | undefined;
	for (let attempt = 1; ; attempt++) {
		await width.place();
		let wait: number;
		try {
			const response = await timedExchange(this, width, request);
			if (response.statusCode >= 200 && response.statusCode < 300) {
				if (failureEnvelope(response.body)) throw buildApiError(this.getNode(), response, request);
				return response.body === '' || response.body === undefined ? {} : response.body;
			}
			if (response.statusCode !== 429) throw buildApiError(this.getNode(), response, request);
			const now = performance.now();
			firstRefusedAt ??= now;
			const refusedFor = Math.max(waited, Math.round((now - firstRefusedAt) / 1000));
			wait = Math.min(
				retryAfterSeconds(response.headers) ?? 2 ** Math.min(attempt - 1, 6),
				RATE_LIMIT_MAX_WAIT_SECONDS,
			);
			const pastDeadline = request.deadline !== undefined && now + wait * 1000 >= request.deadline;
			if (pastDeadline)
				throw markPastDeadline(buildApiError(this.getNode(), response, request, refusedFor));
			if (refusedFor + wait > RATE_LIMIT_BUDGET_SECONDS || attempt >= RATE_LIMIT_MAX_TRIES) {
				throw buildApiError(this.getNode(), response, request, refusedFor);
			}
			await sleep(wait * 1000);
		} finally {
			width.release();
		}
		waited += wait;
	}
}

/** The POST a delivering operation makes for one checked plan. */
export interface DeliveryRequest {
	path: ApiPath;
	body: IDataObject;
	notFound?: PeachRequest['notFound'];
}

/**
 * A delivering operation's `deliver`: the one POST that sends, launches, orders or refunds, made
 * once under the delivering run's permit; Peach's answer is the output object.
 */
export function postDelivery<Plan>(requestOf: (plan: Plan) => DeliveryRequest) {
	async function deliver(
		this: IExecuteFunctions,
		plan: Plan,
		itemIndex: number,
		permit: NonNullable<PeachRequest['delivers']>,
	): Promise<IDataObject> {
		return answerOf(
			await peachApiRequest.call(this, {
				method: 'POST',
				...requestOf(plan),
				itemIndex,
				delivers: permit,
			}),
		);
	}
	/** Dry Run: the request `deliver` would make for `plan`, as it would go (method, path, body). */
	function wouldSend(plan: Plan): { method: 'POST'; path: string; body: IDataObject } {
		const { path, body } = requestOf(plan);
		return { method: 'POST', path: `${API_PREFIX}${path}`, body };
	}
	return Object.assign(deliver, { wouldSend });
}
