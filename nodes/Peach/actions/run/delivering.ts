import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { PeachInputError } from '../../helpers/inputError';
import { wasNotSent } from '../../transport/outcome';
import { DeliveryPermit } from '../../transport/permit';
import { requestOptionsOf } from '../../transport/requestOptions';
import { concurrently } from '../../transport/width';
import type {
	Delivered,
	DeliveringBatchOperation,
	DeliveringOperation,
	Delivery,
	EarlierOutcome,
	PreparedDeliveries,
} from '../node.type';
import type { NodeError } from './items';
import { errorItem, errorJson, pairedItemOf, toNodeError } from './items';
import { dryRunOutputs } from './dryRun';
import { claimError, earlierJson, nothingSentError, partialError, unknownError } from './outcome';
import { presentDeliveries } from './presentation';
import { ClaimedElsewhere, DeliveryRecord } from './record/record';

/** One delivery on its way through a run: whom it is for, its place in the record, what became of it. */
interface Entry {
	delivery: Delivery;
	/** Its index among the run's deliveries (the record's name for it). */
	index: number;
	recipient?: string;
	/** What an earlier try of the node did with it (then this run does not make it). */
	earlier?: EarlierOutcome;
	/** Peach's answer to this run's request. */
	json?: IDataObject;
}

/**
 * Request Options → Delivery Key of an item: what names its delivery between tries, as the user's
 * data does; undefined when empty (the delivery is then named by what it sends).
 */
function deliveryKeyOf(context: IExecuteFunctions, itemIndex: number): string | undefined {
	const value: unknown = context.getNodeParameter('requestOptions.deliveryKey', itemIndex, '');
	if (value === undefined || value === null) return undefined;
	const text = typeof value === 'string' ? value.trim() : JSON.stringify(value);
	return text === '' ? undefined : text;
}

/**
 * Deliveries to one recipient that share a Delivery Key cannot be told apart between tries: each of
 * them is refused, naming the key, before anything is sent.
 */
function sharedDeliveryKeys(
	context: IExecuteFunctions,
	deliveries: Array<Delivery<unknown>>,
	recipientOf: ((plan: unknown) => string | undefined) | undefined,
): Array<{ itemIndex: number; error: Error }> {
	const byKey = new Map<string, number[]>();
	for (const delivery of deliveries) {
		const key = deliveryKeyOf(context, delivery.inputs[0]);
		if (key === undefined) continue;
		const name = JSON.stringify([recipientOf?.(delivery.plan) ?? delivery.key ?? '', key]);
		byKey.set(name, [...(byKey.get(name) ?? []), delivery.inputs[0]]);
	}
	return [...byKey.entries()].flatMap(([name, items]) =>
		items.length < 2
			? []
			: items.map((itemIndex) => ({
					itemIndex,
					error: new PeachInputError(
						'Request Options → Delivery Key',
						String((JSON.parse(name) as string[])[1]),
						`names ${items.length} deliveries to the same recipient (items ${items.join(', ')})`,
						'Give each delivery its own key (e.g. {{ $json.order_id }}-{{ $json.kind }}), or leave the key empty: a delivery is then named by what it sends.',
					),
				})),
	);
}

/** Every item read and checked, as deliveries, and the items that cannot be delivered. */
async function prepareDeliveries(
	context: IExecuteFunctions,
	operation: DeliveringOperation | DeliveringBatchOperation,
	itemCount: number,
): Promise<PreparedDeliveries<unknown>> {
	const indexes = Array.from({ length: itemCount }, (_, index) => index);
	if ('prepareBatch' in operation) return await operation.prepareBatch.call(context, indexes);
	const prepared: PreparedDeliveries<unknown> = { deliveries: [], problems: [] };
	for (const itemIndex of indexes) {
		try {
			prepared.deliveries.push({
				inputs: [itemIndex],
				plan: await operation.prepare.call(context, itemIndex),
			});
		} catch (error) {
			prepared.problems.push({ itemIndex, error: error as Error });
		}
	}
	return prepared;
}

/**
 * An operation that delivers a message or moves money:
 * (1) every item is prepared (read and checked) before anything is sent; a problem in any item,
 *     without Continue On Fail, sends nothing and names every bad item; with Dry Run (an operation
 *     that previews), the previews are the outputs and nothing below happens (dryRun.ts);
 * (2) the node's record says what an earlier try did (Retry On Fail, the editor's Retry, the Retry
 *     of a crashed execution): those deliveries are not made again, their outputs come back marked;
 * (3) `stage` makes what the other deliveries need (header files uploaded); its failures, without
 *     Continue On Fail, send nothing;
 * (4) the deliveries are made, Max Concurrent Requests at a time, each recipient's in input order,
 *     each claimed in the record first; a failure, without Continue On Fail, starts nothing new,
 *     and its error lists what was already delivered;
 * (5) `follow` runs over what was delivered (e.g. waiting for delivery), and can only add to those
 *     outputs. Outputs keep the input order, each paired to its input items.
 */
