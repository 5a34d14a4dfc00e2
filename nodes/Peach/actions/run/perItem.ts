import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { concurrently } from '../../transport/width';
import type { ItemOperation } from '../operation/node.type';
import type { NodeError } from './items';
import { errorItem, itemsOf, toNodeError } from './items';

/**
 * A per-item operation that delivers nothing, Max Concurrent Requests at a time. Outputs keep the
 * input order. Without Continue On Fail, the first failed item (in input order) is the error, and no
 * new item starts once one has failed; items already under way finish.
 */
export async function runPerItem(
	context: IExecuteFunctions,
	operation: ItemOperation,
	itemCount: number,
	continueOnFail: boolean,
): Promise<INodeExecutionData[]> {
	const results: Array<INodeExecutionData[] | NodeError> = [];
	let failed = false;
	await concurrently(
		context,
		Array.from({ length: itemCount }, (_, index) => index),
		(itemIndex) => recordOf(context, operation, itemIndex),
		async (itemIndex) => {
			if (failed) return;
			try {
				results[itemIndex] = itemsOf(await operation.execute.call(context, itemIndex), itemIndex);
			} catch (caught) {
				results[itemIndex] = toNodeError(context, caught, itemIndex, operation.properties);
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
