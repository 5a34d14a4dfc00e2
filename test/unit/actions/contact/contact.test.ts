import { NodeOperationError } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { CHUNK_SIZE } from '../../../../nodes/Peach/actions/contact/createMany.operation';
import { Peach } from '../../../../nodes/Peach/Peach.node';
import { createExecuteContext, type FakeResponse } from '../../support/harness';

async function run(
	params: Record<string, unknown> | Array<Record<string, unknown>>,
	responses: FakeResponse[] = [{ statusCode: 200, body: {} }],
	extra = {},
) {
	const harness = createExecuteContext({ params, responses, ...extra });
	const output = await new Peach().execute.call(harness.context).catch((e: unknown) => e);
	return { ...harness, output };
}
type Items = Array<Array<{ json: Record<string, unknown>; pairedItem: unknown }>>;

describe('Contact → Create or Update, Update, Get', () => {
	it('upsert: POST /contacts with the fields set, tags split, time zone checked', async () => {
		const { requests } = await run({
			resource: 'contact',
			operation: 'upsert',
			phoneNumber: '+91 99887 76655',
			additionalFields: {
				name: 'Asha',
				timezone: 'Asia/Kolkata',
				tags: 'vip, newsletter',
				optedOut: false,
				communicationPreference: 'disallow_marketing',
				metadata: { values: [{ key: 'tier', value: 'gold' }] },
			},
		});
		expect([requests[0].options.method, requests[0].url]).toEqual([
			'POST',
			'https://peach.test/api/v1/contacts',
		]);
		expect(requests[0].body).toEqual({
			phone_number: '+919988776655',
			name: 'Asha',
			timezone: 'Asia/Kolkata',
			tags: ['vip', 'newsletter'],
			opted_out: false,
			communication_preference: 'disallow_marketing',
			metadata: { tier: 'gold' },
		});
		const bad = await run({
			resource: 'contact',
			operation: 'upsert',
			phoneNumber: '+919988776655',
			additionalFields: { timezone: 'Asia/Mumbai' },
		});
		expect((bad.output as Error).message).toBe('Time Zone "Asia/Mumbai" is not an IANA time zone');
	});

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

describe('Contact → Create Many', () => {
	const row = (phone: string, name: string) => ({
		resource: 'contact',
		operation: 'createMany',
		phoneNumber: phone,
		contactFields: { name },
	});

	it('one POST /contacts with an array of all items; outputs paired one to one when Peach answers a list', async () => {
		const { requests, output } = await run(
			[row('+14155550101', 'A'), row('+14155550102', 'B')],
			[{ statusCode: 200, body: [{ id: 'ct_a' }, { id: 'ct_b' }] }],
		);
		expect(requests).toHaveLength(1);
		expect(requests[0].body).toEqual([
			{ phone_number: '+14155550101', name: 'A' },
			{ phone_number: '+14155550102', name: 'B' },
		]);
		expect((output as Items)[0].map((item) => [item.json.id, item.pairedItem])).toEqual([
			['ct_a', { item: 0 }],
			['ct_b', { item: 1 }],
		]);
	});

	it(`chunks by ${CHUNK_SIZE}; an answer that is not a list gives one item per chunk, paired to its rows`, async () => {
		const rows = Array.from({ length: CHUNK_SIZE + 2 }, (_, i) =>
			row(`+1415555${String(i).padStart(4, '0')}`, `N${i}`),
		);
		const { requests, output } = await run(rows, [
			{ statusCode: 200, body: { created: CHUNK_SIZE } },
			{ statusCode: 200, body: { created: 2 } },
		]);
		expect(requests.map((request) => (request.body as unknown[]).length)).toEqual([CHUNK_SIZE, 2]);
		const items = (output as Items)[0];
		expect(items.map((item) => item.json.contactCount)).toEqual([CHUNK_SIZE, 2]);
		expect((items[1].pairedItem as unknown[]).length).toBe(2);
	});

	it('names all bad rows at once and sends nothing; with Continue On Fail sends the good ones', async () => {
		const rows = [row('+14155550101', 'A'), row('4155550102', 'B'), row('x', 'C')];
		const refused = await run(rows);
		expect(refused.requests).toHaveLength(0);
		expect(refused.output).toBeInstanceOf(NodeOperationError);
		expect((refused.output as Error).message).toBe(
			'Contacts "2 bad rows" cannot be sent; nothing was sent',
		);
		expect((refused.output as NodeOperationError).description).toContain(
			'Item 2 → Phone Number "x" has no + and country code',
		);
		const partial = await run(rows, [{ statusCode: 200, body: [{ id: 'ct_a' }] }], {
			continueOnFail: true,
		});
		expect(
			(partial.output as Items)[0].map((item) => [
				item.json.id ?? item.json.error,
				item.pairedItem,
			]),
		).toEqual([
			['ct_a', { item: 0 }],
			['Item 1 → Phone Number "4155550102" has no + and country code', { item: 1 }],
			['Item 2 → Phone Number "x" has no + and country code', { item: 2 }],
		]);
	});
});

describe('Contact → Update Communication Preferences, setup guest links', () => {
	it('all input items in one request, or a list per item', async () => {
		const items = await run(
			['+14155550101', '+14155550102'].map((phone) => ({
				resource: 'contact',
				operation: 'updateCommunicationPreferences',
				source: 'items',
				phoneNumber: phone,
				communicationPreference: 'mute_all',
			})),
			[{ statusCode: 200, body: { updated: 2 } }],
		);
		expect(items.requests[0].url).toBe(
			'https://peach.test/api/v1/contacts/bulk_update_communication_preferences',
		);
		expect(items.requests[0].body).toEqual({
			phone_numbers: ['+14155550101', '+14155550102'],
			communication_preference: 'mute_all',
		});
		expect((items.output as Items)[0][0].pairedItem).toEqual([{ item: 0 }, { item: 1 }]);
		const list = await run({
			resource: 'contact',
			operation: 'updateCommunicationPreferences',
			source: 'list',
			phoneNumbers: '+14155550101,\n+14155550102',
			communicationPreference: 'allow_everything',
		});
		expect((list.requests[0].body as { phone_numbers: string[] }).phone_numbers).toEqual([
			'+14155550101',
			'+14155550102',
		]);
	});

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
