import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { PeachInputError } from '../../helpers/inputError';
import { isPlainObject } from '../../helpers/json';
import type { ItemResult } from '../operation/node.type';

/**
 * What an item becomes in the node's output: Peach's answer paired to its input, or, when it failed,
 * the n8n error (with `itemIndex`) and the error item n8n's error output recognises.
 */

export type NodeError = NodeApiError | NodeOperationError;

/**
 * The expression, as typed, behind the field the user sees as `field` among the operation's `fields`
 * (`{{ $json.phone }}` for Phone Number), or undefined when it holds a fixed value. Named when a
 * field came out empty, so the user knows which expression gave nothing.
 */
function expressionBehind(
	context: IExecuteFunctions,
	fields: INodeProperties[],
	field: string,
	itemIndex: number,
): string | undefined {
	const property = fields.find((candidate) => candidate.displayName === field);
	if (!property) return undefined;
	let raw: unknown;
	try {
		raw = context.getNodeParameter(property.name, itemIndex, undefined, { rawExpressions: true });
	} catch {
		return undefined;
	}
	if (isPlainObject(raw) && raw.__rl === true) raw = raw.value;
	return typeof raw === 'string' && raw.startsWith('=') ? raw.slice(1).trim() : undefined;
}

/**
 * Any failure of one item as the n8n error to show: input problems name the field, value and fix,
 * and a field that came out empty names its expression (`fields`: the operation's own fields).
 */
export function toNodeError(
	context: IExecuteFunctions,
	error: unknown,
	itemIndex: number,
	fields: INodeProperties[],
): NodeError {
	if (error instanceof PeachInputError) {
		const expression =
			error.isEmpty || error.fixWith
				? expressionBehind(context, fields, error.field, itemIndex)
				: undefined;
		return new NodeOperationError(context.getNode(), error.message, {
			description:
				expression === undefined
					? error.fix
					: error.isEmpty
						? `${error.field} is ${expression}, which gave nothing for this item. ${error.fix}`
						: (error.fixWith?.(expression) ?? error.fix),
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
export function errorJson(error: NodeError): IDataObject {
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
export function errorItem(
	error: NodeError,
	inputs: number[],
	json = errorJson(error),
): INodeExecutionData {
	return { json, error, pairedItem: pairedItemOf(inputs) };
}

export function pairedItemOf(inputs: number[]) {
	return inputs.length === 1 ? { item: inputs[0] } : inputs.map((item) => ({ item }));
}

export function itemsOf(result: ItemResult, itemIndex: number): INodeExecutionData[] {
	return (Array.isArray(result) ? result : [result]).map((json) => ({
		json,
		pairedItem: { item: itemIndex },
	}));
}
