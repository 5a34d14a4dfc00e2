import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { isPlainObject } from '../../helpers/json';
import { markNotSent } from '../../transport/outcome';
import type { PeachWitness } from '../operation/node.type';
import { amountOf, findOrder } from './shared';

/**
 * Order → Create with your own Order ID (`id`, docs/peach-api.md 7.1): an order Peach already has under
 * that ID, with the contents asked (contact, line items, type, as far as Peach shows them), was
 * made: it comes back `alreadySent` with Peach's order, whether a later try finds it (the witness)
 * or Peach answers the create with its refusal of a duplicate ID (a 409 or 422 whose words say the ID
 * is taken: `duplicateIdRefusal`). An order under that ID with other contents stays an error that
 * names the ID and the fix. Without an ID of yours, Peach lists no orders: the record decides alone.
 */

const digits = (value: unknown) => (typeof value === 'string' ? value.replace(/\D/g, '') : '');

/** Peach's words of a refusal that an ID is taken (Rails' "has already been taken" and kin). */
const DUPLICATE_WORDS = /already|duplicate|taken|exists|not unique|in use/i;

/** Whether two line items are the same: name, amount, quantity (1 when absent), sale amount. Pure. */
function sameItem(asked: IDataObject, shown: unknown): boolean {
	if (!isPlainObject(shown)) return false;
	const sale = (item: IDataObject) => amountOf(item.sale_amount) || undefined;
	return (
		String(shown.name ?? '').trim() === String(asked.name ?? '').trim() &&
		amountOf(shown.amount) === amountOf(asked.amount) &&
		(amountOf(shown.quantity) ?? 1) === (amountOf(asked.quantity) ?? 1) &&
		sale(shown) === sale(asked)
	);
}

/**
 * Whether the order Peach shows is the one `asked` (the create's body): true, false, or why it
 * cannot tell (Peach's order shows neither its contact nor its items). Pure.
 */
export function sameOrder(asked: IDataObject, order: IDataObject): boolean | string {
	const same: boolean[] = [];
	const reference = order.reference_id;
	if (typeof reference === 'string' && order.id !== asked.id) same.push(reference === asked.id);
	const contact = isPlainObject(order.contact) ? order.contact : {};
	const phone = contact.phone_number ?? order.phone_number ?? order.contact_phone_number;
	const askedContact = isPlainObject(asked.contact) ? asked.contact : {};
	let contents = 0;
	if (phone !== undefined) {
		contents++;
		same.push(digits(phone) === digits(askedContact.phone_number));
	}
	const items = order.items ?? order.line_items;
	if (Array.isArray(items)) {
		contents++;
		const askedItems = (asked.items as unknown as IDataObject[] | undefined) ?? [];
		same.push(
			items.length === askedItems.length &&
				askedItems.every((item, index) => sameItem(item, items[index])),
		);
	}
	if (typeof order.type === 'string' && typeof asked.type === 'string')
		same.push(order.type === asked.type);
	if (contents === 0)
		return `Peach's order ${String(asked.id)} shows neither its contact nor its line items, so it cannot be compared with this one.`;
	return same.every(Boolean);
}

const MADE_NOTE = (id: string) =>
	`Not created again: Peach already has order ${id} (your Order ID) with these contents.`;

export const createWitness: PeachWitness<IDataObject, IDataObject> = {
	sourceOf: (body) =>
		typeof body.id === 'string' && body.id !== ''
			? { source: body.id }
			: {
					cannotTell:
						'The order has no Order ID of yours, and Peach lists no orders, so Peach cannot tell whether it was made.',
				},
	async read(this: IExecuteFunctions, id: string) {
		const order = await findOrder(this, id);
		return order ? [order] : [];
	},
	matches: sameOrder,
	shown: (body, order) => ({ json: order, note: MADE_NOTE(String(body.id)) }),
};

/** Whether Peach refused a create because its Order ID is taken (a 409, or a 422 that says so). */
export function duplicateIdRefusal(error: unknown): error is NodeApiError {
	return (
		error instanceof NodeApiError &&
		(error.httpCode === '409' || error.httpCode === '422') &&
		DUPLICATE_WORDS.test(error.message)
	);
}

/**
 * Peach refused a create with your Order ID as taken: the order it has under that ID, read, is this
 * one (`alreadySent`, with Peach's order), or the refusal stands, naming the ID and the fix (nothing
 * was created by this request).
 */
export async function orderMadeBefore(
	context: IExecuteFunctions,
	body: IDataObject,
	refusal: NodeApiError,
	itemIndex: number,
): Promise<IDataObject> {
	const id = String(body.id);
	const order = await findOrder(context, id);
	const same = order ? sameOrder(body, order) : `Peach does not find order ${id} when asked.`;
	if (order && same === true) return { ...order, alreadySent: { at: null, note: MADE_NOTE(id) } };
	const why = typeof same === 'string' ? same : `Its contents differ from this order's.`;
	throw markNotSent(
		new NodeOperationError(
			context.getNode(),
			`Peach already has an order with Order ID "${id}" (${refusal.message})`,
			{
				itemIndex,
				description: `${why} Nothing was created. Give this order an Order ID of its own (Additional Fields → Order ID), or leave it empty; to see the existing one, use Order → Get with ID ${id}.`,
			},
		),
	);
}
