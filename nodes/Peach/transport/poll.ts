import { sleep } from 'n8n-workflow';

import { inTurns } from '../helpers/turns';
import { peachApiRequest } from './request';
import { requestOptionsOf } from './requestOptions';
import type { PeachContext, PeachRequest } from './types';

export interface FollowOptions {
	/** Whether an answer is final (e.g. a delivered message). */
	done(body: unknown): boolean;
	/** One time limit for all of them. */
	timeoutMs: number;
}

/** What following one read found: its last answer, whether it is final, or why it could not be read. */
export interface Followed {
	body: unknown;
	done: boolean;
	polls: number;
	/** When its last read ended, in ms since the following began. */
	lastReadMs: number;
	error?: Error;
}

const FIRST_PAUSE_MS = 1000;
const LONGEST_PAUSE_MS = 10_000;

/**
 * Reads every request (GETs only: a send is never repeated) again and again until each answer is
 * final, in one loop bounded by one time limit: a round reads the unfinished ones (Max Concurrent
 * Requests at a time), then pauses, the pause doubling from 1 s to 10 s. Every read goes through the
 * one request path, so a 429 pauses the whole execution for Retry-After. A read that fails is not
 * read again and keeps its error; the others go on.
 */
export async function followUntil(
	this: PeachContext,
	requests: PeachRequest[],
	options: FollowOptions,
): Promise<{ results: Followed[]; waitedMs: number }> {
	if (requests.some((request) => request.method !== 'GET' || request.delivers)) {
		throw new TypeError('Only reads are followed');
	}
	const started = Date.now();
	const results: Followed[] = requests.map(() => ({
		body: undefined,
		done: false,
		polls: 0,
		lastReadMs: 0,
	}));
	const concurrency = requestOptionsOf(this).concurrency;
	let pause = FIRST_PAUSE_MS;
	for (;;) {
		const open = results.flatMap((result, index) => (result.done || result.error ? [] : [index]));
		await inTurns(open, concurrency, async (index) => {
			const result = results[index];
			try {
				result.body = await peachApiRequest.call(this, requests[index]);
				result.polls++;
				result.done = options.done(result.body);
			} catch (error) {
				result.error = error as Error;
			}
			result.lastReadMs = Date.now() - started;
		});
		const left = options.timeoutMs - (Date.now() - started);
		if (results.every((result) => result.done || result.error) || left <= 0) {
			return { results, waitedMs: Date.now() - started };
		}
		await sleep(Math.min(pause, left));
		pause = Math.min(pause * 2, LONGEST_PAUSE_MS);
	}
}
