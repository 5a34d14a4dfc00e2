import { createHash } from 'node:crypto';

import { describe, expect, it } from 'vitest';

import { useSandbox } from './harness.mts';

const t = useSandbox();
const md5 = (bytes: Buffer) => createHash('md5').update(bytes).digest('base64');

describe('media: the direct upload', () => {
	it('direct upload → PUT to storage with exactly its headers (no key) → finalize → served', async () => {
		const bytes = Buffer.from(
			await (await fetch(`${t.sandbox.url}/samples/brochure.pdf`)).arrayBuffer(),
		);
		const created = await t.api('POST', '/api/v1/medias/direct_uploads', {
			blob: {
				filename: 'brochure.pdf',
				content_type: 'application/pdf',
				byte_size: bytes.length,
				checksum: md5(bytes),
			},
		});
		expect(created.status).toBe(200);
		const { url, headers } = created.json.direct_upload;
		expect(url).toMatch(/\/storage\/uploads\//);
		const withKey = await fetch(url, {
			method: 'PUT',
			headers: { ...headers, Authorization: 'test-sandbox-key' },
			body: bytes,
		});
		expect(withKey.status).toBe(403);
		const wrong = await fetch(url, {
			method: 'PUT',
			headers,
			body: Buffer.concat([bytes, Buffer.from('x')]),
		});
		expect(wrong.status).toBe(400);
		expect(
			(await t.api('POST', '/api/v1/medias/finalize', { signed_id: created.json.signed_id }))
				.status,
		).toBe(422);
		expect((await fetch(url, { method: 'PUT', headers, body: bytes })).status).toBe(204);
		const media = await t.api('POST', '/api/v1/medias/finalize', {
			signed_id: created.json.signed_id,
		});
		// As in Peach's docs, the number in the media URL is the stored blob's, not the media's ID.
		expect(media.json).toMatchObject({ filename: 'brochure.pdf', media_url: 'media://101' });
		expect(media.json.id).not.toBe(101);
		const served = await fetch(`${t.sandbox.url}/storage/media/${media.json.id}`);
		expect(Buffer.from(await served.arrayBuffer()).equals(bytes)).toBe(true);
		expect(
			t.sandbox.state.storageRequests.filter((r) => r.headerNames.includes('authorization')),
		).toHaveLength(1);
	});

	it('refuses a type Peach does not take and a file over the limit, as blob reasons', async () => {
		const big = await t.api('POST', '/api/v1/medias/direct_uploads', {
			blob: {
				filename: 'big.png',
				content_type: 'image/png',
				byte_size: 10 * 1024 * 1024,
				checksum: 'AAAAAAAAAAAAAAAAAAAAAA==',
			},
		});
		expect(big.json.reason).toEqual({
			blob: { byte_size: ['is too large (max 5242880 bytes for image/png)'] },
		});
		const exe = await t.api('POST', '/api/v1/medias/direct_uploads', {
			filename: 'x.exe',
			content_type: 'application/x-msdownload',
			byte_size: 10,
			checksum: 'AAAAAAAAAAAAAAAAAAAAAA==',
		});
		expect(exe.json.reason.blob.content_type).toEqual([
			'application/x-msdownload is not supported',
		]);
	});

	it('lists with count/next/previous and deletes with 204', async () => {
		const list = await t.api('GET', '/api/v1/medias');
		expect(list.json).toMatchObject({
			count: 1,
			next: null,
			previous: null,
			medias: [{ id: 11, media_url: 'media://12' }],
		});
		expect((await t.api('DELETE', '/api/v1/medias/11')).status).toBe(204);
		expect((await t.api('DELETE', '/api/v1/medias/11')).status).toBe(404);
	});
});

describe('automations, triggers, the condition library', () => {
	it('lists the condition library by source', async () => {
		const stripe = await t.api('GET', '/api/v1/expressions?source=stripe');
		expect(stripe.json.expressions.map((e: { id: string }) => e.id)).toEqual(['exp_stripe_paid']);
	});

	it('creates triggers from a condition, with the documented error codes', async () => {
		const create = (body: Record<string, unknown>) =>
			t.api('POST', '/api/v1/streams/strm_welcome/triggers', body);
		const ambiguous = await create({ condition: 'Order Paid' });
		expect([ambiguous.status, ambiguous.json.code]).toEqual([409, 'condition_ambiguous']);
		const notConnected = await create({ condition: 'Order Paid', source: 'stripe' });
		expect([notConnected.status, notConnected.json.code]).toEqual([
			409,
			'event_source_not_connected',
		]);
		const missing = await create({
			expression_id: 'exp_order_paid_not',
			variables: { key_path: '$.x' },
		});
		expect([missing.status, missing.json.code]).toEqual([422, 'missing_variables']);
		const unknown = await create({ condition: 'Moon landed' });
		expect([unknown.status, unknown.json.code]).toEqual([404, 'condition_not_found']);
		const made = await create({
			condition: 'order paid',
			source: 'peach_shopify',
			activate: true,
			description: 'Paid',
		});
		expect(made.json).toMatchObject({
			status: 'active',
			condition: { expression_id: 'exp_order_paid' },
		});
		const draft = await create({ expression_id: 'exp_cart' });
		expect(draft.json.status).toBe('draft');
	});

	it('triggers a published automation for a contact with the payload at the top level', async () => {
		const run = await t.api('POST', '/api/v1/streams/strm_welcome/events', {
			contact: { phone_number: '+919988776655' },
			order_id: 'A-7',
		});
		expect(run.json).toEqual({ status: 'success', event_id: expect.stringMatching(/^evt_/) });
		expect(t.sandbox.state.automationRuns[0].body).toEqual({
			contact: { phone_number: '+919988776655' },
			order_id: 'A-7',
		});
		const draft = await t.api('POST', '/api/v1/streams', { name: 'Draft' });
		const refused = await t.api('POST', `/api/v1/streams/${draft.json.id}/events`, {
			contact: { phone_number: '+919988776655' },
		});
		expect(refused.json.reason.stream[0]).toBe(
			'is draft: only a published automation can be triggered',
		);
	});
});

describe('media: header media in template messages', () => {
	/** Uploads a sample file the documented way; its media:// URL. */
	async function upload(name: string, type: string): Promise<string> {
		const bytes = Buffer.from(
			await (await fetch(`${t.sandbox.url}/samples/${name}`)).arrayBuffer(),
		);
		const created = await t.api('POST', '/api/v1/medias/direct_uploads', {
			blob: { filename: name, content_type: type, byte_size: bytes.length, checksum: md5(bytes) },
		});
		const { url, headers } = created.json.direct_upload;
		await fetch(url, { method: 'PUT', headers, body: bytes });
		return (await t.api('POST', '/api/v1/medias/finalize', { signed_id: created.json.signed_id }))
			.json.media_url;
	}
	const send = (template: string, headerMedia: unknown) =>
		t.api('POST', '/api/v1/events', {
			event_type: 'send_template_message',
			contact: { phone_number: '+919988776655' },
			template_message: {
				whats_app_template_id: template,
				liquid_values: { first_name: 'Asha', header_media: headerMedia },
			},
		});

	it("takes an uploaded file of the header's kind, as a media:// URL or {link, filename}", async () => {
		const pdf = await upload('brochure.pdf', 'application/pdf');
		const png = await upload('logo.png', 'image/png');
		expect((await send('wat_invoice', { link: pdf, filename: 'invoice.pdf' })).status).toBe(201);
		expect((await send('wat_offer', png)).status).toBe(201);
		expect((await t.api('GET', '/__sandbox/storage')).json).toEqual({
			directUploads: 2,
			filesReceived: 2,
			medias: 3,
			storageRequests: 2,
		});
	});

	it('refuses a file of another kind, an unknown media:// URL and media for a template without a media header', async () => {
		const png = await upload('logo.png', 'image/png');
		const wrongKind = await send('wat_invoice', png);
		expect(wrongKind.status).toBe(422);
		expect(wrongKind.json.reason).toEqual({
			template_message: {
				'liquid_values.header_media': [
					`${png} is image/png, but the template's header is document`,
				],
			},
		});
		expect((await send('wat_invoice', 'media://999')).json.reason).toEqual({
			template_message: { 'liquid_values.header_media': ['media://999 is not an uploaded media'] },
		});
		expect((await send('wat_welcome', png)).json.reason).toEqual({
			template_message: {
				'liquid_values.header_media': ['template wat_welcome has no media header'],
			},
		});
	});
});
