import { describe, expect, it } from 'vitest';

import { useSandbox } from './harness.mts';

/**
 * What Peach's docs and Peach's own clients (its MCP server, its n8n node) send is taken, read from
 * the docs, where they differ from the fields' lists: the docs' own examples, deprecated but documented
 * endpoints, and both readings of a field the sources disagree on.
 */
const t = useSandbox();

describe("what Peach's docs and clients send", () => {
	it('the docs\' Create a template example (an image header without a value, component_type "button") is created: 200 with the template', async () => {
		const created = await t.api('POST', '/api/v1/whats_app_templates', {
			whats_app_template: {
				template_name: 'New Promotion',
				language: 'en',
				category: 'MARKETING',
				purpose: 'promotion',
				whats_app_business_account_id: 456,
				components_attributes: [
					{ component_type: 'header', data_type: 'image' },
					{
						component_type: 'body',
						data_type: 'text',
						value: "Exciting news, {{name | example: 'Ana'}}! Our spring sale is on.",
					},
					{
						component_type: 'button',
						data_type: 'text',
						sub_type: 'url',
						name: 'Shop now',
						value: 'https://shop.example/spring',
					},
				],
			},
		});
		expect(created.status).toBe(200);
		expect(created.json).toMatchObject({
			template_name: 'New Promotion',
			status: 'draft',
			components: [
				{ component_type: 'header', data_type: 'image' },
				{ component_type: 'body' },
				{ component_type: 'button', sub_type: 'url' },
			],
		});
		// A text component still needs its text.
		const noText = await t.api('POST', '/api/v1/whats_app_templates', {
			whats_app_template: {
				template_name: 'no_text',
				language: 'en',
				category: 'UTILITY',
				components_attributes: [{ component_type: 'body', data_type: 'text' }],
			},
		});
		expect(noText.json.reason.whats_app_template['components_attributes[0].value']).toEqual([
			'must be text',
		]);
	});

	it('"Add a media (Deprecated)" takes a base64 file with the direct upload\'s type and size rules; an empty one is refused', async () => {
		const pdf = Buffer.from('%PDF-1.4 menu');
		const added = await t.api('POST', '/api/v1/medias', {
			media: {
				data: pdf.toString('base64'),
				filename: 'menu.pdf',
				content_type: 'application/pdf',
			},
		});
		expect(added.status).toBe(200);
		expect(added.json).toMatchObject({
			filename: 'menu.pdf',
			content_type: 'application/pdf',
			media_url: expect.stringMatching(/^media:\/\/\d+$/),
		});
		// content_type is optional (Peach's MCP server): the extension says it.
		const inferred = await t.api('POST', '/api/v1/medias', {
			media: { data: Buffer.from('jpeg').toString('base64'), filename: 'photo.JPG' },
		});
		expect(inferred.json.content_type).toBe('image/jpeg');
		const listed = await t.api('GET', '/api/v1/medias');
		expect(listed.json.medias.map((media: { filename: string }) => media.filename)).toContain(
			'menu.pdf',
		);
		for (const [media, field, reason] of [
			[{ data: '', filename: 'empty.pdf' }, 'data', "can't be blank (an empty file)"],
			[{ data: 'not base64!', filename: 'x.pdf' }, 'data', 'must be base64'],
			[{ data: 'AAAA', filename: 'run.exe' }, 'content_type', '(none) is not supported'],
			[
				{ data: Buffer.alloc(5 * 1024 * 1024 + 1).toString('base64'), filename: 'big.png' },
				'data',
				'is too large (max 5242880 bytes for image/png)',
			],
		] as const) {
			const refused = await t.api('POST', '/api/v1/medias', { media });
			expect(refused.status).toBe(422);
			expect(refused.json.reason.media[field]).toEqual([reason]);
		}
	});

	const send = (replyAutomation: unknown) =>
		t.api('POST', '/api/v1/events', {
			event_type: 'send_template_message',
			contact: { phone_number: '+919988776655' },
			template_message: {
				whats_app_template_id: 'wat_welcome',
				liquid_values: { first_name: 'Asha' },
				reply_automation: replyAutomation,
			},
		});

	it("reply_automation: {app_id} (Peach's API skill) and {ai_agent_id} (Peach's n8n node) are both taken; {} or a blank ID is no reply automation; anything else is refused", async () => {
		for (const taken of [
			{ app_id: 'aiflw_1' },
			{ ai_agent_id: 'aiflw_1' },
			{},
			{ ai_agent_id: '' },
			null,
		]) {
			expect((await send(taken)).status).toBe(201);
		}
		for (const refused of [{ agent: 'x' }, { app_id: 7 }, 'aiflw_1']) {
			const answer = await send(refused);
			expect(answer.status).toBe(422);
			expect(answer.json.reason.template_message.reply_automation).toEqual([
				'must be {"app_id": "<id>"} or {"ai_agent_id": "<id>"}',
			]);
		}
	});

	it('a broadcast to contacts with a blank audience_id ("") is launched: a blank ID names no audience', async () => {
		const launched = await t.api('POST', '/api/v1/events', {
			event_type: 'send_broadcast',
			broadcast: {
				name: 'Spring',
				whats_app_template_id: 'wat_welcome',
				delivery_mode: 'instant',
				audience_id: '',
				contacts: [{ phone_number: '+14155550101', name: 'A' }],
			},
		});
		expect(launched.status).toBe(200);
	});

	it("ignores what the docs do not have: ?sync=true on /events, the MCP's template-message filters", async () => {
		const synced = await t.api('POST', '/api/v1/events?sync=true', {
			event_type: 'send_template_message',
			contact: { phone_number: '+919988776655' },
			template_message: {
				whats_app_template_id: 'wat_welcome',
				liquid_values: { first_name: 'Asha' },
			},
		});
		expect(synced.status).toBe(201);
		expect(Object.keys(synced.json).sort()).toEqual([
			'contact',
			'event_id',
			'event_type',
			'template_message',
		]);
		const all = await t.api('GET', '/api/v1/template_messages');
		const filtered = await t.api(
			'GET',
			'/api/v1/template_messages?per_page=1&status=failed&phone_number=%2B10000000000&template_name=nope',
		);
		expect(filtered.json.count).toBe(all.json.count);
		expect(all.json.count).toBeGreaterThan(0);
	});
});
