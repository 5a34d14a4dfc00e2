import type {
	IDataObject,
	ILoadOptionsFunctions,
	INodeListSearchItems,
	INodeListSearchResult,
} from 'n8n-workflow';

import { matches, searchPage, text } from './page';

export function mediaListItem(media: IDataObject): INodeListSearchItems {
	const name = text(media.filename) || text(media.media_url) || text(media.id);
	const type = text(media.content_type);
	return { name: type ? `${name} (${type})` : name, value: text(media.id) };
}

export async function searchMedias(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	return await searchPage(
		this,
		{ method: 'GET', path: '/medias' },
		['medias'],
		paginationToken,
		(media) =>
			matches(filter, text(media.filename), text(media.id), text(media.media_url))
				? mediaListItem(media)
				: undefined,
	);
}
