import type { IExecuteFunctions } from 'n8n-workflow';

import { perExecution } from '../../helpers/perExecution';

/**
 * An item's expressions evaluated together. n8n evaluates each expression of a parameter on its own,
 * and each evaluation is a trip into its expression sandbox: about 0.5 ms per expression and item on
 * n8n 2.x (`npm run bench`, (c)), so a Send with the phone, the name and a variable mapped paid it
 * three times per item where HTTP Request's one body expression pays it once. From the second item
 * on, the node asks n8n once per item for every mapped field of the parameters earlier items read,
 * as one array, and builds each parameter from those values, as n8n's `getNodeParameter` would.
 *
 * Only what n8n's mapping writes is asked together: a field that is exactly `={{ <path> }}`, where
 * the path reads an item's data (`$json`, `$input.item.json`, `$('Node').item.json`,
 * `$node["Node"].json`, then names, quoted keys and indexes). Such code calls nothing and changes
 * nothing, so it means in the array what it means alone, whatever else is there. Everything else is
 * read from n8n as before: any other code (a call, an operator, an extension such as `.isEmpty()`,
 * text around it), a value other than a text, a finite number or a boolean (n8n turns a date in an
 * object into text; nothing, null or an object is n8n's to give), and any error, after which this
 * execution reads every parameter from n8n, so that the error the user sees is n8n's own, naming its
 * parameter. A node with any other expression among its parameters (shown or not) reads every
 * parameter from n8n, in n8n's order: on n8n's legacy engine an expression gets the item itself, and
 * one that changes it (`$json.list.push(1)`) would otherwise change what a field asked before it
 * read. No node property has `validateType`, so n8n's check against the schema changes none of these
 * values (a unit test holds that).
 */

/** A key of the path: `.name`, `['text']`, `["text"]` or `[0]`. */
const KEY = String.raw`(?:\.[A-Za-z_$][\w$]*|\[(?:'[^'\\\n\r]*'|"[^"\\\n\r]*"|\d+)\])`;
/** Where the path starts: the item's data, as n8n's mapping writes it. */
const ROOT = String.raw`(?:\$json|\$input\.item\.json|\$\((?:'[^'\\\n\r]*'|"[^"\\\n\r]*")\)\.item\.json|\$node\[(?:'[^'\\\n\r]*'|"[^"\\\n\r]*")\]\.json)`;
const MAPPED = new RegExp(`^\\s*${ROOT}${KEY}*\\s*$`);

/** A mapped field's code (between `={{` and `}}`), or undefined when the text is not one. */
function pureCode(text: string): string | undefined {
	if (!text.startsWith('={{') || !text.endsWith('}}')) return undefined;
	const code = text.slice(3, -2);
	return MAPPED.test(code) ? code : undefined;
}

/** The codes of a stored value's expressions, or undefined when one of them is not pure. */
function codesIn(raw: unknown, codes: string[] = []): string[] | undefined {
	if (typeof raw === 'string') {
		if (!raw.startsWith('=')) return codes;
		const code = pureCode(raw);
		if (code === undefined) return undefined;
		codes.push(code);
		return codes;
	}
	if (typeof raw !== 'object' || raw === null) return codes;
	for (const entry of Object.values(raw)) if (codesIn(entry, codes) === undefined) return undefined;
	return codes;
}

const NOT_TOGETHER = Symbol('read from n8n');

/** A value the array gives exactly as n8n gives it alone. */
function isPlain(value: unknown): boolean {
	return (
		typeof value === 'string' ||
		typeof value === 'boolean' ||
		(typeof value === 'number' && Number.isFinite(value))
	);
}

/** The stored value with each expression replaced by its value; NOT_TOGETHER where one is not plain. */
function filledIn(raw: unknown, values: Map<string, unknown>): unknown {
	if (typeof raw === 'string') {
		if (!raw.startsWith('=')) return raw;
		const value = values.get(pureCode(raw) as string);
		return isPlain(value) ? value : NOT_TOGETHER;
	}
	if (typeof raw !== 'object' || raw === null) return raw;
	const entries = Object.entries(raw).map(([key, entry]) => [key, filledIn(entry, values)]);
	if (entries.some(([, value]) => value === NOT_TOGETHER)) return NOT_TOGETHER;
	return Array.isArray(raw) ? entries.map(([, value]) => value) : Object.fromEntries(entries);
}

/** How many items' values are kept (a per-item run reads a few items at once). */
const ITEMS_KEPT = 16;

/** One execution's expressions, asked together per item. */
class Together {
	/** The parameters read so far with an expression, and their stored value. */
	private readonly parameters = new Map<string, unknown>();
	/** Every distinct code of those parameters, in the order first read. */
	private codes: string[] = [];
	private array?: string;
	/** Per item, the value of each code. */
	private readonly items = new Map<number, Map<string, unknown>>();
	private off = false;

	constructor(private readonly context: IExecuteFunctions) {
		// Any other expression in the node could change the item's data (a call such as push, n8n's
		// legacy engine hands it the item itself) between two fields: then n8n's order is kept.
		this.off = codesIn(context.getNode().parameters) === undefined;
	}

	/** The parameter's value for the item, or NOT_TOGETHER: read it from n8n. */
	valueOf(name: string, raw: unknown, itemIndex: number): unknown {
		if (this.off) return NOT_TOGETHER;
		if (!this.parameters.has(name) || this.parameters.get(name) !== raw) {
			this.learn(name, raw);
			return NOT_TOGETHER;
		}
		const values = this.valuesFor(itemIndex);
		return values ? filledIn(raw, values) : NOT_TOGETHER;
	}

	/**
	 * A parameter read for the first time (from n8n): its codes join the array from the next item.
	 * Every expression of the node is a mapped path (or this execution is off), so each has codes.
	 */
	private learn(name: string, raw: unknown): void {
		const codes = codesIn(raw);
		if (codes === undefined) {
			this.off = true;
			return;
		}
		this.parameters.set(name, raw);
		const added = codes.filter((code) => !this.codes.includes(code));
		if (!added.length) return;
		this.codes = [...this.codes, ...added];
		this.array = undefined;
		this.items.clear();
	}

	/** The item's values of every code, evaluated in one call; undefined when that failed. */
	private valuesFor(itemIndex: number): Map<string, unknown> | undefined {
		const kept = this.items.get(itemIndex);
		if (kept) return kept;
		this.array ??= `{{ [${this.codes.join(', ')}] }}`;
		let result: unknown;
		try {
			result = this.context.evaluateExpression(this.array, itemIndex);
		} catch {
			this.off = true;
			return undefined;
		}
		if (!Array.isArray(result) || result.length !== this.codes.length) {
			this.off = true;
			return undefined;
		}
		const values = new Map(this.codes.map((code, index) => [code, result[index] as unknown]));
		if (this.items.size >= ITEMS_KEPT) this.items.delete(this.items.keys().next().value as number);
		this.items.set(itemIndex, values);
		return values;
	}
}

const togetherOf = perExecution((context: IExecuteFunctions) => new Together(context));

/**
 * The value of a parameter with an expression for an item, from the item's expressions asked together,
 * or NOT_TOGETHER when it is to be read from n8n (its first read, or one of the cases above).
 */
export function togetherValueOf(
	context: IExecuteFunctions,
	name: string,
	raw: unknown,
	itemIndex: number,
): unknown {
	return togetherOf(context).valueOf(name, raw, itemIndex);
}

export { NOT_TOGETHER };
