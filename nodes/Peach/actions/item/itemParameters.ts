import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { isSet, requireText } from '../../helpers/fields';
import { checkMedia } from '../../helpers/media';
import { normalizeContactPhoneNumber } from '../../helpers/phone';
import { isPlainObject } from '../../helpers/json';
import { rowsOf } from '../../helpers/payload';
import { perExecution } from '../../helpers/perExecution';
import type { GivenVariables, VariablesMode } from '../../helpers/variableValues';
import { givenVariables } from '../../helpers/variableValues';
import { NOT_TOGETHER, togetherValueOf } from './itemExpressions';

/**
 * Parameter readings several operations share. Only the parameters of the chosen mode are read, so
 * no expression is evaluated for a field the user does not see. When to read through these rather
 * than getNodeParameter: the top of operation/node.type.ts.
 */

/** Whether a parameter's stored value holds an expression anywhere (n8n's rule: text starting with =). */
function holdsExpression(raw: unknown): boolean {
	if (typeof raw === 'string') return raw.startsWith('=');
	if (Array.isArray(raw)) return raw.some(holdsExpression);
	if (typeof raw === 'object' && raw !== null) return Object.values(raw).some(holdsExpression);
	return false;
}

/** Per execution, per parameter read: the value stored in the workflow, and what n8n gave for it. */
const readsOf = perExecution((): Map<string, { raw: unknown; value?: unknown }> => new Map());

/**
 * `getNodeParameter` for an item of a run over many items. A parameter without an expression (the
 * same stored value as the item before) has the same value for every item, so n8n resolves and
 * checks it once per execution and later items get that value; one with an expression is resolved
 * for each item, as always. n8n's reading of a parameter costs about as much as the node's own work
 * on an item (`npm run bench:profile`). The value is shared between items: it is only read. One with
 * an expression is, from the second item on, built from the item's expressions asked together
 * (itemExpressions.ts) where that gives what n8n would.
 */
export function parameterOfItem(
	context: IExecuteFunctions,
	name: string,
	itemIndex: number,
	fallback?: unknown,
	options: { extractValue?: boolean } = {},
): unknown {
	const raw = context.getNodeParameter(name, itemIndex, fallback, { rawExpressions: true });
	const reads = readsOf(context);
	const key = options.extractValue ? `${name}\0value` : name;
	const before = reads.get(key);
	if (before && before.raw === raw && 'value' in before) return before.value;
	const withExpression = before?.raw === raw || holdsExpression(raw);
	if (withExpression && !options.extractValue) {
		const together = togetherValueOf(context, name, raw, itemIndex);
		if (together !== NOT_TOGETHER) return together;
	}
	const value = context.getNodeParameter(name, itemIndex, fallback, options);
	if (before?.raw !== raw) reads.set(key, withExpression ? { raw } : { raw, value });
	return value;
}

/** The template variables one item gives (helpers/variableValues.ts), read once, with what the user wrote. */
export interface ItemVariables extends GivenVariables {
	/** Where the user gives them: Variables, Other Template Variables, Global Variables… */
	field: string;
	/**
	 * What the user wrote for the variable `name` (an expression, as typed), for a message; undefined
	 * when there is none to show (JSON mode, a fixed value, no such row). Read only when asked.
	 */
	expressionOf(name: string): string | undefined;
	/** The value given for `name` (an empty one included), for a message. */
	rawValueOf(name: string): unknown;
}

/**
 * The template variables of one item, from the mode its `variablesInput` names (read once); only the
 * parameters of that mode are read, by the one rule of helpers/variableValues.ts.
 */
export function variablesOfItem(
	context: IExecuteFunctions,
	itemIndex: number,
	field = 'Variables',
): ItemVariables {
	const mode = parameterOfItem(context, 'variablesInput', itemIndex, 'fields') as string;
	const parameter = { template: 'variablesMapped', fields: 'variables', json: 'variablesJson' }[
		mode as VariablesMode
	];
	const fallback = mode === 'json' ? '' : {};
	const given = parameter ? parameterOfItem(context, parameter, itemIndex, fallback) : undefined;
	const raw = (): unknown =>
		parameter
			? context.getNodeParameter(parameter, itemIndex, fallback, { rawExpressions: true })
			: undefined;
	const input = { rows: given, json: given, mapped: given };
	const { values, empty } = givenVariables(mode, input, field);
	const valueIn = (source: unknown, name: string): unknown => {
		if (mode === 'template')
			return isPlainObject(source) && isPlainObject(source.value) ? source.value[name] : undefined;
		if (mode === 'fields')
			return rowsOf(source).find((row) => typeof row.key === 'string' && row.key.trim() === name)
				?.value;
		return undefined;
	};
	return {
		values,
		empty,
		field,
		expressionOf: (name) => {
			const written = valueIn(raw(), name);
			return typeof written === 'string' && written.startsWith('=')
				? written.slice(1).trim()
				: undefined;
		},
		rawValueOf: (name) => valueIn(given, name),
	};
}

