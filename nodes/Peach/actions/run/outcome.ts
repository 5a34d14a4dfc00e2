import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { Delivered, Delivery, EarlierOutcome } from '../operation/node.type';
import type { NodeError } from './items';
import { earlierJson, unknownError } from './outcome.earlier';
import { distinctProblems } from './problems';

/**
 * What a delivering run tells the user when it ends: the error that lists what was already sent
 * (with Peach's IDs), what was not, and what a Retry does; the outputs of deliveries an earlier try
 * made or left unknown are in outcome.earlier.ts.
 */

/** One delivery on its way through a run: whom it is for, its place in the record, what became of it. */
export interface RunEntry {
	delivery: Delivery;
	/** Its index among the run's deliveries (the record's name for it). */
	index: number;
	recipient?: string;
	/** What an earlier try of the node did with it (then this run does not make it). */
	earlier?: EarlierOutcome;
	/** Peach's answer to this run's request. */
	json?: IDataObject;
}

/** A run's failed input items, by their delivery's first input, with every input they stand for. */
export class RunFailures {
	readonly byItem = new Map<number, { inputs: number[]; error: NodeError }>();
	/**
	 * Failed deliveries that certainly did not happen (refused, never sent): Retry On Fail or a Retry
	 * makes them.
	 */
	readonly notSent = new Set<number>();

	add(inputs: number[], error: NodeError, notSent = true): void {
		this.byItem.set(inputs[0], { inputs, error });
		if (notSent) this.notSent.add(inputs[0]);
	}

	get size(): number {
		return this.byItem.size;
	}

	errors(): Map<number, NodeError> {
		return new Map([...this.byItem].map(([itemIndex, failure]) => [itemIndex, failure.error]));
	}
}

const upperFirst = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/**
 * "item 3", "items 3, 5 and 8", "items 4 to 2000" (n8n's item index, from 0, as n8n numbers items in
 * its errors; sorted input): runs of consecutive items as ranges, at most 20 parts, then how many
 * more.
 */
function itemList(indexes: number[]): string {
	const parts: string[] = [];
	for (let start = 0; start < indexes.length; ) {
		let end = start;
		while (end + 1 < indexes.length && indexes[end + 1] === indexes[end] + 1) end++;
		const [first, last] = [indexes[start], indexes[end]];
		if (end === start) parts.push(String(first));
		else if (end === start + 1) parts.push(String(first), String(last));
		else parts.push(`${first} to ${last}`);
		start = end + 1;
	}
	if (indexes.length === 1) return `item ${parts[0]}`;
	const shown = parts.slice(0, 20);
	if (parts.length > 20) shown.push(`${parts.length - 20} more`);
	if (shown.length === 1) return `items ${shown[0]}`;
	return `items ${shown.slice(0, -1).join(', ')} and ${shown[shown.length - 1]}`;
}

/** What identifies a delivery in Peach's answer: its event ID (or the record's ID). */
function receiptOf(json: IDataObject): string {
	const id = json.event_id ?? json.id;
	return typeof id === 'string' || typeof id === 'number'
		? `${json.event_id !== undefined ? 'event_id' : 'id'} ${id}`
		: "Peach's answer had no ID";
}

/**
 * Input problems found before anything was delivered: the first problem's error, with every other
 * one named, and the promise that nothing was sent. A problem every item shares (their template) is
 * said once, for no one item (n8n shows no item index for it), with the items it is for.
 */
export function nothingSentError(problems: Map<number, NodeError>): NodeError {
	const [first, ...others] = distinctProblems(problems);
	const { error } = first;
	if (first.items.length > 1) delete error.context.itemIndex;
	const more = others.slice(0, 10).map(({ items, error: other }) => problemLine(items, other));
	const tail = others.length > 10 ? `; and ${others.length - 10} more` : '';
	error.description = [
		error.description,
		first.items.length > 1 ? `This holds for ${itemList(first.items)}.` : '',
		`Nothing was sent: every item is checked before the first one is sent.${
			more.length ? ` Also to fix: ${more.join('; ')}${tail}.` : ''
		}`,
	]
		.filter(Boolean)
		.join(' ');
	return error;
}

/** A problem in the list of others: its message, then the items as n8n numbers them (unless named). */
function problemLine(items: number[], error: NodeError): string {
	if (items.length === 1 && new RegExp(`\\bitem ${items[0]}\\b`, 'i').test(error.message))
		return error.message;
	return `${error.message} (${itemList(items)})`;
}

/** What a run of a delivering operation did, for the error that ends it. */
export interface RunSummary {
	/** Delivered, by this run or an earlier try, in input order. */
	sent: Delivered[];
	/** Deliveries an earlier try left with an unknown outcome (not made again): item and recipient. */
	unknown: Array<{ item: number; recipient?: string }>;
	/** Input items whose delivery was not started. */
	notStarted: number[];
	/** Whether a Retry of this execution knows what this run did (the node's record is kept). */
	remembered: boolean;
	/** Whether the failed delivery certainly did not happen (else it may have reached Peach). */
	failedNotSent: boolean;
}

/**
 * The error that ends a run after some items were delivered: the failed item's own error, plus what
 * was already delivered (with Peach's IDs) and what was not. It never advises running the whole
 * workflow again: with the node's record kept, a Retry of this execution makes only what was not
 * made.
 */
