import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { requireText } from '../../helpers/fields';
import { PeachInputError } from '../../helpers/inputError';
import { isPlainObject } from '../../helpers/json';
import { omitEmpty } from '../../helpers/payload';
import { apiPath, segment } from '../../transport/path';
import { peachApiRequest } from '../../transport/request';

/**
 * What the Order operations share: the order ID field and reading it, amounts in minor units, and
 * reading one order (Get; a later try's look at what an earlier one made: refund.witness.ts,
 * create.witness.ts).
 */

/** Peach lists no orders, so the ID is typed or mapped (e.g. from an order webhook). */
export const orderIdField: INodeProperties = {
	displayName: 'Order ID',
	name: 'orderId',
	type: 'string',
	required: true,
	default: '={{ $json.id }}',
	placeholder: 'e.g. wa_ord_1234abcd',
	description:
		"Peach's order ID (wa_ord_...). By default the ID in the input item, as a Create or an order webhook gives it.",
};

export function orderIdOf(context: IExecuteFunctions, itemIndex: number): string {
	return requireText(
		'Order ID',
		context.getNodeParameter('orderId', itemIndex),
		"Use Peach's order ID (wa_ord_...), e.g. {{ $json.id }} after a Create.",
	);
}

/** A whole, non-negative amount in minor units; decimals are refused with the conversion shown. */
export function minorUnits(field: string, value: unknown): number {
	const amount = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
	if (typeof amount !== 'number' || !Number.isFinite(amount) || amount < 0) {
		throw new PeachInputError(
			field,
			value,
			'is not an amount',
			'Give the amount in minor units, e.g. 12000 for ₹120.00.',
		);
	}
	if (!Number.isInteger(amount)) {
		throw new PeachInputError(
			field,
			value,
			'has decimals, but amounts are in minor units',
			`Give paise, not rupees: ${amount} rupees is ${Math.round(amount * 100)}.`,
		);
	}
	return amount;
}

/** A field's value as a whole amount in minor units (`12000`, `"12000"`, `{value: 12000}`), else undefined. */
export function amountOf(value: unknown): number | undefined {
	const raw = isPlainObject(value) ? value.value : value;
	const amount = typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : raw;
	return typeof amount === 'number' && Number.isInteger(amount) && amount >= 0 ? amount : undefined;
}

/**
 * The order Peach has under `id` (`GET /api/v1/orders/{orderId}`, docs/peach-api.md 7.2: Peach's ID, or, as
 * 7.3 names it, the reference order ID, i.e. your own where you gave one), out of an `order` or `data`
 * envelope; undefined where Peach has none (404). Any other failure is thrown.
 */
export async function findOrder(
	context: IExecuteFunctions,
	id: string,
): Promise<IDataObject | undefined> {
	const answer: unknown = await peachApiRequest
		.call(context, {
			method: 'GET',
			path: apiPath`/orders/${segment('Order ID', id)}`,
			notFound: { label: 'Order', id },
		})
		.catch((error: unknown) => {
			if (error instanceof NodeApiError && error.httpCode === '404') return undefined;
			throw error;
		});
	if (answer === undefined) return undefined;
	if (!isPlainObject(answer)) return {};
	for (const key of ['order', 'data'])
		if (isPlainObject(answer[key]) && answer.id === undefined) return answer[key] as IDataObject;
	return answer;
}

/** One refund, read and checked: the order and the body. */
export interface RefundPlan {
	orderId: string;
	body: IDataObject;
}

/** An amount in minor units as rupees: 12000 → "₹120.00". Pure. */
export const rupees = (value: number, currency = 'INR'): string =>
	new Intl.NumberFormat('en-IN', { style: 'currency', currency }).format(value / 100);

/**
 * What was asked, first beside Peach's answer: `amount` in paise and `amountRupees` (300000 →
 * "₹3,000.00"), so a minor-unit amount is not misread; or `wholeOrder: true`. Pure.
 */
export function refundAsked(body: IDataObject): IDataObject {
	const amount = body.amount as { currency: string; value: number } | undefined;
	if (amount === undefined) return { wholeOrder: true };
	return {
		amount: amount.value,
		amountRupees: rupees(amount.value, amount.currency),
		currency: amount.currency,
	};
}

/** Paise beside rupees, for a person checking an order: `{amount: 12000, amountRupees: "₹120.00"}`. Pure. */
function money(name: string, value: unknown): IDataObject {
	return typeof value === 'number' ? { [name]: value, [`${name}Rupees`]: rupees(value) } : {};
}

/**
 * An order's body as a person checks it (a Dry Run's `preview`): the contact, your Order ID, each
 * line with its amounts in paise beside rupees, and when it would expire (the epoch seconds sent,
 * as a date). Pure.
 */
export function orderAsked(body: IDataObject): IDataObject {
	const contact = isPlainObject(body.contact) ? body.contact : {};
	const lines = Array.isArray(body.items) ? (body.items as unknown[]).filter(isPlainObject) : [];
	const expires = isPlainObject(body.expiration) ? body.expiration.timestamp : undefined;
	return omitEmpty({
		to: contact.phone_number,
		orderId: body.id,
		items: lines.map((line) => ({
			name: line.name,
			quantity: line.quantity,
			...money('amount', line.amount),
			...money('saleAmount', line.sale_amount),
		})),
		expiresAt: typeof expires === 'number' ? new Date(expires * 1000).toISOString() : undefined,
	});
}
