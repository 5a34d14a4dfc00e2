import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { useSandbox } from './harness.mts';
import { PREVIEW_USER_AGENT } from './phone.mts';

const t = useSandbox();

/** A form as a page may write it: labels for inputs, a legend for a group of checkboxes. */
const FORM = `<form method="post">
<div><label for="a">Amount &amp; tax *</label><input id="a" name="field-0" type="text"></div>
<div><label for="r">Reason</label><select id="r" name="field-1"><option value="x">x</option></select></div>
<fieldset>
<legend>Notify</legend>
<label><input type="checkbox" id="n-0" name="field-2" value="A"> A</label>
</fieldset>
<button type="submit">Send</button>
</form>`;

/** A page behind a link: records every request; its GET shows a form, its POST records the answer. */
const page = {
	url: '',
	hits: [] as Array<{ method: string; agent: string; type?: string; body: string }>,
	close: async () => undefined as void,
};
beforeAll(async () => {
	const server = createServer((req, res) => {
		let body = '';
		req.on('data', (chunk) => (body += chunk));
		req.on('end', () => {
			page.hits.push({
				method: String(req.method),
				agent: String(req.headers['user-agent']),
				type: req.headers['content-type'],
				body,
			});
			res.writeHead(200, { 'Content-Type': 'text/html' });
			res.end(
				req.method !== 'GET'
					? '<p>recorded</p>'
					: req.url?.startsWith('/form')
						? FORM
						: req.url?.startsWith('/multipart')
							? FORM.replace(
									'<form method="post">',
									'<form method="post" enctype="multipart/form-data">',
								)
							: '<form method="post"><button class="a" type="submit" name="approved" value="true">Approve</button><button type="submit" name="approved" value="false">Decline</button></form>',
			);
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
	page.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/wait/1/node?signature=ab`;
	page.close = () => new Promise<void>((resolve) => server.close(() => resolve()));
});
afterAll(() => page.close());

const send = (phone: string, link: string) =>
	t.api('POST', '/api/v1/events', {
		event_type: 'send_template_message',
		contact: { phone_number: phone },
		template_message: {
			whats_app_template_id: 'wat_approval',
			liquid_values: { message: 'Approve the refund?', approval_link: link },
		},
	});

describe("the contact's phone", () => {
	it('shows a template message with its variables filled and its links', async () => {
		await send('+919900000001', page.url);
		const shown = await t.api('GET', '/__sandbox/phone?phone=%2B919900000001');
		expect(shown.json).toEqual([
			expect.objectContaining({
				phone_number: '+919900000001',
				whats_app_template_id: 'wat_approval',
				text: `Approval needed: Approve the refund? Please answer here: ${page.url} Thank you.`,
				links: [page.url],
			}),
		]);
	});

	it('a + typed in an address bar (read as a space) finds the contact, as do %2B and digits only', async () => {
		await send('+919900000001', page.url);
		await send('+919900000009', page.url);
		for (const query of ['+919900000001', '%2B919900000001', '919900000001']) {
			const shown = await t.api('GET', `/__sandbox/phone?phone=${query}`);
			expect(shown.json.map((message: { phone_number: string }) => message.phone_number)).toEqual([
				'+919900000001',
			]);
		}
	});

	it('a browser gets a page: the contacts newest first, each message as a bubble with its text, links and buttons; scripts keep the JSON', async () => {
		await send('+919900000001', page.url);
		await t.api('POST', '/api/v1/events', {
			event_type: 'send_template_message',
			contact: { phone_number: '+919900000003' },
			template_message: {
				whats_app_template_id: 'wat_invoice',
				liquid_values: {
					first_name: '<b>Asha</b>',
					invoice_number: 'INV-7',
					header_media: { link: 'https://files.test/i.pdf', filename: 'invoice-7.pdf' },
				},
			},
		});
		const html = async (query: string) => {
			const response = await fetch(`${t.sandbox.url}/__sandbox/phone${query}`, {
				headers: { Accept: 'text/html,application/xhtml+xml' },
			});
			expect(response.headers.get('content-type')).toMatch(/^text\/html/);
			return await response.text();
		};
		const all = await html('');
		// The contact list, newest first.
		expect(all.indexOf('>+919900000003</a>')).toBeLessThan(all.indexOf('>+919900000001</a>'));
		expect(all).toContain(
			`Approval needed: Approve the refund? Please answer here: <a href="${page.url}" target="_blank" rel="noopener noreferrer">${page.url}</a> Thank you.`,
		);
		// What a variable carries is text, never HTML; the document header is a link with its name.
		expect(all).toContain('Hi &lt;b&gt;Asha&lt;/b&gt;, your invoice INV-7 is attached.');
		expect(all).toContain(
			'document: <a href="https://files.test/i.pdf" target="_blank" rel="noopener noreferrer">invoice-7.pdf</a>',
		);
		const one = await html('?phone=+919900000001');
		expect(one).toContain('<h2>+919900000001</h2>');
		expect(one).not.toContain('<h2>+919900000003</h2>');
		const none = await html('?phone=+919900000077');
		expect(none).toContain('No message to +919900000077 yet.');
		const json = await fetch(`${t.sandbox.url}/__sandbox/phone`);
		expect(json.headers.get('content-type')).toMatch(/^application\/json/);
		expect(await json.json()).toHaveLength(2);
	});

	it("WhatsApp's link preview only GETs the link", async () => {
		page.hits.length = 0;
		await send('+919900000002', page.url);
		const previews = await t.api('POST', '/__sandbox/phone/preview', { phone: '+919900000002' });
		expect(previews.json).toEqual([{ url: page.url, status: 200, bytes: expect.any(Number) }]);
		expect(page.hits.map((hit) => [hit.method, hit.agent])).toEqual([['GET', PREVIEW_USER_AGENT]]);
	});

	it('a tap opens the page (GET) and presses the chosen button of its form (POST to the same URL)', async () => {
		page.hits.length = 0;
		await send('+919900000003', page.url);
		const tapped = await t.api('POST', '/__sandbox/phone/answer', {
			phone: '+919900000003',
			choice: 'Decline',
		});
		expect(tapped.json).toMatchObject({ answered: true, status: 200, html: '<p>recorded</p>' });
		expect(page.hits.map((hit) => [hit.method, hit.body])).toEqual([
			['GET', ''],
			['POST', 'approved=false'],
		]);
		const missing = await t.api('POST', '/__sandbox/phone/answer', {
			phone: '+919900000003',
			choice: 'Maybe',
		});
		expect(missing.status).toBe(400);
		expect(missing.json.message).toBe('the page has no button "Maybe"');
	});

	it('a URL button shows its link with the variable filled', async () => {
		t.sandbox.state.templates.push({
			id: 'wat_button',
			template_name: 'approval_button',
			name: 'approval_button',
			language: 'en',
			category: 'UTILITY',
			status: 'approved',
			whats_app_business_account_id: 456,
			components: [
				{ component_type: 'body', data_type: 'text', value: '{{message}}', index: 0 },
				{
					component_type: 'buttons',
					data_type: 'text',
					sub_type: 'url',
					name: 'Answer',
					value: "https://n8n.example.com/webhook-waiting/{{approval_link | example: '1/a'}}",
					index: 1,
				},
			],
		});
		await t.api('POST', '/api/v1/events', {
			event_type: 'send_template_message',
			contact: { phone_number: '+919900000004' },
			template_message: {
				whats_app_template_id: 'wat_button',
				liquid_values: { message: 'Approve?', approval_link: '231/node?signature=ab' },
			},
		});
		const [shown] = t.sandbox.state.phone;
		expect(shown).toMatchObject({
			text: 'Approve?',
			buttons: [
				{ text: 'Answer', url: 'https://n8n.example.com/webhook-waiting/231/node?signature=ab' },
			],
			links: ['https://n8n.example.com/webhook-waiting/231/node?signature=ab'],
		});
	});

	it('a form is filled by its labels (a list for checkboxes) and posted as the page names its fields', async () => {
		page.hits.length = 0;
		const formUrl = page.url.replace('/wait/', '/form/');
		await send('+919900000005', formUrl);
		const filled = await t.api('POST', '/__sandbox/phone/answer', {
			phone: '+919900000005',
			fields: { 'Amount & tax': '120.50', Reason: 'Lost', Notify: ['A', 'B'] },
		});
		expect(filled.json).toMatchObject({ answered: true, status: 200 });
		expect(page.hits.map((hit) => [hit.method, hit.body])).toEqual([
			['GET', ''],
			['POST', 'field-0=120.50&field-1=Lost&field-2=A&field-2=B'],
		]);
		const unknown = await t.api('POST', '/__sandbox/phone/answer', {
			phone: '+919900000005',
			fields: { Colour: 'red' },
		});
		expect(unknown.status).toBe(400);
		expect(unknown.json.message).toBe(
			'the page has no field "Colour" (it has Amount & tax, Reason, Notify)',
		);
	});

	it('a form whose enctype is multipart/form-data is posted multipart, as a browser posts it', async () => {
		page.hits.length = 0;
		await send('+919900000008', page.url.replace('/wait/', '/multipart/'));
		const filled = await t.api('POST', '/__sandbox/phone/answer', {
			phone: '+919900000008',
			fields: { 'Amount & tax': '120.50', Reason: 'Lost', Notify: ['A', 'B'] },
		});
		expect(filled.json).toMatchObject({ answered: true, status: 200 });
		const posted = page.hits[1];
		expect(posted.type).toMatch(/^multipart\/form-data; boundary=/);
		const fields = await new Response(posted.body, {
			headers: { 'content-type': String(posted.type) },
		}).formData();
		expect(fields.getAll('field-0')).toEqual(['120.50']);
		expect(fields.getAll('field-1')).toEqual(['Lost']);
		expect(fields.getAll('field-2')).toEqual(['A', 'B']);
	});

	it('a media header shows as the file that came with the message: its kind and name', async () => {
		for (const [phone, headerMedia, name] of [
			['+919900000006', { link: 'media://12', filename: 'INV-1001.pdf' }, 'INV-1001.pdf'],
			['+919900000007', 'https://files.example/invoices/inv-7.pdf?sig=1', 'inv-7.pdf'],
		] as const) {
			await t.api('POST', '/api/v1/events', {
				event_type: 'send_template_message',
				contact: { phone_number: phone },
				template_message: {
					whats_app_template_id: 'wat_invoice',
					liquid_values: {
						first_name: 'Asha',
						invoice_number: 'INV-1001',
						header_media: headerMedia,
					},
				},
			});
			const [shown] = (await t.api('GET', `/__sandbox/phone?phone=${encodeURIComponent(phone)}`))
				.json as Array<Record<string, unknown>>;
			expect(shown).toMatchObject({
				text: 'Hi Asha, your invoice INV-1001 is attached.',
				attachment: {
					kind: 'document',
					name,
					link: typeof headerMedia === 'string' ? headerMedia : headerMedia.link,
				},
			});
		}
	});
});
