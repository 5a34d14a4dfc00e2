import { PeachInputError } from '../helpers/inputError';

/**
 * Whether a failed request may have reached Peach: the one rule of "not sent". A request Peach
 * answered with a refusal (a 4xx, its failure envelope, a 429, a redirect) or that never left this
 * machine (no connection, no credential) did not happen; nor did one refused for its input before it
 * was made (a PeachInputError, e.g. an ID that cannot be one path segment). After a server error, a
 * timeout or a connection closed half-way, its outcome is unknown: it may have been carried out. The
 * transport marks the first kind; the delivering run (actions/run/delivering.ts) asks `wasNotSent`.
 */
const notSent = new WeakSet<object>();

/** Marks an error as one after which the request certainly did not happen. */
export function markNotSent<T extends object>(error: T): T {
	notSent.add(error);
	return error;
}

/**
 * Whether the request that failed with this error certainly did not happen: the transport marked it,
 * or it is an input refused before any request.
 */
export function wasNotSent(error: unknown): boolean {
	if (error instanceof PeachInputError) return true;
	return typeof error === 'object' && error !== null && notSent.has(error);
}

/** Errors of reads that stopped because their time limit (a wait's Wait Timeout) was reached. */
const pastDeadline = new WeakSet<object>();

/** Marks an error as the time limit of the read's wait, not a failure of the read. */
export function markPastDeadline<T extends object>(error: T): T {
	pastDeadline.add(error);
	return error;
}

/** Whether a read failed only because its wait's time limit came first (a 429 waited beyond it). */
export function wasPastDeadline(error: unknown): boolean {
	return typeof error === 'object' && error !== null && pastDeadline.has(error);
}