/** `liquid_values` of the given variables: the filled ones, or undefined when there are none. */
export function liquidValuesOf(variables: GivenVariables): IDataObject | undefined {
	return Object.keys(variables.values).length ? variables.values : undefined;
}

/**
 * An operation's `recordOf` (operation/node.type.ts): the record its item changes, read from one parameter (a
 * locator's value or an ID; a contact's number as Peach knows it, so `+91 99887 76655` and
 * `+919988776655` are one contact). The per-item run (run/perItem.ts) keeps one record's items in turn.
 */
export function recordIn(parameter: string, kind: 'id' | 'contact' = 'id') {
	return function recordOf(this: IExecuteFunctions, itemIndex: number): string | undefined {
		const value = parameterOfItem(this, parameter, itemIndex, '', { extractValue: true });
		if (kind === 'contact') return normalizeContactPhoneNumber('Phone Number', value);
		return typeof value === 'string' || typeof value === 'number'
			? String(value).trim()
			: undefined;
	};
}

/** A resource locator's value (From List or By ID), required: `fix` says how to give it. */
export function locatorValueOf(
	context: IExecuteFunctions,
	itemIndex: number,
	name: string,
	field: string,
	fix: string,
): string {
	return requireText(
		field,
		parameterOfItem(context, name, itemIndex, '', { extractValue: true }),
		fix,
	);
}

/**
 * The reply automation's ID from the locator inside Additional Fields, read by its own path so n8n's
 * locator extraction applies; undefined when it was not added.
 */
export function replyAutomationOfItem(
	context: IExecuteFunctions,
	itemIndex: number,
	additionalFields: IDataObject,
): string | undefined {
	if (!isSet(additionalFields.replyAutomation)) return undefined;
	return locatorValueOf(
		context,
		itemIndex,
		'additionalFields.replyAutomation',
		'Reply Automation',
		'Pick an automation From List, or enter its ID By ID (e.g. strm_1234abcd or aiflw_1234abcd).',
	);
}

/** Return All / Limit: the Limit, or undefined for Return All. */
export function limitOfItem(context: IExecuteFunctions, itemIndex: number): number | undefined {
	return context.getNodeParameter('returnAll', itemIndex, false)
		? undefined
		: (context.getNodeParameter('limit', itemIndex, 50) as number);
}

/** A file in an item's binary data, checked by what n8n knows of it before its bytes are read. */
export interface BinaryFile {
	itemIndex: number;
	/** The binary field that holds it, e.g. data. */
	property: string;
	fileName: string;
	contentType: string;
	/** Its kind for WhatsApp: image, video, audio or document. */
	kind: string;
}

/**
 * The file in the item's binary field `property`: refused when missing, of a type Peach does not
 * take, or (when n8n knows its size) too large for its kind. Reads no bytes.
 */
export function binaryFileOfItem(
	context: IExecuteFunctions,
	itemIndex: number,
	property: string,
	fileName?: unknown,
): BinaryFile {
	const binary = context.helpers.assertBinaryData(itemIndex, property);
	const name = (typeof fileName === 'string' && fileName.trim()) || binary.fileName || 'file';
	const kind = checkMedia(
		name,
		binary.mimeType,
		typeof binary.bytes === 'number' ? binary.bytes : undefined,
	);
	return { itemIndex, property, fileName: name, contentType: binary.mimeType, kind };
}

/** The file's bytes, read once and checked again by their real size. */
export async function bytesOfFile(context: IExecuteFunctions, file: BinaryFile): Promise<Buffer> {
	const bytes = await context.helpers.getBinaryDataBuffer(file.itemIndex, file.property);
	checkMedia(file.fileName, file.contentType, bytes.length);
	return bytes;
}
