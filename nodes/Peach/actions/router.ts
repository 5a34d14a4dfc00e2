import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { PeachInputError } from '../helpers/inputError';
import { inTurns } from '../helpers/turns';
import { DeliveryPermit } from '../transport/permit';
import { requestOptionsOf } from '../transport/requestOptions';
import type {
	BatchOperation,
	BatchOutput,
	Delivered,
	DeliveringBatchOperation,
	DeliveringOperation,
	ItemOperation,
	ItemResult,
	PeachOperation,
	ResourceDefinition,
} from './node.type';
import { registry } from './registry';

type NodeError = NodeApiError | NodeOperationError;

/** Any failure of one item as the n8n error to show: input problems name the field, value and fix. */
export function toNodeError(
	context: IExecuteFunctions,
	error: unknown,
	itemIndex: number,
): NodeError {
	if (error instanceof PeachInputError) {
		return new NodeOperationError(context.getNode(), error.message, {
			description: error.fix,
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

function pairedItemOf(inputs: number[]) {
	return inputs.length === 1 ? { item: inputs[0] } : inputs.map((item) => ({ item }));
}

function itemsOf(result: ItemResult, itemIndex: number): INodeExecutionData[] {
	return (Array.isArray(result) ? result : [result]).map((json) => ({
		json,
		pairedItem: { item: itemIndex },
	}));
}

/** "item 3", "items 3, 5 and 8" (1-based, as n8n shows items). */
function itemList(indexes: number[]): string {
	const names = indexes.map((index) => String(index + 1));
	if (names.length <= 1) return `item ${names.join('')}`;
	return `items ${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
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

/**
 * The error that ends a run after some items were delivered: the failed item's own error, plus what
 * was already delivered (with Peach's IDs, so nobody sends it again) and what was not. It never
 * advises running the whole workflow again.
 */
function partialError(
	failures: Map<number, NodeError>,
	delivered: Delivered[],
	notStarted: number[],
): NodeError {
	const [[, error], ...otherFailures] = [...failures.entries()].sort(([a], [b]) => a - b);
	if (delivered.length === 0 && notStarted.length === 0 && otherFailures.length === 0) return error;
	const parts: string[] = [];
	if (delivered.length) {
		const receipts = delivered
			.slice(0, 20)
			.map((entry) => `item ${entry.itemIndex + 1} (${receiptOf(entry.json)})`);
		const more = delivered.length > 20 ? ` and ${delivered.length - 20} more` : '';
		parts.push(`Already sent, do not send these again: ${receipts.join(', ')}${more}.`);
	} else {
		parts.push('No other item was sent.');
	}
	if (otherFailures.length) {
		parts.push(`Also failed: ${itemList(otherFailures.map(([index]) => index))}.`);
	}
	if (notStarted.length) {
		parts.push(`Not sent: ${itemList(notStarted)}. Send only these once the cause is fixed.`);
	}
	error.description = [error.description, ...parts].filter(Boolean).join(' ');
	error.context.alreadySent = delivered.map((entry) => ({
		item: entry.itemIndex,
		...(entry.json.event_id !== undefined ? { event_id: entry.json.event_id } : {}),
		...(entry.json.id !== undefined ? { id: entry.json.id } : {}),
	}));
	return error;
}

function isDelivering(
	operation: PeachOperation,
): operation is DeliveringOperation | DeliveringBatchOperation {
	return 'delivers' in operation && operation.delivers === true;
}

function isBatch(
	operation: PeachOperation,
): operation is BatchOperation | DeliveringBatchOperation {
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
	await inTurns(
		Array.from({ length: itemCount }, (_, index) => index),
		requestOptionsOf(context).concurrency,
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
		else output.push({ json: errorJson(result), pairedItem: { item: itemIndex } });
	}
	return output;
}

/**
 * The items in the order they are delivered: a recipient's items one after another in input order,
 * different recipients side by side (`inTurns` starts them in this order, `concurrency` at a time).
 */
function deliveryLanes(
	itemIndexes: number[],
	recipientOf: (itemIndex: number) => string | undefined,
): number[][] {
	const byRecipient = new Map<string, number[]>();
	const lanes: number[][] = [];
	for (const itemIndex of itemIndexes) {
		const recipient = recipientOf(itemIndex);
		const lane = recipient === undefined ? undefined : byRecipient.get(recipient);
		if (lane) {
			lane.push(itemIndex);
			continue;
		}
		const created = [itemIndex];
		if (recipient !== undefined) byRecipient.set(recipient, created);
		lanes.push(created);
	}
	return lanes;
}

/**
 * A delivering per-item operation: (1) every item is prepared (read and checked) before anything is
 * sent; a problem in any item, without Continue On Fail, sends nothing and names every bad item.
 * `stage` then makes what the deliveries need (header files uploaded); its failures too, without
 * Continue On Fail, send nothing. (2) The items are delivered, Max Concurrent Requests at a time, each recipient's items in input
 * order. A failure, without Continue On Fail, starts nothing new, and its error lists what was
 * already delivered. (3) `follow` runs over what was delivered (e.g. waiting for delivery), and can
 * only add to those outputs.
 */
async function runDelivering(
	context: IExecuteFunctions,
	operation: DeliveringOperation,
	itemCount: number,
): Promise<INodeExecutionData[]> {
	const continueOnFail = context.continueOnFail();
	const prepared = new Map<number, unknown>();
	const failures = new Map<number, NodeError>();
	for (let itemIndex = 0; itemIndex < itemCount; itemIndex++) {
		try {
			prepared.set(itemIndex, await operation.prepare.call(context, itemIndex));
		} catch (caught) {
			failures.set(itemIndex, toNodeError(context, caught, itemIndex));
		}
	}
	if (failures.size && !continueOnFail) throw nothingSentError(failures);
	if (operation.stage) {
		const staged = await operation.stage.call(
			context,
			[...prepared.entries()].map(([itemIndex, plan]) => ({ itemIndex, prepared: plan })),
		);
		for (const [itemIndex, error] of staged) {
			prepared.delete(itemIndex);
			failures.set(itemIndex, toNodeError(context, error, itemIndex));
		}
		if (failures.size && !continueOnFail) throw nothingSentError(failures);
	}

	const permit = new DeliveryPermit();
	const delivered = new Map<number, Delivered>();
	const notStarted: number[] = [];
	let stopped = false;
	const lanes = deliveryLanes([...prepared.keys()], (itemIndex) =>
		operation.recipientOf?.(prepared.get(itemIndex)),
	);
	await inTurns(lanes, requestOptionsOf(context).concurrency, async (lane) => {
		for (const itemIndex of lane) {
			if (stopped) {
				notStarted.push(itemIndex);
				continue;
			}
			try {
				const json = await operation.deliver.call(
					context,
					prepared.get(itemIndex),
					itemIndex,
					permit,
				);
				delivered.set(itemIndex, { itemIndex, json, prepared: prepared.get(itemIndex) });
			} catch (caught) {
				failures.set(itemIndex, toNodeError(context, caught, itemIndex));
				if (!continueOnFail) stopped = true;
			}
		}
	});
	const sent = [...delivered.values()].sort((a, b) => a.itemIndex - b.itemIndex);
	if (failures.size && !continueOnFail) {
		throw partialError(
			failures,
			sent,
			notStarted.sort((a, b) => a - b),
		);
	}
	if (operation.follow && sent.length) await operation.follow.call(context, sent);

	const output: INodeExecutionData[] = [];
	for (let itemIndex = 0; itemIndex < itemCount; itemIndex++) {
		const done = delivered.get(itemIndex);
		const failure = failures.get(itemIndex);
		if (done) output.push({ json: done.json, pairedItem: { item: itemIndex } });
		else if (failure) output.push({ json: errorJson(failure), pairedItem: { item: itemIndex } });
	}
	return output;
}

/**
 * A batch's outputs as items; without Continue On Fail the first error ends the run (for a delivering
 * batch, with what was already delivered and which items were not reached).
 */
function batchItems(
	context: IExecuteFunctions,
	outputs: BatchOutput[],
	indexes: number[],
	delivering: boolean,
): INodeExecutionData[] {
	const continueOnFail = context.continueOnFail();
	const failed = outputs.find((output) => 'error' in output);
	if (failed && 'error' in failed && !continueOnFail) {
		const error = toNodeError(context, failed.error, failed.inputs[0] ?? 0);
		if (!delivering) throw error;
		const sent = outputs.flatMap((output) =>
			'json' in output ? [{ itemIndex: output.inputs[0], json: output.json }] : [],
		);
		const reached = new Set(outputs.flatMap((output) => output.inputs));
		const notReached = indexes.filter((index) => !reached.has(index));
		throw partialError(new Map([[failed.inputs[0] ?? 0, error]]), sent, notReached);
	}
	return outputs.map((output) =>
		'error' in output
			? {
					json: errorJson(toNodeError(context, output.error, output.inputs[0] ?? 0)),
					pairedItem: pairedItemOf(output.inputs),
				}
			: { json: output.json, pairedItem: pairedItemOf(output.inputs) },
	);
}

/**
 * A batch operation: its outputs carry the input items they came from. A failure of the whole
 * batch becomes, under Continue On Fail, one error item per input item. A delivering batch is
 * prepared first: input problems, without Continue On Fail, send nothing.
 */
async function runBatch(
	context: IExecuteFunctions,
	operation: BatchOperation | DeliveringBatchOperation,
	itemCount: number,
): Promise<INodeExecutionData[]> {
	const indexes = Array.from({ length: itemCount }, (_, index) => index);
	let outputs: BatchOutput[];
	try {
		if (isDelivering(operation)) {
			const { plan, problems } = await operation.prepareBatch.call(context, indexes);
			if (problems.length && !context.continueOnFail()) {
				throw nothingSentError(
					new Map(
						problems.map(({ itemIndex, error }) => [
							itemIndex,
							toNodeError(context, error, itemIndex),
						]),
					),
				);
			}
			outputs = [
				...(await operation.deliverBatch.call(context, plan, new DeliveryPermit())),
				...problems.map(({ itemIndex, error }) => ({ error, inputs: [itemIndex] })),
			];
		} else {
			outputs = await operation.executeBatch.call(context, indexes);
		}
	} catch (caught) {
		const error = toNodeError(context, caught, 0);
		if (!context.continueOnFail()) throw error;
		return indexes.map((item) => ({
			json: errorJson(toNodeError(context, caught, item)),
			pairedItem: { item },
		}));
	}
	return batchItems(context, outputs, indexes, isDelivering(operation));
}

/**
 * Runs the chosen operation over the input items. Resource and operation cannot come from an
 * expression (noDataExpression), so they are read once.
 */
export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const resources: Record<string, ResourceDefinition> = registry;
	const itemCount = this.getInputData().length;
	const resource = this.getNodeParameter('resource', 0) as string;
	const operationName = this.getNodeParameter('operation', 0) as string;
	const has = (object: object, key: string) => Object.prototype.hasOwnProperty.call(object, key);
	const operation =
		has(resources, resource) && has(resources[resource].operations, operationName)
			? resources[resource].operations[operationName]
			: undefined;
	if (!operation) {
		throw new NodeOperationError(
			this.getNode(),
			`The operation "${operationName}" of resource "${resource}" is not supported`,
		);
	}
	if (isBatch(operation)) return [await runBatch(this, operation, itemCount)];
	if (isDelivering(operation)) return [await runDelivering(this, operation, itemCount)];
	return [await runPerItem(this, operation, itemCount)];
}
