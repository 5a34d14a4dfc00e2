import type {
	IDataObject,
	ILoadOptionsFunctions,
	INodeListSearchItems,
	INodeListSearchResult,
} from 'n8n-workflow';

import { matches, searchPage, text } from './page';

/** A condition as the list shows it: its friendly name and source. */
export function conditionListItem(expression: IDataObject): INodeListSearchItems {
	const name = text(expression.description) || text(expression.name) || text(expression.id);
	const source = text(expression.source);
	return { name: source ? `${name} (${source})` : name, value: text(expression.id) };
}

export async function searchConditions(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	return await searchPage(
		this,
		{ method: 'GET', path: '/expressions' },
		['expressions'],
		paginationToken,
		(expression) =>
			matches(filter, text(expression.description), text(expression.topic), text(expression.id))
				? conditionListItem(expression)
				: undefined,
	);
}
