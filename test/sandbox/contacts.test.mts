import { describe, expect, it } from 'vitest';

import { useSandbox } from './harness.mts';

const t = useSandbox();

describe('contacts', () => {
	it('creates or updates by phone number, merging metadata; checks time zone and phone', async () => {
		const created = await t.api('POST', '/api/v1/contacts', {
			phone_number: '+14155550123',
			name: 'Dee',
			timezone: 'Asia/Kolkata',
			metadata: { tier: 'gold', address: { city: 'Pune' } },
		});
		expect(created.status).toBe(201);
		const again = await t.api('POST', '/api/v1/contacts', {
			phone_number: '+14155550123',
			metadata: { address: { zip: '411001' } },
		});
		expect(again.json.id).toBe(created.json.id);
		expect(again.json.metadata).toEqual({ tier: 'gold', address: { city: 'Pune', zip: '411001' } });
		const bad = await t.api('POST', '/api/v1/contacts', {
			phone_number: '4155550123',
			timezone: 'Mars/Base',
		});
		expect(bad.json.reason.contact).toEqual({
			phone_number: ['is not a valid E.164 phone number (+ and country code)'],
			timezone: ['is not a known time zone'],
		});
	});

	it('creates many from an array, naming the bad rows by index', async () => {
		const many = await t.api('POST', '/api/v1/contacts', [
			{ phone_number: '+14155550201' },
			{ phone_number: '+14155550202', tags: ['vip'] },
		]);
		expect(many.status).toBe(200);
		expect(many.json).toHaveLength(2);
		const bad = await t.api('POST', '/api/v1/contacts', [
			{ phone_number: '+14155550203' },
			{ phone_number: 'x' },
		]);
		expect(Object.keys(bad.json.reason)).toEqual(['contacts[1]']);
	});

	it('gets and patches by URL-encoded phone number; bulk communication preferences', async () => {
		expect((await t.api('GET', '/api/v1/contacts/%2B919988776655')).json.name).toBe('Asha Rao');
		expect((await t.api('GET', '/api/v1/contacts/%2B10000000000')).status).toBe(404);
		const patched = await t.api('PATCH', '/api/v1/contacts/%2B919988776655', {
			nickname: 'Ash',
			age: 31,
		});
		expect(patched.json).toMatchObject({ nickname: 'Ash', age: 31 });
		expect((await t.api('PATCH', '/api/v1/contacts/%2B919988776655', { age: 3.5 })).status).toBe(
			422,
		);
		const bulk = await t.api('POST', '/api/v1/contacts/bulk_update_communication_preferences', {
			phone_numbers: ['+919988776655', '+10000000001'],
			communication_preference: 'disallow_marketing',
		});
		expect(bulk.json).toEqual({ updated: 1, not_found: 1 });
		expect(
			(
				await t.api('POST', '/api/v1/contacts/bulk_update_communication_preferences', {
					phone_numbers: ['+919988776655'],
					communication_preference: 'some',
				})
			).status,
		).toBe(422);
	});

	it('setup guest links: create, regenerate, expire (204); an expired link cannot be regenerated', async () => {
		const link = await t.api('POST', '/api/v1/setup_guest_links', { label: 'Shop' });
		expect(link.json).toMatchObject({ label: 'Shop', status: 'active' });
		const regenerated = await t.api('POST', `/api/v1/setup_guest_links/${link.json.id}/regenerate`);
		expect(regenerated.json.url).not.toBe(link.json.url);
		expect((await t.api('DELETE', `/api/v1/setup_guest_links/${link.json.id}`)).status).toBe(204);
		expect(
			(await t.api('POST', `/api/v1/setup_guest_links/${link.json.id}/regenerate`)).status,
		).toBe(422);
	});
});
