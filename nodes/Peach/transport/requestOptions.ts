import type {
	IDataObject,
	IExecuteFunctions,
	IHookFunctions,
	ILoadOptionsFunctions,
} from 'n8n-workflow';

import { isPlainObject } from '../helpers/json';
import { perExecution } from '../helpers/perExecution';
import { REQUEST_LIMITS } from '../helpers/requestLimits';

export interface RequestOptions {
	timeoutMs: number;
	concurrency: number;
	/** On a Retry, make again the deliveries an earlier try left with an unknown outcome. */
	resendUnknown: boolean;
}

function clamp(value: unknown, fallback: number, min: number, max: number): number {
	const number = Number(value ?? fallback);
	return Math.min(Math.max(Number.isFinite(number) ? Math.floor(number) : fallback, min), max);
}

/**
 * The Request Options of this execution, read once from the first item (they cannot vary per item);
 * list searches and hooks get the defaults.
 */
export const requestOptionsOf = perExecution(
	(context: IExecuteFunctions | ILoadOptionsFunctions | IHookFunctions): RequestOptions => {
		let raw: IDataObject = {};
		if ('getInputData' in context) {
			const value = (context as IExecuteFunctions).getNodeParameter('requestOptions', 0, {});
			raw = isPlainObject(value) ? value : {};
		}
		return {
			timeoutMs:
				clamp(
					raw.timeout,
					REQUEST_LIMITS.defaultTimeoutSeconds,
					1,
					REQUEST_LIMITS.maxTimeoutSeconds,
				) * 1000,
			concurrency: clamp(
				raw.concurrency,
				REQUEST_LIMITS.defaultConcurrency,
				1,
				REQUEST_LIMITS.maxConcurrency,
			),
			resendUnknown: raw.resendUnknown === true,
		};
	},
);

/**
 * The node's Dry Run switch for this execution, read once from the first item: check every item and
 * show what would be sent; send, upload and record nothing. Only operations that preview what they
 * send have it (elsewhere the switch is hidden and never read).
 */
export const dryRunOf = perExecution(
	(context: IExecuteFunctions | ILoadOptionsFunctions | IHookFunctions): boolean =>
		'getInputData' in context &&
		(context as IExecuteFunctions).getNodeParameter('dryRun', 0, false) === true,
);
