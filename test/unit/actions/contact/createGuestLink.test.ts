import { describe, expect, it } from 'vitest';

import { type Items, run } from './run';

describe('Contact → Update Communication Preferences, setup guest links', () => {
	it('create (extra fields as JSON), expire (DELETE, 204 → expired), regenerate', async () => {
		const create = await run({
			resource: 'contact',
			operation: 'createGuestLink',
			fieldsJson: '{"label": "Shop"}',
		});
		expect([
			create.requests[0].options.method,
			create.requests[0].url,
			create.requests[0].body,
		]).toEqual(['POST', 'https://peach.test/api/v1/setup_guest_links', { label: 'Shop' }]);
		const expire = await run(
			{ resource: 'contact', operation: 'expireGuestLink', guestLinkId: 'sgl_1' },
			[{ statusCode: 204, body: '' }],
		);
		expect([expire.requests[0].options.method, expire.requests[0].url]).toEqual([
			'DELETE',
			'https://peach.test/api/v1/setup_guest_links/sgl_1',
		]);
		expect((expire.output as Items)[0][0].json).toEqual({ expired: true });
		const regenerate = await run({
			resource: 'contact',
			operation: 'regenerateGuestLink',
			guestLinkId: 'sgl_1',
		});
		expect(regenerate.requests[0].url).toBe(
			'https://peach.test/api/v1/setup_guest_links/sgl_1/regenerate',
		);
	});
});
