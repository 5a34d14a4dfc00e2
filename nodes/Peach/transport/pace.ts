import type {
	ICredentialDataDecryptedObject,
	ICredentialsDecrypted,
	IDataObject,
	IExecuteFunctions,
	IHookFunctions,
	ILoadOptionsFunctions,
} from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import { isPlainObject } from '../helpers/json';

type Context = IExecuteFunctions | ILoadOptionsFunctions | IHookFunctions;

/** Peach is asked to answer within this by default; at most MAX_TIMEOUT_SECONDS. */
export const DEFAULT_TIMEOUT_SECONDS = 30;
export const MAX_TIMEOUT_SECONDS = 300;
export const MAX_CONCURRENCY = 20;

/** What one execution of the node shares between its items and requests. */
interface ExecutionState {
	/** No new request starts before this moment: a 429 slows every worker down. */
	pausedUntil: number;
	timeoutMs: number;
	concurrency: number;
	/** The credential, decrypted once for the whole execution (n8n decrypts it on every request otherwise). */
	credentials?: Promise<ICredentialsDecrypted>;
}

const states = new WeakMap<object, ExecutionState>();

/**
 * The Request Options of this execution (read once, from the first item: they cannot vary per item),
 * and its shared pause. For list searches and hooks, the defaults.
 */
export function executionState(context: Context): ExecutionState {
	let state = states.get(context);
	if (!state) {
		let options: IDataObject = {};
		if ('getInputData' in context) {
			const raw = (context as IExecuteFunctions).getNodeParameter('requestOptions', 0, {});
			options = isPlainObject(raw) ? raw : {};
		}
		const timeout = Number(options.timeout ?? DEFAULT_TIMEOUT_SECONDS);
		const concurrency = Number(options.concurrency ?? 1);
		state = {
			pausedUntil: 0,
			timeoutMs:
				Math.min(
					Math.max(Number.isFinite(timeout) ? timeout : DEFAULT_TIMEOUT_SECONDS, 1),
					MAX_TIMEOUT_SECONDS,
				) * 1000,
			concurrency: Math.min(
				Math.max(Number.isFinite(concurrency) ? Math.floor(concurrency) : 1, 1),
				MAX_CONCURRENCY,
			),
		};
		states.set(context, state);
	}
	return state;
}

/** Waits out a pause a 429 set (once: a later 429 sets a new pause for the next request). */
export async function waitForTurn(context: Context): Promise<void> {
	const wait = executionState(context).pausedUntil - Date.now();
	if (wait > 0) await sleep(Math.ceil(wait / 100) * 100);
}

/** A 429: no request of this execution starts for `seconds`, whichever item it is for. */
export function slowDown(context: Context, seconds: number): void {
	const state = executionState(context);
	state.pausedUntil = Math.max(state.pausedUntil, Date.now() + seconds * 1000);
}

/**
 * The node's credential, read (decrypted) once per execution and handed to n8n's authenticated
 * request, which then applies the credential's own authenticate() without reading it again.
 */
export async function credentialsOf(
	context: Context,
	type: string,
): Promise<ICredentialsDecrypted> {
	const state = executionState(context);
	state.credentials ??= (async () => {
		const reference = context.getNode().credentials?.[type];
		return {
			id: reference?.id ?? '',
			name: reference?.name ?? type,
			type,
			data: await context.getCredentials<ICredentialDataDecryptedObject>(type),
		};
	})();
	return await state.credentials;
}
