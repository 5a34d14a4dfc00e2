import type { IDataObject, INodeExecutionData } from 'n8n-workflow';
import { expect } from 'vitest';

import { type FakeResponse, NEVER_ANSWERED, type RecordedRequest } from './harness';
import { editorRetry, FakeDeduplicationStore, type Lineage, newExecution } from './n8nRecovery';
import { serverError, tryOnce, type TryResult, tryUntilKilled } from './recoveryRuns';

/**
 * What Peach keeps of orders, refunds and broadcasts in a unit test of n8n's retries, whatever n8n
 * does: it answers the node's requests by path (create and read an order, refund it, launch and
 * list broadcasts). `orderShape` decides how a read order shows its refunds (the docs show only `id`
 * and `status`); `next` overrides the next delivering answer (a 500 after Peach made it, an answer
 * never given).
 */

export type OrderShape =
	| 'refunds'
	| 'refunded amount'
	| 'status'
	| 'documented'
	| ((order: IDataObject) => IDataObject);

export type Answer = FakeResponse | typeof NEVER_ANSWERED;

/** Whatever answers the node's requests in a try: a ledger, or a test's own Peach. */
export interface Answers {
	answer(request: RecordedRequest): Answer;
}

const at = () => new Date().toISOString();
/**
 * When Peach dates what a delivering request made: 2 minutes in, as Peach's clock would after an
 * execution that ran that long, clear of the clock margin around the execution's start (what is
 * dated within it may be an earlier execution's: tests that need that date it themselves).
 */
const madeAt = () => new Date(Date.now() + 120_000).toISOString();

export class PeachLedger {
	readonly orders: IDataObject[] = [];
	readonly broadcasts: IDataObject[] = [];
	/** What happens to the next delivering requests after Peach made them (in order). */
	readonly next: Answer[] = [];

	constructor(public orderShape: OrderShape = 'refunds') {}

	order(id: string, extra: IDataObject = {}): IDataObject {
		const order: IDataObject = {
			id,
			status: 'completed',
			contact: { phone_number: '+919988776655' },
			items: [{ name: 'Mango box', amount: 30000, quantity: 1 }],
			refunds: [],
			...extra,
		};
		this.orders.push(order);
		return order;
	}

	private find(id: string) {
		return this.orders.find((order) => order.id === id || order.reference_id === id);
	}

	private shown(order: IDataObject): IDataObject {
		const refunds = order.refunds as IDataObject[];
		const refunded = refunds.reduce((sum, refund) => sum + (refund.value as number), 0);
		const rest = { ...order };
		delete rest.refunds;
		if (this.orderShape === 'refunds') return order;
		if (this.orderShape === 'refunded amount') return { ...rest, refunded_amount: refunded };
		if (this.orderShape === 'status')
			return { ...rest, status: refunded > 0 ? 'refunded' : order.status };
		if (this.orderShape === 'documented') return { id: order.id, status: order.status };
		return this.orderShape(order);
	}

	private made(answer: FakeResponse): Answer {
		return this.next.shift() ?? answer;
	}

	answer(request: RecordedRequest): Answer {
		const path = new URL(request.url).pathname.replace(/^\/api\/v1/, '');
		const body = (request.body ?? {}) as IDataObject;
		const method = request.options.method;
		const [, resource, id, sub] = path.split('/');
		if (resource === 'orders' && method === 'GET') {
			const order = this.find(decodeURIComponent(id));
			return order
				? { statusCode: 200, body: this.shown(order) }
				: { statusCode: 404, body: { message: 'Not found' } };
		}
		if (resource === 'orders' && method === 'POST' && !id) {
			if (typeof body.id === 'string' && this.find(body.id))
				return {
					statusCode: 422,
					body: { status: 'failed', reason: { id: ['has already been taken'] } },
				};
			const order = {
				...body,
				id: `wa_ord_${this.orders.length + 1}`,
				reference_id: body.id ?? null,
			};
			this.orders.push({ ...order, status: 'pending', refunds: [], created_at: at() });
			return this.made({ statusCode: 201, body: { ...order, status: 'pending' } });
		}
		if (resource === 'orders' && sub === 'refunds') {
			const order = this.find(decodeURIComponent(id)) as IDataObject;
			const amount = body.amount as IDataObject | undefined;
			const refund = {
				id: `rfnd_${(order.refunds as IDataObject[]).length + 1}`,
				value: amount?.value ?? 30000,
				currency: 'INR',
				status: 'processing',
				created_at: madeAt(),
			};
			(order.refunds as IDataObject[]).push(refund);
			return this.made({ statusCode: 201, body: refund });
		}
		if (resource === 'events' && body.event_type === 'send_broadcast') {
			const broadcast = body.broadcast as IDataObject;
			this.broadcasts.push({
				id: `cmp_${this.broadcasts.length + 1}`,
				name: broadcast.name,
				status: 'sending',
				whats_app_template_id: broadcast.whats_app_template_id,
				audience_id: broadcast.audience_id ?? null,
				created_at: madeAt(),
			});
			return this.made({
				statusCode: 200,
				body: { status: 'success', event_id: `evt_b${this.broadcasts.length}` },
			});
		}
		if (resource === 'broadcasts' && method === 'GET')
			return { statusCode: 200, body: { broadcasts: this.broadcasts, next: null } };
		if (resource === 'streams' && sub === 'events')
			return this.made({ statusCode: 200, body: { status: 'success', event_id: 'evt_t1' } });
		throw new Error(`The ledger has no answer for ${method} ${path}`);
	}
}

