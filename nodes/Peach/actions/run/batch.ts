import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import type { BatchOperation, BatchOutput } from '../operation/node.type';
import { errorItem, pairedItemOf, toNodeError } from './items';

/** A batch's outputs as items; without Continue On Fail the first error ends the run. */
function batchItems(
	context: IExecuteFunctions,
	operation: BatchOperation,
	outputs: BatchOutput[],
	continueOnFail: boolean,
): INodeExecutionData[] {
	const failed = outputs.find((output) => 'error' in output);
	if (failed && 'error' in failed && !continueOnFail)
		throw toNodeError(context, failed.error, failed.inputs[0] ?? 0, operation.properties);
	return outputs.map((output) =>
		'error' in output
			? errorItem(
					toNodeError(context, output.error, output.inputs[0] ?? 0, operation.properties),
					output.inputs,
				)
			: { json: output.json, pairedItem: pairedItemOf(output.inputs) },
	);
}

/**
 * A batch operation that delivers nothing: its outputs carry the input items they came from. A
 * failure of the whole batch becomes, under Continue On Fail, one error item per input item.
 */
export async function runBatch(
	context: IExecuteFunctions,
	operation: BatchOperation,
	itemCount: number,
	continueOnFail: boolean,
): Promise<INodeExecutionData[]> {
	const indexes = Array.from({ length: itemCount }, (_, index) => index);
	let outputs: BatchOutput[];
	try {
		outputs = await operation.executeBatch.call(context, indexes);
	} catch (caught) {
		const error = toNodeError(context, caught, 0, operation.properties);
		if (!continueOnFail) throw error;
		return indexes.map((item) =>
			errorItem(toNodeError(context, caught, item, operation.properties), [item]),
		);
	}
	return batchItems(context, operation, outputs, continueOnFail);
}
