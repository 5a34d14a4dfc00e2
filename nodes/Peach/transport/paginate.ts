import type { IDataObject } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { isPlainObject } from '../helpers/json';
import { peachApiRequest } from './request';
import type { PeachContext, PeachRequest } from './types';

/**
 * Peach's list styles, all read here:
 * - `page` + `per` with `{count, next, prev, <key>: [...]}`, `next` being the next page's URL or null
 *   (template messages);
 * - `page` with `{count, next, previous, <key>: [...]}` (medias, messages);
 * - a bare array, where `page` may be honoured or ignored (templates);
 * - an object with the list under a named key and no `next`.
 */

const COMMON_LIST_KEYS = ['data', 'items', 'results', 'records'];

/** The records of a list answer: a bare array, or the array under `keys` (or any one array field). */
export function extractItems(response: unknown, keys: string[] = []): IDataObject[] {
	if (Array.isArray(response)) return response as IDataObject[];
	if (!isPlainObject(response)) return [];
	for (const key of [...keys, ...COMMON_LIST_KEYS]) {
		if (Array.isArray(response[key])) return response[key] as IDataObject[];
	}
	const arrays = Object.values(response).filter(Array.isArray);
	return arrays.length === 1 ? (arrays[0] as IDataObject[]) : [];
}

function identity(item: IDataObject | undefined): string {
	if (!item) return '';
	return item.id !== undefined ? String(item.id) : JSON.stringify(item);
}

/** Where a list stands after one page: the query of the next page, or undefined at the end. */
export interface PageCursor {
	/** Query parameters of the next page (page, per, and anything a `next` URL carries). */
	qs: IDataObject;
	/** The first record's identity of the page just read: an endpoint that ignores `page` repeats it. */
	firstId: string;
}

/**
 * The next page after one answer. `next` decides when the answer has one (a URL gives its query
 * parameters: the request stays on the same path and host, so the key never goes elsewhere);
 * otherwise an empty page, a short page or a repeated page ends the list.
 */
export function nextPage(
	response: unknown,
	items: IDataObject[],
	qs: IDataObject,
	previous: PageCursor | undefined,
	pageSize?: number,
): PageCursor | undefined {
	const page = Number(qs.page ?? 1);
	const firstId = identity(items[0]);
	if (items.length === 0) return undefined;
	if (previous && previous.firstId === firstId) return undefined;
	if (isPlainObject(response) && 'next' in response) {
		const next = response.next;
		if (next === null || next === undefined || next === '' || next === false) return undefined;
		if (typeof next === 'string' && /^https?:\/\//i.test(next)) {
			const fromUrl: IDataObject = {};
			for (const [key, value] of new URL(next).searchParams)
				fromUrl[key] = /^\d+$/.test(value) ? Number(value) : value;
			if (fromUrl.page !== undefined) return { qs: { ...qs, ...fromUrl }, firstId };
		}
		return { qs: { ...qs, page: page + 1 }, firstId };
	}
	if (pageSize !== undefined && items.length < pageSize) return undefined;
	return { qs: { ...qs, page: page + 1 }, firstId };
}

/** A safety stop for an endpoint that never ends. Reaching it is an error, never a silent cut. */
export const MAX_PAGES = 1000;

export interface ListOptions {
	/** Where the list is in an envelope, e.g. `['template_messages']`. */
	itemsKey?: string[];
	/** Records at most; undefined reads every page (Return All). */
	limit?: number;
	/** `per` to send (Peach's page size parameter, at most 1000) where the endpoint takes one. */
	pageSize?: number;
	maxPages?: number;
	/** Keeps only matching records, for filters Peach does not apply itself; Limit counts what is kept. */
	filter?: (record: IDataObject) => boolean;
}

/** One page of a list, with the cursor to the next one (for list searches: one page per call). */
export async function peachApiRequestPage(
	this: PeachContext,
	request: PeachRequest,
	options: ListOptions,
	cursor?: PageCursor,
): Promise<{ items: IDataObject[]; next?: PageCursor }> {
	const qs: IDataObject = cursor?.qs ?? {
		...request.qs,
		page: 1,
		...(options.pageSize !== undefined ? { per: options.pageSize } : {}),
	};
	const response = await peachApiRequest.call(this, { ...request, qs });
	const items = extractItems(response, options.itemsKey);
	const next = nextPage(response, items, qs, cursor, options.pageSize);
	// A page that repeats the previous one adds nothing.
	return {
		items: cursor && next === undefined && identity(items[0]) === cursor.firstId ? [] : items,
		next,
	};
}

/**
 * Every record of a list (Return All), or the first `limit`. Stops at the end of the list; reaching
 * `maxPages` with more pages left is an error that says how to narrow the list.
 */
export async function peachApiRequestAllItems(
	this: PeachContext,
	request: PeachRequest,
	options: ListOptions = {},
): Promise<IDataObject[]> {
	const items: IDataObject[] = [];
	const maxPages = options.maxPages ?? MAX_PAGES;
	let cursor: PageCursor | undefined;
	for (let page = 1; ; page++) {
		const result = await peachApiRequestPage.call(this, request, options, cursor);
		items.push(...(options.filter ? result.items.filter(options.filter) : result.items));
		if (options.limit !== undefined && items.length >= options.limit)
			return items.slice(0, options.limit);
		if (!result.next) return items;
		if (page >= maxPages) {
			throw new NodeOperationError(
				this.getNode(),
				`Stopped after ${maxPages} pages (${items.length} records) of ${request.path}: the list goes on`,
				{
					description:
						'Turn off Return All and set a Limit, or narrow the list with the filters, so the node does not read without end.',
					itemIndex: request.itemIndex,
				},
			);
		}
		cursor = result.next;
	}
}
