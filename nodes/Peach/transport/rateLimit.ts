import { sleep } from 'n8n-workflow';

/** When the next request of an execution may start: a 429 slows every item of it down together. */
const pausedUntil = new WeakMap<object, number>();

/** Waits out a pause a 429 set (once: a later 429 sets a new pause for the next request). */
export async function waitForTurn(context: object): Promise<void> {
	const wait = (pausedUntil.get(context) ?? 0) - Date.now();
	if (wait > 0) await sleep(Math.ceil(wait / 100) * 100);
}

/** A 429: no request of this execution starts for `seconds`, whichever item it is for. */
export function slowDown(context: object, seconds: number): void {
	pausedUntil.set(context, Math.max(pausedUntil.get(context) ?? 0, Date.now() + seconds * 1000));
}
