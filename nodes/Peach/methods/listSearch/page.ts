import type {
	IDataObject,
	ILoadOptionsFunctions,
	INodeListSearchItems,
	INodeListSearchResult,
} from 'n8n-workflow';

import { isPlainObject } from '../../helpers/json';
import { type PageCursor, peachApiRequestPage } from '../../transport/paginate';
import type { PeachRequest } from '../../transport/types';

export function text(value: unknown): string {
	return typeof value === 'string' || typeof value === 'number' ? String(value) : '';
}

function parseToken(token: string | undefined): PageCursor | undefined {
	if (!token) return undefined;
	try {
		const cursor = JSON.parse(token) as unknown;
		return isPlainObject(cursor) && isPlainObject(cursor.qs)
			? { qs: cursor.qs, firstId: text(cursor.firstId) }
			: undefined;
	} catch {
		return undefined;
	}
}

/**
 * One page of a list search: one request per call. n8n asks for the next page with the
 * paginationToken when the user scrolls, so typing a filter never reads the whole list. Each
 * page is sorted by name.
 */
export async function searchPage(
	context: ILoadOptionsFunctions,
	request: PeachRequest,
	itemsKey: string[],
	paginationToken: string | undefined,
	toItem: (record: IDataObject) => INodeListSearchItems | undefined,
): Promise<INodeListSearchResult> {
	const { items, next } = await peachApiRequestPage.call(
		context,
		request,
		{ itemsKey },
		parseToken(paginationToken),
	);
	const results = items
		.map(toItem)
		.filter((item): item is INodeListSearchItems => item !== undefined)
		.sort((a, b) => a.name.localeCompare(b.name));
	return next ? { results, paginationToken: JSON.stringify(next) } : { results };
}
