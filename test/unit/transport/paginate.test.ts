import { NodeOperationError } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import {
	extractItems,
	nextPage,
	peachApiRequestAllItems,
	peachApiRequestPage,
} from '../../../nodes/Peach/transport/paginate';
import { apiPath } from '../../../nodes/Peach/transport/path';
import { createExecuteContext, type FakeResponse } from '../support/harness';

/** A context whose Peach answers `pages` in order (the functions under test are called in it). */
const answering = (...pages: FakeResponse[]) =>
	createExecuteContext({ params: {}, responses: pages });

/** Peach's 200 answer with `body`. */
const ok = (body: unknown): FakeResponse => ({ statusCode: 200, body });

describe('pagination', () => {
	it('follows next until it is null, with page numbers', async () => {
		const { context, requests } = answering(
			ok({
				count: 3,
				next: 'https://peach.test/api/v1/medias?page=2',
				previous: null,
				medias: [{ id: 1 }, { id: 2 }],
			}),
			ok({ count: 3, next: null, previous: 'x', medias: [{ id: 3 }] }),
		);
		const items = await peachApiRequestAllItems.call(
			context,
			{ method: 'GET', path: apiPath`/medias` },
			{ itemsKey: ['medias'] },
		);
		expect(items.map((item) => item.id)).toEqual([1, 2, 3]);
		expect(requests.map((request) => request.options.qs)).toEqual([{ page: 1 }, { page: 2 }]);
	});

	it('takes the next page from a next URL (page and per), on its own path and host', async () => {
		const { context, requests } = answering(
			ok({
				count: 3,
				next: 'https://elsewhere.example/api/v1/template_messages?page=2&per=2',
				prev: null,
				template_messages: [{ id: 1 }, { id: 2 }],
			}),
			ok({ count: 3, next: null, prev: 'x', template_messages: [{ id: 3 }] }),
		);
		const items = await peachApiRequestAllItems.call(
			context,
			{ method: 'GET', path: apiPath`/template_messages`, qs: { broadcast_id: 'cmp_1' } },
			{ itemsKey: ['template_messages'], pageSize: 2 },
		);
		expect(items.map((item) => item.id)).toEqual([1, 2, 3]);
		expect(requests.map((request) => request.url)).toEqual([
			'https://peach.test/api/v1/template_messages',
			'https://peach.test/api/v1/template_messages',
		]);
		expect(requests.map((request) => request.options.qs)).toEqual([
			{ broadcast_id: 'cmp_1', page: 1, per: 2 },
			{ broadcast_id: 'cmp_1', page: 2, per: 2 },
		]);
	});

	it('a short page ends a list read with a page size', () => {
		expect(nextPage([{ id: 1 }], [{ id: 1 }], { page: 1, per: 2 }, undefined, 2)).toBeUndefined();
		expect(
			nextPage([{ id: 1 }, { id: 2 }], [{ id: 1 }, { id: 2 }], { page: 1 }, undefined, 2),
		).toEqual({
			qs: { page: 2 },
			firstId: '1',
		});
	});

	it('reaching the page cap is an error that says how to narrow the list, never a silent cut', async () => {
		const { context, requests } = answering(
			...[1, 2, 3].map((page) =>
				ok({ next: `https://peach.test/api/v1/medias?page=${page + 1}`, medias: [{ id: page }] }),
			),
		);
		const error = (await peachApiRequestAllItems
			.call(context, { method: 'GET', path: apiPath`/medias`, itemIndex: 4 }, { maxPages: 3 })
			.catch((caught: unknown) => caught)) as NodeOperationError;
		expect(error).toBeInstanceOf(NodeOperationError);
		expect(error.message).toBe('Stopped after 3 pages (3 records) of /medias: the list goes on');
		expect(error.description).toContain('set a Limit');
		expect(error.context.itemIndex).toBe(4);
		expect(requests).toHaveLength(3);
	});

	it('reads one page at a time with a cursor to the next (list search)', async () => {
		const { context, requests } = answering(
			ok([{ id: 'a' }, { id: 'b' }]),
			ok([{ id: 'a' }, { id: 'b' }]),
		);
		const first = await peachApiRequestPage.call(context, { method: 'GET', path: apiPath`/x` }, {});
		expect(first.items.map((item) => item.id)).toEqual(['a', 'b']);
		expect(first.next).toEqual({ qs: { page: 2 }, firstId: 'a' });
		// An endpoint that ignores `page` answers the same page again: that is the end, with nothing new.
		const second = await peachApiRequestPage.call(
			context,
			{ method: 'GET', path: apiPath`/x` },
			{},
			first.next,
		);
		expect(second).toEqual({ items: [], next: undefined });
		expect(requests).toHaveLength(2);
	});

	it('reads bare-array pages until an empty page', async () => {
		const { context, requests } = answering(
			ok([{ id: 'a' }, { id: 'b' }]),
			ok([{ id: 'c' }]),
			ok([]),
		);
		const items = await peachApiRequestAllItems.call(context, {
			method: 'GET',
			path: apiPath`/whats_app_templates/`,
		});
		expect(items.map((item) => item.id)).toEqual(['a', 'b', 'c']);
		expect(requests).toHaveLength(3);
	});

	it('stops when an endpoint ignores page and repeats the first page', async () => {
		const page = ok([{ id: 'a' }, { id: 'b' }]);
		const { context, requests } = answering(page, page);
		const items = await peachApiRequestAllItems.call(context, {
			method: 'GET',
			path: apiPath`/whats_app_templates/`,
		});
		expect(items.map((item) => item.id)).toEqual(['a', 'b']);
		expect(requests).toHaveLength(2);
	});

	it('stops at the limit without reading further pages', async () => {
		const { context, requests } = answering(
			ok({ next: 'more', data: [{ id: 1 }, { id: 2 }, { id: 3 }] }),
		);
		const items = await peachApiRequestAllItems.call(
			context,
			{ method: 'GET', path: apiPath`/x` },
			{ limit: 2 },
		);
		expect(items).toEqual([{ id: 1 }, { id: 2 }]);
		expect(requests).toHaveLength(1);
	});

	it('extracts items from the shapes Peach uses', () => {
		expect(extractItems([{ id: 1 }])).toEqual([{ id: 1 }]);
		expect(
			extractItems({ template_messages: [{ id: 1 }], count: 1 }, ['template_messages']),
		).toEqual([{ id: 1 }]);
		expect(extractItems({ streams: [{ id: 2 }] })).toEqual([{ id: 2 }]);
		expect(extractItems({ a: [], b: [] })).toEqual([]);
		expect(extractItems('nope')).toEqual([]);
	});
});
