import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { requireText } from '../../helpers/fields';
import { PeachInputError } from '../../helpers/inputError';
import { omitEmpty } from '../../helpers/payload';
import { minorUnits } from './shared';

/**
 * Order → Create's line items (create.operation.ts): the Line Items field, and each item as Peach
 * takes it, checked.
 */

/** What the contact pays for: a name, an amount and a quantity each, a sale amount if any. */
export const lineItemsField: INodeProperties = {
	displayName: 'Line Items',
	name: 'items',
	type: 'fixedCollection',
	typeOptions: { multipleValues: true },
	placeholder: 'Add Line Item',
	default: {},
	required: true,
	description: 'What the contact pays for. Amounts are in minor units: 12000 = ₹120.00.',
	options: [
		{
			displayName: 'Line Item',
			name: 'item',
			values: [
				{
					displayName: 'Name',
					name: 'name',
					type: 'string',
					default: '',
					placeholder: 'e.g. Mango box',
				},
				{
					displayName: 'Amount (Minor Units)',
					name: 'amount',
					type: 'number',
					default: 0,
					description: 'Price of one, in paise: 12000 = ₹120.00. Whole numbers only.',
				},
				{
					displayName: 'Quantity',
					name: 'quantity',
					type: 'number',
					default: 1,
					typeOptions: { minValue: 1 },
				},
				{
					displayName: 'Sale Amount (Minor Units)',
					name: 'saleAmount',
					type: 'number',
					default: 0,
					description: 'A reduced price of one, in paise (0 for none): 9900 = ₹99.00',
				},
			],
		},
	],
};

/** Every line item checked and in Peach's shape; at least one. Pure. */
export function lineItemsOf(items: IDataObject[]): IDataObject[] {
	if (items.length === 0) {
		throw new PeachInputError(
			'Line Items',
			'(none)',
			'is empty',
			'Add at least one line item with a name and an amount.',
		);
	}
	return items.map((item, index) => {
		const at = `Line Item ${index + 1}`;
		const quantity = minorUnits(`${at} → Quantity`, item.quantity ?? 1);
		if (quantity < 1)
			throw new PeachInputError(
				`${at} → Quantity`,
				quantity,
				'is less than 1',
				'Order at least one.',
			);
		const sale =
			item.saleAmount === undefined || item.saleAmount === 0 || item.saleAmount === ''
				? undefined
				: minorUnits(`${at} → Sale Amount`, item.saleAmount);
		return omitEmpty({
			name: requireText(`${at} → Name`, item.name, 'Name what is sold, e.g. Mango box.'),
			amount: minorUnits(`${at} → Amount`, item.amount),
			quantity,
			sale_amount: sale,
		});
	});
}
