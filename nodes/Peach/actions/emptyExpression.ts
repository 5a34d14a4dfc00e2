import type { IExecuteFunctions } from 'n8n-workflow';

import { isPlainObject } from '../helpers/json';
import { nodeProperties } from './registry';

/**
 * The expression, as typed, behind the field the user sees as `field` in the item's operation
 * (`{{ $json.phone }}` for Phone Number), or undefined when the field holds a fixed value or is not
 * one of the operation's own fields. Named when a field came out empty, so the user knows which
 * expression gave nothing.
 */
export function expressionBehind(
	context: IExecuteFunctions,
	field: string,
	itemIndex: number,
): string | undefined {
	const resource = context.getNodeParameter('resource', itemIndex, '') as string;
	const operation = context.getNodeParameter('operation', itemIndex, '') as string;
	const property = nodeProperties().find(
		(candidate) =>
			candidate.displayName === field &&
			candidate.displayOptions?.show?.resource?.includes(resource) === true &&
			candidate.displayOptions?.show?.operation?.includes(operation) === true,
	);
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
