import type {
	IDataObject,
	IExecuteFunctions,
	IHookFunctions,
	ILoadOptionsFunctions,
} from 'n8n-workflow';

import { isPlainObject } from '../helpers/json';

/** Peach is asked to answer within this by default; at most MAX_TIMEOUT_SECONDS. */
export const DEFAULT_TIMEOUT_SECONDS = 30;
export const MAX_TIMEOUT_SECONDS = 300;
/** Items sent at the same time by default (each contact's items still one after another). */
export const DEFAULT_CONCURRENCY = 5;
export const MAX_CONCURRENCY = 20;

export interface RequestOptions {
	timeoutMs: number;
	concurrency: number;
}

const read = new WeakMap<object, RequestOptions>();

function clamp(value: unknown, fallback: number, min: number, max: number): number {
	const number = Number(value ?? fallback);
	return Math.min(Math.max(Number.isFinite(number) ? Math.floor(number) : fallback, min), max);
}

/**
 * The Request Options of this execution, read once from the first item (they cannot vary per item);
 * list searches and hooks get the defaults.
 */
export function requestOptionsOf(
	context: IExecuteFunctions | ILoadOptionsFunctions | IHookFunctions,
): RequestOptions {
	let options = read.get(context);
	if (!options) {
		let raw: IDataObject = {};
		if ('getInputData' in context) {
			const value = (context as IExecuteFunctions).getNodeParameter('requestOptions', 0, {});
			raw = isPlainObject(value) ? value : {};
		}
		options = {
			timeoutMs: clamp(raw.timeout, DEFAULT_TIMEOUT_SECONDS, 1, MAX_TIMEOUT_SECONDS) * 1000,
			concurrency: clamp(raw.concurrency, DEFAULT_CONCURRENCY, 1, MAX_CONCURRENCY),
		};
		read.set(context, options);
	}
	return options;
}
