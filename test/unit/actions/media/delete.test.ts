import { describe, expect, it } from 'vitest';

import { locator } from '../../support/harness';
import { run } from './run';

describe('Media → Get Many, Delete', () => {
	it('lists over count/next/previous and deletes by ID (204 → deleted)', async () => {
		const list = await run({ resource: 'media', operation: 'getMany', returnAll: true }, [
			{ statusCode: 200, body: { count: 1, next: null, previous: null, medias: [{ id: 12 }] } },
		]);
		expect(list.requests[0].url).toBe('https://peach.test/api/v1/medias');
		const gone = await run(
			{ resource: 'media', operation: 'delete', mediaId: locator('12', 'id') },
			[{ statusCode: 204, body: '' }],
		);
		expect([gone.requests[0].options.method, gone.requests[0].url]).toEqual([
			'DELETE',
			'https://peach.test/api/v1/medias/12',
		]);
		expect((gone.output as Array<Array<{ json: unknown }>>)[0][0].json).toEqual({
			deleted: true,
			id: '12',
		});
	});

	it("a media:// URL is not the file's ID: it is looked up in the list by media_url (Peach pairs id 11 with media://12)", async () => {
		const medias = {
			count: 2,
			next: null,
			previous: null,
			medias: [
				{ id: 12, media_url: 'media://13', filename: 'b.png' },
				{ id: 11, media_url: 'media://12', filename: 'a.png' },
			],
		};
		const gone = await run(
			{ resource: 'media', operation: 'delete', mediaId: locator('media://12', 'id') },
			[
				{ statusCode: 200, body: medias },
				{ statusCode: 204, body: '' },
			],
		);
		expect(gone.requests.map((request) => `${request.options.method} ${request.url}`)).toEqual([
			'GET https://peach.test/api/v1/medias',
			'DELETE https://peach.test/api/v1/medias/11',
		]);
		const unknown = await run(
			{ resource: 'media', operation: 'delete', mediaId: locator('media://99', 'id') },
			[{ statusCode: 200, body: medias }],
		);
		expect(unknown.requests).toHaveLength(1);
		expect((unknown.output as Error).message).toBe(
			'Media "media://99" is not the media_url of any file in the media list',
		);
	});
});
