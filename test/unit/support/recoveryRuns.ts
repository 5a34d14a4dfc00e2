import type { IDataObject, INodeExecutionData, NodeApiError } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';
import { expect, vi } from 'vitest';

import { Peach } from '../../../nodes/Peach/Peach.node';
import {
	type ContextOptions,
	createExecuteContext,
	type FakeResponse,
	locator,
	NEVER_ANSWERED,
	type RecordedRequest,
	runPeach,
} from './harness';
import type { Lineage } from './n8nRecovery';

/**
 * Runs of the Peach node as n8n's recovery paths make them (n8nRecovery.ts models what each keeps),
 * and what Peach saw: the recovery and delivery-record tests share these.
 */

export const send = (phoneNumber: string, firstName = 'Asha') => ({
	resource: 'templateMessage',
	operation: 'send',
	phoneNumber,
	templateId: locator('wat_welcome'),
	variablesInput: 'fields',
	variables: { values: [{ key: 'first_name', value: firstName }] },
	contactFields: {},
	additionalFields: {},
});

/** Order → Refund of `amount` (paise) of order `orderId`, INR, at normal speed. */
export const refund = (orderId: string, amount: number) => ({
	resource: 'order',
	operation: 'refund',
	orderId,
	refundType: 'partial',
	amount,
	currency: 'INR',
	speed: 'normal',
});

/** Refunds of `amounts` of one order, one at a time (in input order). */
export const refundsInTurn = (orderId: string, amounts: number[]) =>
	amounts.map((amount) => ({ ...refund(orderId, amount), requestOptions: { concurrency: 1 } }));

/** `count` distinct phone numbers, from `from` (1-based). */
export const phones = (count: number, from = 1) =>
	Array.from({ length: count }, (_, index) => `+9199${String(index + from).padStart(8, '0')}`);

/** A send to each of `count` distinct phones (as `phones` gives them), `concurrency` at a time if set. */
export const sends = (count: number, concurrency?: number) =>
	phones(count).map((phone) =>
		concurrency === undefined ? send(phone) : { ...send(phone), requestOptions: { concurrency } },
	);

export const accepted = (eventId: string): FakeResponse => ({
	statusCode: 201,
	body: { status: 'success', event_id: eventId },
});

/** Peach's answer to each send: by the phone's position, e.g. evt_3 for the 3rd phone. */
export function answersFor(
	count: number,
	special: Record<number, FakeResponse | Error | typeof NEVER_ANSWERED> = {},
) {
	return Array.from(
		{ length: count },
		(_, index) => special[index] ?? accepted(`evt_${index + 1}`),
	);
}

export interface TryResult {
	output?: INodeExecutionData[][];
	error?: NodeApiError;
	requests: RecordedRequest[];
}

/** One try of the node in a fresh execute context: its output or the error it threw, and its requests. */
export async function tryOnce(options: ContextOptions): Promise<TryResult> {
	const { output, requests } = await runPeach(options);
	return output instanceof Error
		? { error: output as NodeApiError, requests }
		: { output, requests };
}

/**
 * A try that the process running it does not survive: it is gone once `requests` requests were made
 * (the node goes on until every lane waits for an answer that never comes), and what was under way
 * in the store has landed.
 */
export async function tryUntilKilled(
	options: ContextOptions,
	requests: number,
): Promise<TryResult> {
	const harness = createExecuteContext(options);
	void new Peach().execute.call(harness.context);
	await vi.waitFor(() => expect(harness.requests.length).toBe(requests), { timeout: 20_000 });
	await sleep(50);
	return { requests: harness.requests };
}

/** One try of the node in the given execution. */
export async function runTry(
	lineage: Lineage,
	params: Array<Record<string, unknown>>,
	responses: Array<FakeResponse | Error | typeof NEVER_ANSWERED>,
	options: { continueOnFail?: boolean; inputs?: IDataObject[] } = {},
): Promise<TryResult> {
	return await tryOnce({ params, responses, lineage, ...options });
}

/**
 * A try that the process running it does not survive: Peach answers the first `answered` requests,
 * the rest never; once every lane waits (`inFlight` requests under way), the process is gone.
 */
export async function crashingTry(
	lineage: Lineage,
	params: Array<Record<string, unknown>>,
	answered: number,
	inFlight: number,
	inputs?: IDataObject[],
): Promise<TryResult> {
	const responses = answersFor(params.length).map((answer, index) =>
		index < answered ? answer : NEVER_ANSWERED,
	);
	return await tryUntilKilled({ params, responses, lineage, inputs }, answered + inFlight);
}

export const phoneOf = (request: RecordedRequest) =>
	(request.body as { contact: { phone_number: string } }).contact.phone_number;

/** How many messages each phone got over all tries. */
export function messagesPerPhone(...tries: TryResult[]): Map<string, number> {
	const counts = new Map<string, number>();
	for (const result of tries)
		for (const request of result.requests)
			if (request.options.method === 'POST')
				counts.set(phoneOf(request), (counts.get(phoneOf(request)) ?? 0) + 1);
	return counts;
}

export const twice = (counts: Map<string, number>) => [...counts].filter(([, count]) => count > 1);

export const refused: FakeResponse = {
	statusCode: 422,
	body: { status: 'failed', reason: { contact: { phone_number: ['is blocked'] } } },
};
export const serverError: FakeResponse = { statusCode: 500, body: { message: 'Internal error' } };