export function partialError(failures: Map<number, NodeError>, summary: RunSummary): NodeError {
	const [[failedItem, error], ...otherFailures] = [...failures.entries()].sort(([a], [b]) => a - b);
	const { sent, unknown, notStarted, remembered } = summary;
	if (sent.length === 0 && unknown.length === 0 && notStarted.length === 0 && !otherFailures.length)
		return error;
	const parts: string[] = [];
	if (sent.length) {
		const receipts = sent
			.slice(0, 20)
			.map((entry) => `item ${entry.itemIndex} (${receiptOf(entry.json)})`);
		const more = sent.length > 20 ? ` and ${sent.length - 20} more` : '';
		parts.push(
			`Already sent${remembered ? '' : ', do not send these again'}: ${receipts.join(', ')}${more}.`,
		);
	} else {
		parts.push('No other item was sent.');
	}
	if (unknown.length) {
		parts.push(
			`Outcome unknown since an earlier try, not sent again: ${itemList(unknown.map(({ item }) => item))}.`,
		);
	}
	if (otherFailures.length) {
		parts.push(`Also failed: ${itemList(otherFailures.map(([index]) => index))}.`);
	}
	if (notStarted.length) parts.push(`Not sent: ${itemList(notStarted)}.`);
	const retry = 'A Retry of this execution (or Retry On Fail)';
	const rest = notStarted.length ? ' and the items not sent' : '';
	if (!remembered) parts.push('Send only the items not sent once the cause is fixed.');
	else if (summary.failedNotSent)
		parts.push(`${retry} sends ${itemList([failedItem])}${rest}, never what was sent.`);
	else
		parts.push(
			`${upperFirst(itemList([failedItem]))} may have reached Peach, so ${retry.charAt(0).toLowerCase()}${retry.slice(1)} does not send it again${notStarted.length ? `; it sends the items not sent` : ''}, and never what was sent.`,
		);
	error.description = [error.description, ...parts].filter(Boolean).join(' ');
	error.context.alreadySent = sent.map((entry) => ({
		item: entry.itemIndex,
		...(entry.json.event_id !== undefined ? { event_id: entry.json.event_id } : {}),
		...(entry.json.id !== undefined ? { id: entry.json.id } : {}),
	}));
	if (unknown.length) error.context.outcomeUnknown = unknown;
	return error;
}

/** The store could not record the claim before the request: the request was not made. */
export function claimError(
	context: IExecuteFunctions,
	caught: unknown,
	itemIndex: number,
): NodeError {
	return new NodeOperationError(
		context.getNode(),
		`n8n could not record the delivery before making it, so it was not made: ${(caught as Error).message}`,
		{
			itemIndex,
			description:
				"The node records each delivery in n8n's database first, so that no retry repeats it. Check n8n's database, then retry: this item is sent then.",
		},
	);
}

/** A delivery an earlier try left unknown, as an error. */
export function unknownErrorOf(context: IExecuteFunctions, entry: RunEntry): NodeError {
	return unknownError(context, entry.delivery.inputs[0], entry.recipient, entry.earlier?.reason);
}

/** What was delivered, by this run or an earlier try, in input order. */
function deliveredOf(entries: RunEntry[]): Delivered[] {
	return entries
		.filter((entry) => entry.json || entry.earlier?.outcome === 'sent')
		.map((entry) => ({
			itemIndex: entry.delivery.inputs[0],
			json: entry.json ?? earlierJson(entry.earlier as EarlierOutcome, entry.recipient),
			prepared: entry.delivery.plan,
			...(entry.json ? {} : { earlier: entry.earlier }),
		}))
		.sort((a, b) => a.itemIndex - b.itemIndex);
}

/**
 * The report that closes a delivering run, before `follow`: what was delivered (by this run or an
 * earlier try), in input order. Without Continue On Fail, a failure ends the run with the error that
 * lists it all (partialError), and so does an outcome an earlier try left unknown: that is no success.
 */
export function closingReport(
	context: IExecuteFunctions,
	run: {
		entries: RunEntry[];
		failures: RunFailures;
		notStarted: number[];
		remembered: boolean;
		continueOnFail: boolean;
	},
): Delivered[] {
	const { entries, failures, remembered } = run;
	const delivered = deliveredOf(entries);
	if (run.continueOnFail) return delivered;
	const unknown = entries.filter((entry) => entry.earlier?.outcome === 'unknown');
	const unknownItems = unknown
		.map((entry) => ({
			item: entry.delivery.inputs[0],
			...(entry.recipient !== undefined ? { recipient: entry.recipient } : {}),
		}))
		.sort((a, b) => a.item - b.item);
	if (failures.size) {
		const failedItem = Math.min(...failures.byItem.keys());
		throw partialError(failures.errors(), {
			sent: delivered,
			unknown: unknownItems,
			notStarted: [...run.notStarted].sort((a, b) => a - b),
			remembered,
			failedNotSent: failures.notSent.has(failedItem),
		});
	}
	if (unknown.length)
		throw partialError(new Map([[unknownItems[0].item, unknownErrorOf(context, unknown[0])]]), {
			sent: delivered,
			unknown: unknownItems,
			notStarted: [],
			remembered,
			failedNotSent: false,
		});
	return delivered;
}
