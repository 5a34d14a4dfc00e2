import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { isSet } from '../../helpers/fields';
import { filtersOfItem, listFields, readList } from '../operation/list';
import type { ItemResult, OperationOption } from '../operation/node.type';
import { categoryOptions } from './shared';
import { apiPath } from '../../transport/path';

export const option: OperationOption = {
	name: 'Get Many',
	value: 'getMany',
	action: 'Get many templates',
	description: 'List WhatsApp templates, optionally only those of a status, category or language',
};

export const properties: INodeProperties[] = listFields(
	[
		{
			displayName: 'Category',
			name: 'category',
			type: 'options',
			options: categoryOptions,
			default: 'UTILITY',
		},
		{
			displayName: 'Language',
			name: 'language',
			type: 'string',
			default: '',
			placeholder: 'e.g. en_US',
			description: 'Language code, e.g. en or en_US',
		},
		{
			displayName: 'Status',
			name: 'status',
			type: 'options',
			// Peach documents no status list; these are the values seen in its docs and code.
			options: [
				{ name: 'Approved', value: 'approved' },
				{ name: 'Disabled', value: 'disabled' },
				{ name: 'Draft', value: 'draft' },
				{ name: 'Paused', value: 'paused' },
				{ name: 'Pending', value: 'pending' },
				{ name: 'Rejected', value: 'rejected' },
			],
			default: 'approved',
			description: 'An expression may give any other status Peach uses',
		},
	],
	'Peach lists every template; the node keeps the ones that match',
);

/** Whether a template matches the filters, ignoring case (Peach applies none of them itself). */
export function matchesFilters(template: IDataObject, filters: IDataObject): boolean {
	const same = (field: string, wanted: unknown) =>
		!isSet(wanted) ||
		String(template[field] ?? '').toLowerCase() === String(wanted).trim().toLowerCase();
	return (
		same('status', filters.status) &&
		same('category', filters.category) &&
		same('language', filters.language)
	);
}

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<ItemResult> {
	const filters = filtersOfItem(this, itemIndex);
	return await readList(
		this,
		itemIndex,
		{ path: apiPath`/whats_app_templates/` },
		{
			itemsKey: ['whats_app_templates', 'templates'],
			filter: (template) => matchesFilters(template, filters),
		},
	);
}
