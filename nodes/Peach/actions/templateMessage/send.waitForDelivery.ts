import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { isPlainObject } from '../../helpers/json';
import { apiPath, segment } from '../../transport/path';
import type { Followed } from '../../transport/poll';
import { followUntil } from '../../transport/poll';
import type { Delivered } from '../operation/node.type';

/**
 * Template Message → Send's Wait for Delivery: after every item was sent, the WhatsApp status of
 * each message, read until it is final or the time runs out.
 */

/** The longest Wait Timeout, in seconds (10 minutes). */
export const MAX_WAIT_SECONDS = 600;

/** Wait Timeout as the wait uses it: from 1 to MAX_WAIT_SECONDS seconds (60 when it is no number). */
export function waitSecondsOf(given: unknown): number {
	const value = Number(given);
	return Math.min(Math.max(Number.isFinite(value) ? value : 60, 1), MAX_WAIT_SECONDS);
}

/** WhatsApp message statuses after which nothing more happens to a delivery. */
const FINAL_MESSAGE_STATUSES = ['delivered', 'read', 'replied', 'failed'];

/** What Wait for Delivery reads of a send's plan: how long to wait (none: the send is not followed). */
interface Waiting {
	waitSeconds?: number;
}

/** The WhatsApp message status in an event's answer (`result.status`), if any. */
function messageStatusOf(event: unknown): string | undefined {
	const result = isPlainObject(event) && isPlainObject(event.result) ? event.result : undefined;
	return typeof result?.status === 'string' ? result.status : undefined;
}

/** Whether an event's answer is final: the message reached a final status, or the event failed. */
function isFinalEvent(event: unknown): boolean {
	const status = messageStatusOf(event);
	return (
		(status !== undefined && FINAL_MESSAGE_STATUSES.includes(status)) ||
		(isPlainObject(event) && event.status === 'failed')
	);
}

const seconds = (ms: number) => Math.round(ms / 100) / 10;

/** The output of a send Peach answered without an event_id: there is nothing to follow. */
function markNotFollowed(json: IDataObject): void {
	json.deliveryStatus = null;
	json.delivery = {
		status: null,
		final: false,
		timedOut: false,
		reason: 'Peach returned no event_id to follow',
	};
}

/**
 * A followed send's `delivery`, from what following its event found (`waitedMs`: how long the
 * whole loop waited). A read that failed is written into `error`: the message was sent. Pure.
 */
function deliveryOf(result: Followed, eventId: string, waitedMs: number): IDataObject {
	const event = isPlainObject(result.body) ? result.body : {};
	const found = isPlainObject(event.result) ? event.result : {};
	return {
		status: messageStatusOf(event) ?? null,
		final: result.done,
		timedOut: !result.done && !result.error,
		waitedSeconds: seconds(result.done || result.error ? result.lastReadMs : waitedMs),
		polls: result.polls,
		failureMessage: (found.failure_message as string | undefined) ?? null,
		eventStatus: (event.status as string | undefined) ?? null,
		...(result.error
			? {
					error: `The message was sent (event_id ${eventId}), but its status could not be read: ${result.error.message}`,
				}
			: {}),
	};
}

/**
 * Send's `follow`: follows all the sent items' event IDs in one loop bounded by one time limit (the
 * longest Wait Timeout of the items), reading only `GET /events/{event_id}`. Each output gets
 * `deliveryStatus` and `delivery`; a read that fails (e.g. Peach's 503) is written into
 * `delivery.error`, and the item keeps its `event_id`: the message was sent.
 */
export async function followDeliveries(
	this: IExecuteFunctions,
	delivered: Array<Delivered<Waiting>>,
): Promise<void> {
	const waiting = delivered.filter((entry) => entry.prepared?.waitSeconds !== undefined);
	const toFollow: Array<Delivered<Waiting>> = [];
	for (const entry of waiting) {
		if (typeof entry.json.event_id === 'string' && entry.json.event_id !== '') toFollow.push(entry);
		else markNotFollowed(entry.json);
	}
	if (toFollow.length === 0) return;
	const { results, waitedMs } = await followUntil.call(
		this,
		toFollow.map(({ itemIndex, json }) => ({
			method: 'GET' as const,
			path: apiPath`/events/${segment('Event ID', String(json.event_id))}`,
			itemIndex,
			notFound: { label: 'Event', id: String(json.event_id) },
		})),
		{
			timeoutMs: Math.max(...toFollow.map((entry) => entry.prepared?.waitSeconds ?? 0)) * 1000,
			done: isFinalEvent,
		},
	);
	toFollow.forEach((entry, index) => {
		const delivery = deliveryOf(results[index], String(entry.json.event_id), waitedMs);
		entry.json.deliveryStatus = delivery.status;
		entry.json.delivery = delivery;
	});
}
