import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { PeachInputError } from '../helpers/inputError';
import { inLanes } from '../helpers/lanes';
import { wasNotSent } from '../transport/outcome';
import { DeliveryPermit } from '../transport/permit';
import { requestOptionsOf } from '../transport/requestOptions';
import { widthOf } from '../transport/width';
import type {
	BatchOperation,
	BatchOutput,
	Delivered,
	DeliveringBatchOperation,
	DeliveringOperation,
	Delivery,
	EarlierOutcome,
	ItemOperation,
	ItemResult,
	PeachOperation,
	PreparedDeliveries,
	ResourceDefinition,
} from './node.type';
import { expressionBehind } from './emptyExpression';
import { registry } from './registry';
import { DeliveryRecord } from './run/record/record';

type NodeError = NodeApiError | NodeOperationError;

/** Any failure of one item as the n8n error to show: input problems name the field, value and fix. */
export function toNodeError(
	context: IExecuteFunctions,
	error: unknown,
	itemIndex: number,
): NodeError {
	if (error instanceof PeachInputError) {
		const expression = error.isEmpty
			? expressionBehind(context, error.field, itemIndex)
			: undefined;
		return new NodeOperationError(context.getNode(), error.message, {
			description:
				expression === undefined
					? error.fix
					: `${error.field} is ${expression}, which gave nothing for this item. ${error.fix}`,
			itemIndex,
		});
	}
	if (error instanceof NodeApiError || error instanceof NodeOperationError) {
		error.context.itemIndex ??= itemIndex;
		return error;
	}
	return new NodeOperationError(context.getNode(), error as Error, { itemIndex });
}

/** The Continue On Fail item for an error: what happened, how to fix it, the HTTP code. */
function errorJson(error: NodeError): IDataObject {
	const json: IDataObject = { error: error.message };
	if (error.description) json.description = error.description;
	if (error instanceof NodeApiError && error.httpCode) json.httpCode = error.httpCode;
	return json;
}

/**
 * A failed item as n8n's error output recognises it: the error on the item itself (n8n-core's
 * `handleNodeErrorOutput` moves an item with `error` to the error output when On Error is *Continue
 * (using error output)*; with *Continue (regular output)* it stays in the output), its JSON as before.
 */
function errorItem(
	error: NodeError,
	inputs: number[],
	json = errorJson(error),
): INodeExecutionData {
	return { json, error, pairedItem: pairedItemOf(inputs) };
}

function pairedItemOf(inputs: number[]) {
	return inputs.length === 1 ? { item: inputs[0] } : inputs.map((item) => ({ item }));
}

function itemsOf(result: ItemResult, itemIndex: number): INodeExecutionData[] {
	return (Array.isArray(result) ? result : [result]).map((json) => ({
		json,
		pairedItem: { item: itemIndex },
	}));
}

const upperFirst = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/**
 * "item 3", "items 3, 5 and 8", "items 4 to 2000" (1-based, as n8n shows items; sorted input): runs
 * of consecutive items as ranges, at most 20 parts, then how many more.
 */
