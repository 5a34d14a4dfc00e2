import type {
	IDataObject,
	ILoadOptionsFunctions,
	INodeListSearchItems,
	INodeListSearchResult,
} from 'n8n-workflow';

import { matches, searchPage, text } from './page';

export function broadcastListItem(broadcast: IDataObject): INodeListSearchItems {
	const name = text(broadcast.name) || text(broadcast.id);
	const status = text(broadcast.status);
	return { name: status ? `${name} (${status})` : name, value: text(broadcast.id) };
}

export async function searchBroadcasts(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	return await searchPage(
		this,
		{ method: 'GET', path: '/broadcasts' },
		['broadcasts', 'campaigns'],
		paginationToken,
		(broadcast) =>
			matches(filter, text(broadcast.name), text(broadcast.id))
				? broadcastListItem(broadcast)
				: undefined,
	);
}
