import type { IDataObject } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { openLink, queryOf } from '../../../support/n8nWaiting';
import { option, base, askAndOpen, valid, withFields } from './formRun';

describe('Send and Wait → Custom Form: the answer', () => {
	for (const n8nLine of [2, 1] as const) {
		it(`n8n ${n8nLine}.x: a valid POST resumes with { data: { <field>: value, respondedAt } } in n8n's shape, and the link`, async () => {
			const { result } = await askAndOpen('POST', valid, base, n8nLine);
			const [[item]] = result.workflowData ?? [[]];
			const { respondedAt, ...data } = item.json.data as IDataObject;
			expect(data).toEqual({
				'Amount (₹)': 1200.5,
				Reason: 'Damaged',
				'Refund by': '2026-12-03',
				Channel: 'UPI',
				Notify: ['Customer', 'Finance'],
				Note: '  Box was wet\nfrom rain  ',
				managerEmail: 'ana@store.example',
				PIN: ' s3cret ',
				orderId: 'A-7',
			});
			expect(Date.parse(String(respondedAt))).toBeGreaterThan(0);
			expect(item.json.link).toMatchObject({ id: expect.stringMatching(/^[\w-]{22}$/) });
			expect(item.pairedItem).toEqual({ item: 0 });
			const page = String(result.webhookResponse);
			expect(page).toContain('<li>Amount (₹): 1200.5</li>');
			expect(page).toContain('<li>Notify: Customer, Finance</li>');
			expect(page).toContain('<li>PIN: ••••••</li>');
			expect(page).not.toContain('s3cret');
		});
	}

	it('empty optional fields are null (a list for checkboxes); what was typed is data, never an expression or HTML', async () => {
		const parameters = withFields(
			{ fieldLabel: 'Comment', fieldType: 'text', requiredField: true },
			{ fieldLabel: 'Amount', fieldType: 'number' },
			{ fieldLabel: 'Notify', fieldType: 'checkbox', fieldOptions: option('A') },
		);
		const { result } = await askAndOpen(
			'POST',
			{ 'field-0': '{{ $json.secret }} <b>x</b>' },
			parameters,
		);
		expect(result.workflowData?.[0][0].json.data).toEqual({
			Comment: '{{ $json.secret }} <b>x</b>',
			Amount: null,
			Notify: [],
			respondedAt: expect.any(String),
		});
		expect(String(result.webhookResponse)).toContain(
			'<li>Comment: {{ $json.secret }} &lt;b&gt;x&lt;/b&gt;</li>',
		);
	});

	const refusals: Array<[string, IDataObject, string]> = [
		[
			'a required field left empty',
			{ ...valid, 'field-0': ' ' },
			'Amount (₹): this field is required.',
		],
		[
			'a number that is not one',
			{ ...valid, 'field-0': '12abc' },
			'Amount (₹): "12abc" is not a number',
		],
		[
			'a number with a thousands separator',
			{ ...valid, 'field-0': '1,200' },
			'Amount (₹): "1,200" is not a number: write digits only',
		],
		['a hexadecimal number', { ...valid, 'field-0': '0x10' }, 'Amount (₹): "0x10" is not a number'],
		[
			'a date that is not a date',
			{ ...valid, 'field-2': '2026-02-30' },
			'Refund by: "2026-02-30" is not a date (YYYY-MM-DD).',
		],
		[
			'an e-mail that is not one',
			{ ...valid, 'field-6': 'ana@' },
			'Manager e-mail: "ana@" is not an e-mail address.',
		],
		[
			'a dropdown value that is not an option',
			{ ...valid, 'field-1': 'Lost' },
			'Reason: "Lost" is not one of the choices.',
		],
		[
			'a radio value that is not an option',
			{ ...valid, 'field-3': 'Cash' },
			'Channel: "Cash" is not one of the choices.',
		],
		[
			'a checkbox that is not an option',
			{ ...valid, 'field-4': ['Customer', 'Boss'] },
			'Notify: "Boss" is not one of the choices.',
		],
		[
			'more checkboxes than allowed',
			{ ...valid, 'field-4': ['Customer', 'Finance', 'Store'] },
			'Notify: choose 1 to 2.',
		],
		['fewer checkboxes than needed', { ...valid, 'field-4': [] }, 'Notify: choose at least 1.'],
		[
			'two values for a one-value field',
			{ ...valid, 'field-1': ['Damaged', 'Late'] },
			'Reason: give one answer.',
		],
		[
			'an unknown field',
			{ ...valid, 'field-99': 'x' },
			'The answer has a field this form does not have.',
		],
		[
			'a field of another response type',
			{ ...valid, approved: 'true' },
			'The answer has a field this form does not have.',
		],
		[
			'a value for the hidden field',
			{ ...valid, 'field-8': 'B-9' },
			'The answer has a field this form does not have.',
		],
		[
			'a text over 1,000 characters',
			{ ...valid, 'field-6': `${'a'.repeat(1000)}@x.io` },
			'Manager e-mail: at most 1000 characters.',
		],
		[
			'an answer over 64 KB',
			{ ...valid, 'field-5': 'x'.repeat(70 * 1024) },
			'The answer is too long (more than 64 KB).',
		],
	];
	for (const [what, body, problem] of refusals) {
		it(`refuses ${what}: the page again with the reason, nothing resumes, the wait still answers`, async () => {
			const { result, sent, execution, link, parameters } = await askAndOpen('POST', body);
			expect(result).toEqual({ noWebhookResponse: true });
			expect(sent.status).toBe(400);
			expect(String(sent.body)).toContain(`<p class="problem">${problem.replace(/"/g, '&quot;')}`);
			expect(String(sent.body)).toContain('<form method="post" enctype="multipart/form-data">');
			const after = await openLink({
				execution,
				parameters,
				method: 'POST',
				query: queryOf(link),
				body: valid,
			});
			expect(after.result.workflowData).toHaveLength(1);
		});
	}

	it('the form shown again keeps what was typed (as text)', async () => {
		const { sent } = await askAndOpen('POST', {
			...valid,
			'field-0': '12abc',
			'field-5': '</textarea><script>x</script>',
			'field-4': ['Finance'],
		});
		const html = String(sent.body);
		expect(html).toContain(
			'name="field-0" type="text" inputmode="decimal" placeholder="e.g. 1200" value="12abc" required>',
		);
		expect(html).toContain('&lt;/textarea&gt;&lt;script&gt;x&lt;/script&gt;</textarea>');
		expect(html).toContain('value="Finance" checked>');
		expect(html).toContain('<option value="Damaged" selected>');
		expect(html).not.toContain('s3cret');
	});
});