function itemList(indexes: number[]): string {
	const parts: string[] = [];
	for (let start = 0; start < indexes.length; ) {
		let end = start;
		while (end + 1 < indexes.length && indexes[end + 1] === indexes[end] + 1) end++;
		const [first, last] = [indexes[start] + 1, indexes[end] + 1];
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
 * Input problems found before anything was delivered: the first item's error, with every other bad
 * item named, and the promise that nothing was sent.
 */
function nothingSentError(problems: Map<number, NodeError>): NodeError {
	const [first, ...others] = [...problems.entries()].sort(([a], [b]) => a - b);
	const [, error] = first;
	const more = others
		.slice(0, 10)
		.map(([itemIndex, other]) => `item ${itemIndex + 1}: ${other.message}`);
	const tail = others.length > 10 ? `; and ${others.length - 10} more` : '';
	error.description = [
		error.description,
		`Nothing was sent: every item is checked before the first one is sent.${
			more.length ? ` Also to fix: ${more.join('; ')}${tail}.` : ''
		}`,
	]
		.filter(Boolean)
		.join(' ');
	return error;
}

/** What a run of a delivering operation did, for the error that ends it. */
interface RunSummary {
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
function partialError(failures: Map<number, NodeError>, summary: RunSummary): NodeError {
	const [[failedItem, error], ...otherFailures] = [...failures.entries()].sort(([a], [b]) => a - b);
	const { sent, unknown, notStarted, remembered } = summary;
	if (sent.length === 0 && unknown.length === 0 && notStarted.length === 0 && !otherFailures.length)
		return error;
	const parts: string[] = [];
	if (sent.length) {
		const receipts = sent
			.slice(0, 20)
			.map((entry) => `item ${entry.itemIndex + 1} (${receiptOf(entry.json)})`);
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

function isDelivering(
	operation: PeachOperation,
): operation is DeliveringOperation | DeliveringBatchOperation {
	return 'delivers' in operation && operation.delivers === true;
}

function isBatch(operation: PeachOperation): operation is BatchOperation {
	return 'batch' in operation && operation.batch === true;
}

/**
 * A per-item operation that delivers nothing, Max Concurrent Requests at a time. Outputs keep the
 * input order. Without Continue On Fail, the first failed item (in input order) is the error, and no
 * new item starts once one has failed; items already under way finish.
 */
async function runPerItem(
	context: IExecuteFunctions,
	operation: ItemOperation,
	itemCount: number,
): Promise<INodeExecutionData[]> {
	const results: Array<INodeExecutionData[] | NodeError> = [];
	const continueOnFail = context.continueOnFail();
	let failed = false;
	await inLanes(
		Array.from({ length: itemCount }, (_, index) => index),
		(itemIndex) => recordOf(context, operation, itemIndex),
		() => widthOf(context).current,
		async (itemIndex) => {
			if (failed) return;
			try {
				results[itemIndex] = itemsOf(await operation.execute.call(context, itemIndex), itemIndex);
			} catch (caught) {
				results[itemIndex] = toNodeError(context, caught, itemIndex);
				if (!continueOnFail) failed = true;
			}
		},
	);
	const output: INodeExecutionData[] = [];
	for (let itemIndex = 0; itemIndex < results.length; itemIndex++) {
		const result = results[itemIndex];
		if (result === undefined) continue;
		if (Array.isArray(result)) output.push(...result);
		else if (!continueOnFail) throw result;
		else output.push(errorItem(result, [itemIndex]));
	}
	return output;
}

/**
 * The record a per-item operation changes (items for one record run one after another, in input
 * order); none for a read. An item whose record cannot be read fails in `execute` itself.
 */
function recordOf(
	context: IExecuteFunctions,
	operation: ItemOperation,
	itemIndex: number,
): string | undefined {
	try {
		return operation.recordOf?.call(context, itemIndex);
	} catch {
		return undefined;
	}
}

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

/** The output of a delivery an earlier try of the node made, or left unknown; this run did not. */
function earlierJson(earlier: EarlierOutcome, recipient: string | undefined): IDataObject {
	if (earlier.outcome === 'sent') {
		return {
			...earlier.json,
			alreadySent: {
				at: earlier.at,
				...(recipient !== undefined ? { recipient } : {}),
				note: earlier.json
					? 'Sent by an earlier try of this node (Retry On Fail, or the execution this one retries); not sent again.'
					: "Sent before the n8n process running the retried execution stopped; not sent again. Peach's answer was not kept: Template Message → Get Many Statuses lists what Peach queued.",
			},
		};
	}
	return {
		outcomeUnknown: {
			at: earlier.at,
			...(recipient !== undefined ? { recipient } : {}),
			reason: earlier.reason ?? null,
			note: "Not sent again: the earlier request may have reached Peach. Check the contact's conversation (or the order) in the Peach web app; to send it anyway, turn on Request Options → Send Again If Outcome Unknown and retry.",
		},
	};
}

/** A delivery an earlier try left with an unknown outcome: not made again, and not a success. */
function unknownError(context: IExecuteFunctions, entry: Entry): NodeError {
	const itemIndex = entry.delivery.inputs[0];
	return new NodeOperationError(
		context.getNode(),
		`The outcome of item ${itemIndex + 1}${entry.recipient !== undefined ? ` (${entry.recipient})` : ''} is unknown: an earlier try's request may have reached Peach`,
		{
			itemIndex,
			description: `${entry.earlier?.reason ? `${entry.earlier.reason} ` : ''}It is not sent again. Check it in the Peach web app (the contact's conversation, or the order; Template Message → Get Many Statuses lists what Peach queued); to send it anyway, turn on Request Options → Send Again If Outcome Unknown and retry.`,
		},
	);
}

/** The store could not record the claim before the request: the request was not made. */
function claimError(context: IExecuteFunctions, caught: unknown, itemIndex: number): NodeError {
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

/**
 * An operation that delivers a message or moves money:
 * (1) every item is prepared (read and checked) before anything is sent; a problem in any item,
 *     without Continue On Fail, sends nothing and names every bad item;
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
async function runDelivering(
	context: IExecuteFunctions,
	operation: DeliveringOperation | DeliveringBatchOperation,
	itemCount: number,
	operationKey: string,
): Promise<INodeExecutionData[]> {
	const continueOnFail = context.continueOnFail();
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
		fail(inputs, toNodeError(context, caught, 0));
	}
	for (const { itemIndex, error } of prepared.problems)
		fail([itemIndex], toNodeError(context, error, itemIndex));
	if (failures.size && !continueOnFail) throw nothingSentError(errorsByItem());

	const entries: Entry[] = prepared.deliveries.map((delivery, index) => ({
		delivery,
		index,
		recipient: operation.recipientOf?.(delivery.plan),
	}));
	// What a delivery is for the record: its recipient, or its own key (a broadcast from all items).
	let record: DeliveryRecord;
	try {
		record = await DeliveryRecord.open(
			context,
			operationKey,
			entries.map(
				(entry) =>
					entry.recipient ?? `key:${entry.delivery.key ?? String(entry.delivery.inputs[0])}`,
			),
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
		if (entry.earlier?.outcome === 'unknown' && resendUnknown) {
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
			fail([itemIndex], toNodeError(context, error, itemIndex));
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
	await inLanes(
		toMake,
		(entry) => entry.recipient,
		() => widthOf(context).current,
		async (entry) => {
			const { inputs, plan } = entry.delivery;
			if (stopped) {
				notStarted.push(...inputs);
				return;
			}
			try {
				await record.claim(entry.index);
			} catch (caught) {
				fail(inputs, claimError(context, caught, inputs[0]));
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
				const error = toNodeError(context, caught, inputs[0]);
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
		await record.close(failures.size === 0 && unknown.length === 0);
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
		throw partialError(new Map([[unknownItems[0].item, unknownError(context, unknown[0])]]), {
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
			const error = unknownError(context, entry);
			const json = { ...errorJson(error), ...earlierJson(entry.earlier, entry.recipient) };
			output.push({ at: inputs[0], item: errorItem(error, inputs, json) });
			continue;
		}
		const json = jsonByEntry.get(inputs[0]);
		if (json) output.push({ at: inputs[0], item: { json, pairedItem: pairedItemOf(inputs) } });
	}
	for (const [at, { inputs, error }] of failures)
		output.push({ at, item: errorItem(error, inputs) });
	return output.sort((a, b) => a.at - b.at).map(({ item }) => item);
}

/** A batch's outputs as items; without Continue On Fail the first error ends the run. */
function batchItems(context: IExecuteFunctions, outputs: BatchOutput[]): INodeExecutionData[] {
	const continueOnFail = context.continueOnFail();
	const failed = outputs.find((output) => 'error' in output);
	if (failed && 'error' in failed && !continueOnFail)
		throw toNodeError(context, failed.error, failed.inputs[0] ?? 0);
	return outputs.map((output) =>
		'error' in output
			? errorItem(toNodeError(context, output.error, output.inputs[0] ?? 0), output.inputs)
			: { json: output.json, pairedItem: pairedItemOf(output.inputs) },
	);
}

/**
 * A batch operation that delivers nothing: its outputs carry the input items they came from. A
 * failure of the whole batch becomes, under Continue On Fail, one error item per input item.
 */
async function runBatch(
	context: IExecuteFunctions,
	operation: BatchOperation,
	itemCount: number,
): Promise<INodeExecutionData[]> {
	const indexes = Array.from({ length: itemCount }, (_, index) => index);
	let outputs: BatchOutput[];
	try {
		outputs = await operation.executeBatch.call(context, indexes);
	} catch (caught) {
		const error = toNodeError(context, caught, 0);
		if (!context.continueOnFail()) throw error;
		return indexes.map((item) => errorItem(toNodeError(context, caught, item), [item]));
	}
	return batchItems(context, outputs);
}

/**
 * The value n8n adds to resource and operation as "Custom API Call" for a node whose credential
 * authenticates requests (n8n's CUSTOM_API_CALL_KEY; n8n-workflow does not export it).
 */
const CUSTOM_API_CALL = '__CUSTOM_API_CALL__';

/**
 * Runs the chosen operation over the input items. Resource and operation cannot come from an
 * expression (noDataExpression), so they are read once.
 */
export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const resources: Record<string, ResourceDefinition> = registry;
	const itemCount = this.getInputData().length;
	const resource = this.getNodeParameter('resource', 0) as string;
	const operationName = this.getNodeParameter('operation', 0, '') as string;
	const has = (object: object, key: string) => Object.prototype.hasOwnProperty.call(object, key);
	const operation =
		has(resources, resource) && has(resources[resource].operations, operationName)
			? resources[resource].operations[operationName]
			: undefined;
	if (!operation) {
		if (resource === CUSTOM_API_CALL || operationName === CUSTOM_API_CALL) {
			throw new NodeOperationError(this.getNode(), 'Custom API Call runs in an HTTP Request node', {
				description:
					'Add an HTTP Request node, set Authentication → Predefined Credential Type → Peach API, choose this credential and give the full URL, e.g. https://app.trypeach.io/api/v1/conversations. The key is added as the Peach node adds it (README, A custom API call).',
			});
		}
		throw new NodeOperationError(
			this.getNode(),
			`The operation "${operationName}" of resource "${resource}" is not supported`,
		);
	}
	if (isDelivering(operation))
		return [await runDelivering(this, operation, itemCount, `${resource}.${operationName}`)];
	if (isBatch(operation)) return [await runBatch(this, operation, itemCount)];
	return [await runPerItem(this, operation, itemCount)];
}