export type LedgerTry = TryResult;

/** What a try asked Peach, as `METHOD /path?query`. */
export const asked = (result: LedgerTry) =>
	result.requests.map((request) => {
		const url = new URL(request.url);
		return `${request.options.method} ${url.pathname.replace(/^\/api\/v1/, '')}${
			request.options.qs
				? `?${new URLSearchParams(request.options.qs as Record<string, string>)}`
				: ''
		}`;
	});

/** One try of the node in `lineage`, Peach answering from `ledger`. */
export async function ledgerTry(
	lineage: Lineage,
	params: Array<Record<string, unknown>>,
	ledger: Answers,
	continueOnFail = false,
): Promise<LedgerTry> {
	return await tryOnce({
		params,
		lineage,
		continueOnFail,
		answer: (request) => ledger.answer(request) as FakeResponse,
	});
}

/**
 * A first try in a new execution whose delivery Peach made but answered with a 500, then the editor's
 * Retry (Continue On Fail), Peach answering from `ledger` throughout: the Retry and its items.
 */
export async function unknownThenRetry(
	ledger: PeachLedger,
	params: Array<Record<string, unknown>>,
) {
	ledger.next.push(serverError);
	const original = newExecution();
	const first = await ledgerTry(original, params, ledger);
	expect(first.error?.httpCode).toBe('500');
	const retry = await ledgerTry(editorRetry(original), params, ledger, true);
	return { first, retry, items: (retry.output as INodeExecutionData[][])[0] };
}

/** A try whose process dies once `requests` requests were made (the last never answered). */
export async function ledgerCrash(
	lineage: Lineage,
	params: Array<Record<string, unknown>>,
	ledger: PeachLedger,
	requests: number,
): Promise<LedgerTry> {
	return await tryUntilKilled(
		{ params, lineage, answer: (request) => ledger.answer(request) as FakeResponse },
		requests,
	);
}

/**
 * A try in a new execution (n8n's deduplication store kept) whose process dies once `requests`
 * requests were made: that execution, for its crash's Retry.
 */
export async function crashedExecution(
	ledger: PeachLedger,
	params: Array<Record<string, unknown>>,
	requests: number,
): Promise<Lineage> {
	const original = newExecution(new FakeDeduplicationStore());
	await ledgerCrash(original, params, ledger, requests);
	return original;
}

/**
 * The execution `lineage` as it is some minutes later: every time its node context kept (an
 * outcome's `at`) moved back, so that an earlier request no longer counts as just ended.
 */
export function minutesLater(lineage: Lineage, minutes = 10): Lineage {
	const walk = (value: unknown): void => {
		if (Array.isArray(value)) value.forEach(walk);
		else if (value && typeof value === 'object')
			for (const [key, inner] of Object.entries(value as IDataObject)) {
				if (key === 'at' && typeof inner === 'string' && Number.isFinite(Date.parse(inner)))
					(value as IDataObject)[key] = new Date(
						Date.parse(inner) - minutes * 60_000,
					).toISOString();
				else walk(inner);
			}
	};
	walk(lineage.nodeContext);
	return lineage;
}
