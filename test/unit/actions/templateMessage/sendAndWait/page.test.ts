import { describe, expect, it } from 'vitest';

import { option, askAndOpen, withFields } from './formRun';

describe('Send and Wait → Custom Form: the page', () => {
	it('a GET shows every field with its label, placeholders, defaults and options; nothing resumes', async () => {
		// Labels as n8n names them (field-<index>).
		const { result, sent } = await askAndOpen('GET');
		expect(result).toEqual({ noWebhookResponse: true });
		expect(sent.status).toBe(200);
		expect(sent.headers['content-security-policy']).toContain("default-src 'none'");
		const html = String(sent.body);
		expect(html).toContain('<h1>Refund A-7</h1>');
		expect(html).toContain(
			'<label for="f0">Amount (₹) *</label>\n<input id="f0" name="field-0" type="text" inputmode="decimal" placeholder="e.g. 1200" value="" required>',
		);
		expect(html).toContain(
			'<select id="f1" name="field-1" required><option value="">Choose…</option><option value="Damaged">Damaged</option><option value="Late">Late</option><option value="Other">Other</option></select>',
		);
		expect(html).toContain('<input id="f2" name="field-2" type="date" value="2026-12-01">');
		expect(html).toContain('<input type="radio" id="f3-0" name="field-3" value="UPI"> UPI');
		expect(html).toContain('<input type="checkbox" id="f4-2" name="field-4" value="Store"> Store');
		expect(html).toContain('<textarea id="f5" name="field-5"></textarea>');
		expect(html).toContain('<input id="f7" name="field-7" type="password">');
		// The hidden field is not on the page: its value is the node's.
		expect(html).not.toContain('field-8');
		expect(html).not.toContain('value="A-7"');
		// Custom HTML: its safe part only.
		expect(html).toContain(
			'<div class="html"><h3>Order A-7</h3>&lt;script&gt;alert(1)&lt;/script&gt;&lt;b onclick=&quot;x&quot;&gt;Paid</b></div>',
		);
		expect(html).not.toMatch(/<script|onclick="/i);
		expect(html).toContain('<button class="approve" type="submit">Send answer</button>');
	});

	it('labels, options and placeholders are text, never HTML', async () => {
		const { sent } = await askAndOpen(
			'GET',
			undefined,
			withFields({
				fieldLabel: '<img src=x onerror=alert(1)>',
				fieldType: 'radio',
				fieldOptions: option('"><script>x</script>'),
			}),
		);
		const html = String(sent.body);
		expect(html).not.toMatch(/<img|<script/);
		expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;');
		expect(html).toContain('value="&quot;&gt;&lt;script&gt;x&lt;/script&gt;"');
	});
});
