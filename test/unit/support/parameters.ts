import type { IDataObject, INodeParameters, INodeTypeDescription } from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

/**
 * A node's parameters as n8n holds them when it runs the node: what the user set, plus the
 * description's defaults, minus every field the description hides for these values (n8n's Workflow
 * resolves them the same way, with NodeHelpers.getNodeParameters).
 */
export function resolveParameters(
	description: INodeTypeDescription,
	given: Record<string, unknown>,
	typeVersion = 1,
): INodeParameters {
	const resolved = NodeHelpers.getNodeParameters(
		description.properties,
		given as INodeParameters,
		true,
		false,
		{ typeVersion },
		description,
	);
	if (!resolved) throw new Error('n8n resolved no parameters');
	return resolved;
}

function isLocator(value: unknown): value is { mode: string; value: unknown } {
	return typeof value === 'object' && value !== null && 'mode' in value && 'value' in value;
}

/** A value found at a name or dotted path (`additionalFields.replyAutomation`). */
export function lookup(map: unknown, name: string): unknown {
	let value: unknown = map;
	for (const part of name.split('.')) {
		if (typeof value !== 'object' || value === null || !(part in value)) return undefined;
		value = (value as Record<string, unknown>)[part];
	}
	return value;
}

const JSON_PATH = /^=\{\{\s*\$json((?:\.[A-Za-z_$][\w$]*)*)\s*\}\}$/;

/**
 * The value of an expression as n8n would give it, for the one form tests need: `={{ $json.a.b }}`
 * against the item's JSON. Any other expression is refused, so no test silently gets raw text.
 */
function evaluate(value: unknown, json: IDataObject): unknown {
	if (typeof value === 'string' && value.startsWith('=')) {
		const match = JSON_PATH.exec(value.trim());
		if (!match) throw new Error(`The unit harness evaluates only {{ $json.path }}, not ${value}`);
		return match[1] ? lookup(json, match[1].slice(1)) : json;
	}
	if (Array.isArray(value)) return value.map((entry) => evaluate(entry, json));
	if (typeof value === 'object' && value !== null) {
		const result: Record<string, unknown> = {};
		for (const [key, entry] of Object.entries(value)) result[key] = evaluate(entry, json);
		return result;
	}
	return value;
}

/**
 * evaluateExpression as n8n runs it (`{{ … }}`, the `=` added by n8n), for the forms tests need: one
 * `$json.path`, or an array of them, each in parentheses on lines of its own, as the node asks for an
 * item's expressions together (actions/item/itemExpressions.ts). Each call is recorded as a read named
 * `(expression)`. Anything else is refused, as `evaluate` refuses it.
 */
export function expressionEvaluator(
	jsonOf: (itemIndex: number) => IDataObject,
	reads: ParameterRead[],
) {
	return (expression: string, itemIndex: number): unknown => {
		reads.push({ name: '(expression)', itemIndex, extractValue: false, shown: true });
		const inner = /^\{\{\s*\[([\s\S]*)\]\s*\}\}$/.exec(expression);
		if (!inner) return evaluate(`=${expression}`, jsonOf(itemIndex));
		return inner[1].split(',').map((entry) =>
			evaluate(
				`={{ ${entry
					.trim()
					.replace(/^\(|\)$/g, '')
					.trim()} }}`,
				jsonOf(itemIndex),
			),
		);
	};
}

export interface ParameterRead {
	name: string;
	itemIndex: number;
	extractValue: boolean;
	/** Whether n8n would have the parameter: false for a field the description hides. */
	shown: boolean;
	/** Read as stored, expressions unevaluated (rawExpressions): no resolution by n8n. */
	raw?: true;
}

/**
 * getNodeParameter as n8n runs it on resolved parameters: the value at the path (expressions of the
 * form `{{ $json.path }}` evaluated against the item), `extractValue` unpacking a resource locator, the
 * fallback for a parameter n8n does not have, and an error when there is neither. Every read is
 * recorded, with whether the field is shown.
 */
export function parameterGetter(
	resolvedPerItem: (itemIndex: number) => INodeParameters,
	jsonOf: (itemIndex: number) => IDataObject,
	reads: ParameterRead[],
) {
	return (
		name: string,
		itemIndex: number,
		fallback?: unknown,
		options?: { extractValue?: boolean; rawExpressions?: boolean },
	) => {
		const found = lookup(resolvedPerItem(itemIndex), name);
		reads.push({
			name,
			itemIndex,
			extractValue: options?.extractValue === true,
			shown: found !== undefined,
			...(options?.rawExpressions ? { raw: true as const } : {}),
		});
		if (options?.rawExpressions) {
			// n8n returns the value at the path as stored, expressions unevaluated (n8n-core 2.40
			// node-execution-context.js, _getNodeParameter).
			if (found === undefined && fallback === undefined)
				throw new Error(`Could not get parameter "${name}"`);
			return found ?? fallback;
		}
		// As n8n: a parameter that is not there (and no fallback) throws; an expression that finds
		// nothing gives undefined.
		if (found === undefined && fallback === undefined)
			throw new Error(`Could not get parameter "${name}"`);
		const value = found === undefined ? fallback : evaluate(found, jsonOf(itemIndex));
		if (options?.extractValue && isLocator(value)) return value.value;
		return value;
	};
}
