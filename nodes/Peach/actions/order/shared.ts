import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { requireText } from '../../helpers/fields';
import { PeachInputError } from '../../helpers/inputError';

/** What the Order operations share: the order ID field and reading it, and amounts in minor units. */

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
