import { sleep } from 'n8n-workflow';

import { buildApiError, buildNetworkError, retryAfterSeconds } from './errors';
import { baseUrlForMessages, type PeachContext, peachHttp } from './request';
import type { PeachRequest, PeachResponse } from './types';

export interface PollOptions {
	/** Whether an answer is final (e.g. a delivered message). */
	done(body: unknown): boolean;
	timeoutMs: number;
	/** First pause between polls; it doubles up to maxIntervalMs. */
	intervalMs?: number;
	maxIntervalMs?: number;
	/** Clock and pause, replaceable in tests. */
	now?: () => number;
	wait?: (ms: number) => Promise<unknown>;
}

export interface PollResult {
	/** The last answer read. */
	body: unknown;
	done: boolean;
	polls: number;
	waitedMs: number;
}

/**
 * Polls a GET until `done` or the timeout, politely: the pause doubles after each poll, and a 429
 * waits for the Retry-After Peach sends (it is not an error here). Only reads are polled, never a
 * send. Any other failure is the usual NodeApiError.
 */
export async function pollUntil(
	this: PeachContext,
	request: PeachRequest,
	options: PollOptions,
): Promise<PollResult> {
	if (request.method !== 'GET') throw new Error('Only reads are polled');
	const now = options.now ?? Date.now;
	const wait = options.wait ?? sleep;
	const started = now();
	let interval = options.intervalMs ?? 1000;
	let polls = 0;
	let body: unknown;
	for (;;) {
		let response: PeachResponse;
		try {
			response = await peachHttp.call(this, request);
		} catch (error) {
			throw buildNetworkError(this.getNode(), error, await baseUrlForMessages(this), request);
		}
		polls++;
		let pause = interval;
		if (response.statusCode === 429) {
			pause = Math.max(interval, (retryAfterSeconds(response.headers) ?? interval / 1000) * 1000);
		} else if (response.statusCode >= 200 && response.statusCode < 300) {
			body = response.body;
			if (options.done(body)) return { body, done: true, polls, waitedMs: now() - started };
			interval = Math.min(interval * 2, options.maxIntervalMs ?? 10_000);
		} else {
			throw buildApiError(this.getNode(), response, request);
		}
		const left = options.timeoutMs - (now() - started);
		if (left <= 0) return { body, done: false, polls, waitedMs: now() - started };
		await wait(Math.min(pause, left));
	}
}
