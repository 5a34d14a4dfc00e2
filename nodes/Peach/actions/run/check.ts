import type { IExecuteFunctions } from 'n8n-workflow';

import { PeachInputError } from '../../helpers/inputError';
import type { Delivering, Delivery, PreparedDeliveries } from '../operation/node.type';
import type { NodeError } from './items';
import type { RunFailures } from './outcome';
import { nothingSentError } from './outcome';

/**
 * The first step of a delivering run (delivering.ts): every item read and checked before anything is
 * sent, and what names each delivery between tries (Request Options → Delivery Key).
 */

/** A delivering run as it goes: the node, the operation, and what failed so far. */
export interface Run {
	context: IExecuteFunctions;
	operation: Delivering;
	continueOnFail: boolean;
	failures: RunFailures;
	asError(caught: unknown, itemIndex: number): NodeError;
}

/**
 * Request Options → Delivery Key of an item: what names its delivery between tries, as the user's
 * data does; undefined when empty (the delivery is then named by what it sends).
 */
export function deliveryKeyOf(context: IExecuteFunctions, itemIndex: number): string | undefined {
	const value: unknown = context.getNodeParameter('requestOptions.deliveryKey', itemIndex, '');
	if (value === undefined || value === null) return undefined;
	const text = typeof value === 'string' ? value.trim() : JSON.stringify(value);
	return text === '' ? undefined : text;
}

/**
 * Deliveries to one recipient that share a Delivery Key cannot be told apart between tries: each of
 * them is refused, naming the key, before anything is sent.
 */
function sharedDeliveryKeys(
	context: IExecuteFunctions,
	deliveries: Array<Delivery<unknown>>,
	recipientOf: ((plan: unknown) => string | undefined) | undefined,
): Array<{ itemIndex: number; error: Error }> {
	const byKey = new Map<string, number[]>();
	for (const delivery of deliveries) {
		const key = deliveryKeyOf(context, delivery.inputs[0]);
		if (key === undefined) continue;
		const name = JSON.stringify([recipientOf?.(delivery.plan) ?? delivery.key ?? '', key]);
		byKey.set(name, [...(byKey.get(name) ?? []), delivery.inputs[0]]);
	}
	return [...byKey.entries()].flatMap(([name, items]) =>
		items.length < 2
			? []
			: items.map((itemIndex) => ({
					itemIndex,
					error: new PeachInputError(
						'Request Options → Delivery Key',
						String((JSON.parse(name) as string[])[1]),
						`names ${items.length} deliveries to the same recipient (items ${items.join(', ')})`,
						'Give each delivery its own key (e.g. {{ $json.order_id }}-{{ $json.kind }}), or leave the key empty: a delivery is then named by what it sends.',
					),
				})),
	);
}

/** Every item read and checked, as deliveries, and the items that cannot be delivered. */
async function prepareDeliveries(
	context: IExecuteFunctions,
	operation: Delivering,
	itemCount: number,
): Promise<PreparedDeliveries<unknown>> {
	const indexes = Array.from({ length: itemCount }, (_, index) => index);
	if ('prepareBatch' in operation) return await operation.prepareBatch.call(context, indexes);
	const prepared: PreparedDeliveries<unknown> = { deliveries: [], problems: [] };
	for (const itemIndex of indexes) {
		try {
			prepared.deliveries.push({
				inputs: [itemIndex],
				plan: await operation.prepare.call(context, itemIndex),
			});
		} catch (error) {
			prepared.problems.push({ itemIndex, error: error as Error });
		}
	}
	return prepared;
}

/** Step 1: every item read and checked; without Continue On Fail, one bad item sends nothing. */
export async function checkEveryItem(
	run: Run,
	itemCount: number,
): Promise<Array<Delivery<unknown>>> {
	const { context, operation, failures } = run;
	let prepared: PreparedDeliveries<unknown>;
	try {
		prepared = await prepareDeliveries(context, operation, itemCount);
	} catch (caught) {
		// A problem with fields every item shares (a batch): nothing can be delivered.
		const inputs = Array.from({ length: itemCount }, (_, index) => index);
		prepared = { deliveries: [], problems: [] };
		failures.add(inputs, run.asError(caught, 0));
	}
	const shared = sharedDeliveryKeys(context, prepared.deliveries, operation.recipientOf);
	const refused = new Set(shared.map(({ itemIndex }) => itemIndex));
	for (const { itemIndex, error } of [...prepared.problems, ...shared])
		failures.add([itemIndex], run.asError(error, itemIndex));
	if (failures.size && !run.continueOnFail) throw nothingSentError(failures.errors());
	return prepared.deliveries.filter(({ inputs }) => !refused.has(inputs[0]));
}
