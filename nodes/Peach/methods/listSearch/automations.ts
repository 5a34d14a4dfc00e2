import type {
	IDataObject,
	ILoadOptionsFunctions,
	INodeListSearchItems,
	INodeListSearchResult,
} from 'n8n-workflow';

import { matches, searchPage, text } from './page';

export function automationListItem(automation: IDataObject): INodeListSearchItems {
	const name = text(automation.name) || text(automation.id);
	const status = text(automation.status);
	return { name: status ? `${name} (${status})` : name, value: text(automation.id) };
}

export async function searchAutomations(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	return await searchPage(
		this,
		{ method: 'GET', path: '/streams' },
		['streams', 'automations'],
		paginationToken,
		(automation) =>
			matches(filter, text(automation.name), text(automation.id))
				? automationListItem(automation)
				: undefined,
	);
}
