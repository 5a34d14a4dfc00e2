import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { PeachInputError } from '../helpers/inputError';
import { executionState } from '../transport/pace';
import type { BatchOperation, ItemOperation, ItemResult, ResourceDefinition } from './node.type';
import { isBatchOperation, ItemsWithBinary } from './node.type';
import { registry } from './registry';

/** Any failure of one item as the n8n error to show: input problems name the field, value and fix. */
export function toNodeError(
	context: IExecuteFunctions,
	error: unknown,
	itemIndex: number,
): NodeApiError | NodeOperationError {
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
function errorJson(error: NodeApiError | NodeOperationError): IDataObject {
	const json: IDataObject = { error: error.message };
	if (error.description) json.description = error.description;
	if (error instanceof NodeApiError && error.httpCode) json.httpCode = error.httpCode;
	return json;
}

function pairedItemOf(inputs: number[]) {
	return inputs.length === 1 ? { item: inputs[0] } : inputs.map((item) => ({ item }));
}

function itemsOf(result: ItemResult, itemIndex: number): INodeExecutionData[] {
	if (result instanceof ItemsWithBinary) {
		return result.items.map((item) => ({ ...item, pairedItem: { item: itemIndex } }));
	}
	return (Array.isArray(result) ? result : [result]).map((json) => ({
		json,
		pairedItem: { item: itemIndex },
	}));
}

/** One item's outputs, or its error (already a node error). */
async function runItem(
	context: IExecuteFunctions,
	operation: ItemOperation,
	itemIndex: number,
): Promise<INodeExecutionData[] | NodeApiError | NodeOperationError> {
	try {
		return itemsOf(await operation.execute.call(context, itemIndex), itemIndex);
	} catch (caught) {
		return toNodeError(context, caught, itemIndex);
	}
}

/**
 * A per-item operation over all items, `concurrency` at a time (Request Options; 1 by default).
 * Outputs keep the input order. Without Continue On Fail, the first failed item (in input order) is
 * the error, and no new item starts once one has failed; items already under way finish.
 */
async function runPerItem(
	context: IExecuteFunctions,
	operation: ItemOperation,
	itemCount: number,
): Promise<INodeExecutionData[]> {
	const results: Array<INodeExecutionData[] | NodeApiError | NodeOperationError> = [];
	const continueOnFail = context.continueOnFail();
	let next = 0;
	let failed = false;
	const worker = async () => {
		while (!failed && next < itemCount) {
			const itemIndex = next++;
			const result = await runItem(context, operation, itemIndex);
			results[itemIndex] = result;
			if (!Array.isArray(result) && !continueOnFail) failed = true;
		}
	};
	const concurrency = Math.min(executionState(context).concurrency, Math.max(itemCount, 1));
	await Promise.all(Array.from({ length: concurrency }, worker));
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
 * A batch operation: its outputs carry the input items they came from. A failure of the whole
 * batch becomes, under Continue On Fail, one error item per input item.
 */
async function runBatch(
	context: IExecuteFunctions,
	operation: BatchOperation,
	itemCount: number,
): Promise<INodeExecutionData[]> {
	const indexes = Array.from({ length: itemCount }, (_, index) => index);
	let outputs;
	try {
		outputs = await operation.executeBatch.call(context, indexes);
	} catch (caught) {
		const error = toNodeError(context, caught, 0);
		if (!context.continueOnFail()) throw error;
		return indexes.map((item) => ({
			json: errorJson(toNodeError(context, caught, item)),
			pairedItem: { item },
		}));
	}
	const result: INodeExecutionData[] = [];
	for (const output of outputs) {
		if ('error' in output) {
			const error = toNodeError(context, output.error, output.inputs[0] ?? 0);
			if (!context.continueOnFail()) throw error;
			result.push({ json: errorJson(error), pairedItem: pairedItemOf(output.inputs) });
		} else {
			const { inputs, ...item } = output;
			result.push({ ...item, pairedItem: pairedItemOf(inputs) });
		}
	}
	return result;
}

/**
 * Runs the chosen operation over the input items. Resource and operation cannot come from an
 * expression (noDataExpression), so they are read once.
 */
export async function router(
	this: IExecuteFunctions,
	resources: Record<string, ResourceDefinition> = registry,
): Promise<INodeExecutionData[][]> {
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
	return [
		isBatchOperation(operation)
			? await runBatch(this, operation, itemCount)
			: await runPerItem(this, operation, itemCount),
	];
}
