import { describe, expect, it } from 'vitest';

import { run } from './run';

describe('Contact → Create or Update, Update, Get', () => {
	it('update: PATCH /contacts/{phone} with the + encoded; get: GET the same path; an empty update is refused', async () => {
		const { requests } = await run({
			resource: 'contact',
			operation: 'update',
			phoneNumber: '+919988776655',
			updateFields: { nickname: 'Ash', age: 31, gender: 'female' },
		});
		expect([requests[0].options.method, requests[0].url, requests[0].body]).toEqual([
			'PATCH',
			'https://peach.test/api/v1/contacts/%2B919988776655',
			{ nickname: 'Ash', gender: 'female', age: 31 },
		]);
		const get = await run({ resource: 'contact', operation: 'get', phoneNumber: '+919988776655' });
		expect([get.requests[0].options.method, get.requests[0].url]).toEqual([
			'GET',
			'https://peach.test/api/v1/contacts/%2B919988776655',
		]);
		const empty = await run({
			resource: 'contact',
			operation: 'update',
			phoneNumber: '+919988776655',
			updateFields: {},
		});
		expect((empty.output as Error).message).toBe(
			'Update Contact "(no changes)" would change nothing',
		);
	});
});
