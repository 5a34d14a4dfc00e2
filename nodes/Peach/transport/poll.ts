import { sleep } from 'n8n-workflow';

import { wasPastDeadline } from './outcome';
import { peachApiRequest } from './request';
import { concurrently } from './width';
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
	/** Its wait ran out before an answer (a read cut off, or Peach asked to wait beyond the limit). */
	outOfTime?: boolean;
}

const FIRST_PAUSE_MS = 1000;
/** A read that fails this close to the time limit failed because of it. */
const DEADLINE_SLACK_MS = 25;
const LONGEST_PAUSE_MS = 10_000;

/** What every read of one following shares: when it began, its one time limit, the caller's options. */
interface Following {
	started: number;
	deadline: number;
	options: FollowOptions;
}

/** Whether a request is still followed: no final answer, no error, and its wait not run out. */
function stillOpen(result: Followed): boolean {
	return !(result.done || result.error || result.outOfTime);
}

/** One read of a followed request, into its result. */
async function readOnce(
	this: PeachContext,
	following: Following,
	request: PeachRequest,
	result: Followed,
): Promise<void> {
	// No read starts, and none outlives, the one time limit.
	const { deadline } = following;
	if (performance.now() >= deadline) return;
	try {
		result.body = await peachApiRequest.call(this, { ...request, deadline });
		result.polls++;
		result.done = following.options.done(result.body);
	} catch (error) {
		// A read the time limit cut off (its timeout is the time left, or Peach asked to
		// wait beyond it) is the wait timing out, with the last status read: not a failure.
		if (wasPastDeadline(error) || performance.now() >= deadline - DEADLINE_SLACK_MS)
			result.outOfTime = true;
		else result.error = error as Error;
	}
	result.lastReadMs = performance.now() - following.started;
}

/**
 * Reads every request (GETs only: a send is never repeated) again and again until each answer is
 * final, in one loop bounded by one time limit: a round reads the unfinished ones (as many at a
 * time as the execution's width allows), then pauses, the pause doubling from 1 s to 10 s. No read
 * starts after the time limit, and none outlives it (its timeout is the time left): one it cuts off
 * leaves its request timed out, with the last answer read. Every read goes through the one request
 * path (a 429 is waited out, within the time left). A read that fails otherwise is not read again
 * and keeps its error; the others go on.
 */
export async function followUntil(
	this: PeachContext,
	requests: PeachRequest[],
	options: FollowOptions,
): Promise<{ results: Followed[]; waitedMs: number }> {
	if (requests.some((request) => request.method !== 'GET' || request.delivers)) {
		throw new TypeError('Only reads are followed');
	}
	const started = performance.now();
	const following: Following = { started, deadline: started + options.timeoutMs, options };
	const results: Followed[] = requests.map(() => ({
		body: undefined,
		done: false,
		polls: 0,
		lastReadMs: 0,
	}));
	let pause = FIRST_PAUSE_MS;
	for (;;) {
		const open = results.flatMap((result, index) => (stillOpen(result) ? [index] : []));
		await concurrently(
			this,
			open,
			() => undefined,
			async (index) => await readOnce.call(this, following, requests[index], results[index]),
		);
		const left = following.deadline - performance.now();
		if (!results.some(stillOpen) || left <= 0) {
			return { results, waitedMs: performance.now() - started };
		}
		await sleep(Math.min(pause, left));
		pause = Math.min(pause * 2, LONGEST_PAUSE_MS);
	}
}