export async function runDelivering(
	context: IExecuteFunctions,
	operation: DeliveringOperation | DeliveringBatchOperation,
	itemCount: number,
	operationKey: string,
	continueOnFail: boolean,
): Promise<INodeExecutionData[]> {
	const asError = (caught: unknown, itemIndex: number) =>
		toNodeError(context, caught, itemIndex, operation.properties);
	const unknownErrorOf = (entry: Entry) =>
		unknownError(context, entry.delivery.inputs[0], entry.recipient, entry.earlier?.reason);
	/** Failed input items (by their delivery's first input), with every input they stand for. */
	const failures = new Map<number, { inputs: number[]; error: NodeError }>();
	/** Failed deliveries that certainly did not happen (refused, never sent): a retry makes them. */
	const notSentFailures = new Set<number>();
	const fail = (inputs: number[], error: NodeError, notSent = true) => {
		failures.set(inputs[0], { inputs, error });
		if (notSent) notSentFailures.add(inputs[0]);
	};
	const errorsByItem = () =>
		new Map([...failures].map(([itemIndex, failure]) => [itemIndex, failure.error]));

	let prepared: PreparedDeliveries<unknown>;
	try {
		prepared = await prepareDeliveries(context, operation, itemCount);
	} catch (caught) {
		// A problem with fields every item shares (a batch): nothing can be delivered.
		const inputs = Array.from({ length: itemCount }, (_, index) => index);
		prepared = { deliveries: [], problems: [] };
		fail(inputs, asError(caught, 0));
	}
	const shared = sharedDeliveryKeys(context, prepared.deliveries, operation.recipientOf);
	if (shared.length) {
		const refused = new Set(shared.map(({ itemIndex }) => itemIndex));
		prepared.deliveries = prepared.deliveries.filter(({ inputs }) => !refused.has(inputs[0]));
	}
	for (const { itemIndex, error } of [...prepared.problems, ...shared])
		fail([itemIndex], asError(error, itemIndex));
	if (failures.size && !continueOnFail) throw nothingSentError(errorsByItem());
	if (operation.preview && requestOptionsOf(context).dryRun)
		return await dryRunOutputs(
			context,
			operation,
			operation.preview,
			prepared.deliveries,
			failures,
			continueOnFail,
		);

	const entries: Entry[] = prepared.deliveries.map((delivery, index) => ({
		delivery,
		index,
		recipient: operation.recipientOf?.(delivery.plan),
	}));
	// What a delivery is for the record: what it sends (or the user's Delivery Key), to whom.
	let record: DeliveryRecord;
	try {
		record = await DeliveryRecord.open(
			context,
			operationKey,
			entries.map(({ delivery, recipient }) => ({
				lane: recipient ?? `key:${delivery.key ?? ''}`,
				content: operation.sameDelivery?.(delivery.plan) ?? delivery.plan,
				deliveryKey: deliveryKeyOf(context, delivery.inputs[0]),
				witnessed: operation.witnessOf?.(delivery.plan),
			})),
		);
	} catch (caught) {
		for (const { delivery } of entries)
			fail(delivery.inputs, claimError(context, caught, delivery.inputs[0]));
		if (!continueOnFail) throw nothingSentError(errorsByItem());
		return entries.map(({ delivery }) =>
			errorItem(failures.get(delivery.inputs[0])?.error as NodeError, delivery.inputs),
		);
	}
	const { resendUnknown } = requestOptionsOf(context);
	for (const entry of entries) {
		entry.earlier = record.earlier(entry.index);
		// Sent again only where Peach was asked and does not list it.
		if (entry.earlier?.outcome === 'unknown' && resendUnknown && !entry.earlier.peachUnread) {
			record.forget(entry.index);
			entry.earlier = undefined;
		}
	}

	let toMake = entries.filter((entry) => !entry.earlier);
	if (operation.stage && toMake.length) {
		const byFirstInput = new Map(toMake.map((entry) => [entry.delivery.inputs[0], entry]));
		const staged = await operation.stage.call(
			context,
			toMake.map((entry) => entry.delivery),
		);
		for (const { itemIndex, error } of staged.problems)
			fail([itemIndex], asError(error, itemIndex));
		toMake = staged.deliveries.map((delivery) => {
			const entry = byFirstInput.get(delivery.inputs[0]) as Entry;
			entry.delivery = delivery;
			return entry;
		});
	}
	if (failures.size && !continueOnFail && !entries.some((entry) => entry.earlier))
		throw nothingSentError(errorsByItem());

	const permit = new DeliveryPermit();
	const notStarted: number[] = [];
	let stopped = failures.size > 0 && !continueOnFail;
	await concurrently(
		context,
		toMake,
		(entry) => entry.recipient,
		async (entry) => {
			const { inputs, plan } = entry.delivery;
			if (stopped) {
				notStarted.push(...inputs);
				return;
			}
			try {
				await record.claim(entry.index);
			} catch (caught) {
				if (caught instanceof ClaimedElsewhere) {
					record.unknown(entry.index, caught.message);
					fail(inputs, unknownError(context, inputs[0], entry.recipient, caught.message), false);
				} else fail(inputs, claimError(context, caught, inputs[0]));
				if (!continueOnFail) stopped = true;
				return;
			}
			if (stopped) {
				record.notSent(entry.index);
				notStarted.push(...inputs);
				return;
			}
			try {
				entry.json = await operation.deliver.call(context, plan, inputs[0], permit);
				record.sent(entry.index, entry.json);
			} catch (caught) {
				const error = asError(caught, inputs[0]);
				const notSent = wasNotSent(caught) || caught instanceof PeachInputError;
				if (notSent) record.notSent(entry.index);
				else record.unknown(entry.index, error.message);
				fail(inputs, error, notSent);
				if (!continueOnFail) stopped = true;
			}
		},
	);

	const unknown = entries.filter((entry) => entry.earlier?.outcome === 'unknown');
	try {
		await record.close();
	} catch (caught) {
		context.addExecutionHints?.({
			message: `n8n could not finish recording what this run sent (${(caught as Error).message}). Everything in the output was sent; if this execution is retried after a crash, some of it may be listed as unknown instead of sent.`,
			location: 'outputPane',
		});
	}

	const delivered: Delivered[] = entries
		.filter((entry) => entry.json || entry.earlier?.outcome === 'sent')
		.map((entry) => ({
			itemIndex: entry.delivery.inputs[0],
			json: entry.json ?? earlierJson(entry.earlier as EarlierOutcome, entry.recipient),
			prepared: entry.delivery.plan,
			...(entry.json ? {} : { earlier: entry.earlier }),
		}))
		.sort((a, b) => a.itemIndex - b.itemIndex);
	const unknownItems = unknown
		.map((entry) => ({
			item: entry.delivery.inputs[0],
			...(entry.recipient !== undefined ? { recipient: entry.recipient } : {}),
		}))
		.sort((a, b) => a.item - b.item);
	if (failures.size && !continueOnFail) {
		const failedItem = Math.min(...failures.keys());
		throw partialError(errorsByItem(), {
			sent: delivered,
			unknown: unknownItems,
			notStarted: notStarted.sort((a, b) => a - b),
			remembered: record.remembers,
			failedNotSent: notSentFailures.has(failedItem),
		});
	}
	// An outcome an earlier try left unknown is no success: this run fails as that try did (naming
	// them), unless Continue On Fail, where each is an error item.
	if (unknown.length && !continueOnFail)
		throw partialError(new Map([[unknownItems[0].item, unknownErrorOf(unknown[0])]]), {
			sent: delivered,
			unknown: unknownItems,
			notStarted: [],
			remembered: record.remembers,
			failedNotSent: false,
		});
	if (operation.follow && delivered.length) await operation.follow.call(context, delivered);

	const jsonByEntry = new Map(delivered.map((entry) => [entry.itemIndex, entry.json]));
	const output: Array<{ at: number; item: INodeExecutionData }> = [];
	for (const entry of entries) {
		const { inputs } = entry.delivery;
		if (entry.earlier?.outcome === 'unknown') {
			const error = unknownErrorOf(entry);
			const json = { ...errorJson(error), ...earlierJson(entry.earlier, entry.recipient) };
			output.push({ at: inputs[0], item: errorItem(error, inputs, json) });
			continue;
		}
		const json = jsonByEntry.get(inputs[0]);
		if (json) output.push({ at: inputs[0], item: { json, pairedItem: pairedItemOf(inputs) } });
	}
	for (const [at, { inputs, error }] of failures)
		output.push({ at, item: errorItem(error, inputs) });
	// Each output leads with what a person checks (presentation.ts); what it had stays beneath.
	const entryAt = new Map(entries.map((entry) => [entry.delivery.inputs[0], entry]));
	return await presentDeliveries(
		context,
		operation,
		output
			.sort((a, b) => a.at - b.at)
			.map(({ at, item }) => ({
				item,
				plan: entryAt.get(at)?.delivery.plan,
				recipient: entryAt.get(at)?.recipient,
				notSent: notSentFailures.has(at),
			})),
	);
}
