import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { returnAllAndLimit } from '../../descriptions/fields';
import { isSet } from '../../helpers/fields';
import { type ListOptions, peachApiRequestAllItems } from '../../transport/paginate';
import type { PeachRequest } from '../../transport/types';
import { limitOfItem } from '../item/itemParameters';

/**
 * What every Get Many operation shares: Return All and Limit, the Filters collection, and the one
 * read of every page (or up to Limit).
 */

/** Return All, Limit and, when the list has filters, a Filters collection of them. */
export function listFields(
	filters: INodeProperties[] = [],
	filtersDescription?: string,
): INodeProperties[] {
	if (filters.length === 0) return returnAllAndLimit();
	return [
		...returnAllAndLimit(),
		{
			displayName: 'Filters',
			name: 'filters',
			type: 'collection',
			placeholder: 'Add Filter',
			default: {},
			...(filtersDescription ? { description: filtersDescription } : {}),
			options: filters,
		},
	];
}

/** The item's Filters, `{}` when none were added. */
export function filtersOfItem(context: IExecuteFunctions, itemIndex: number): IDataObject {
	return context.getNodeParameter('filters', itemIndex, {}) as IDataObject;
}

/** Filters sent as they are, as text, under Peach's names (`{ status: 'status' }`). Pure. */
export function textQuery(filters: IDataObject, names: Record<string, string>): IDataObject {
	const qs: IDataObject = {};
	for (const [filter, parameter] of Object.entries(names)) {
		if (isSet(filters[filter])) qs[parameter] = String(filters[filter]);
	}
	return qs;
}

/**
 * Every record of the list, or the first Limit: a GET of `request`, page after page.
 * `pageSizeUpTo` sends Peach's page size (`per`): the Limit, at most that many.
 */
export async function readList(
	context: IExecuteFunctions,
	itemIndex: number,
	request: Omit<PeachRequest, 'method' | 'itemIndex'>,
	options: Omit<ListOptions, 'limit' | 'pageSize'> & { pageSizeUpTo?: number } = {},
): Promise<IDataObject[]> {
	const { pageSizeUpTo, ...listOptions } = options;
	const limit = limitOfItem(context, itemIndex);
	return await peachApiRequestAllItems.call(
		context,
		{ ...request, method: 'GET', itemIndex },
		{
			...listOptions,
			limit,
			...(pageSizeUpTo === undefined
				? {}
				: { pageSize: limit === undefined ? pageSizeUpTo : Math.min(limit, pageSizeUpTo) }),
		},
	);
}
