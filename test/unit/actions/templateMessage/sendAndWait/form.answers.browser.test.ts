import type { IDataObject } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { openLink, queryOf } from '../../../support/n8nWaiting';
import { option, methodOf, send, askAndOpen, valid, withFields } from './formRun';

describe('Send and Wait → Custom Form: what people type, as a browser posts it', () => {
	/** The valid answer as a browser posts the page's form: one pair per filled input, per ticked box. */
	const posted = (change: Record<string, string | string[]> = {}): Array<[string, string]> =>
		Object.entries({ ...valid, ...change }).flatMap(([name, value]) =>
			(Array.isArray(value) ? value : [value]).map((one): [string, string] => [name, one]),
		);

	for (const date of ['2026-13-01', '2026-00-10', '2026-01-32', '2026-02-30']) {
		it(`a date that is no date (${date}): the form again with the reason, the execution still waiting`, async () => {
			const { result, sent, execution, link, parameters } = await askAndOpen(
				'POST',
				posted({ 'field-2': date }),
			);
			expect(result).toEqual({ noWebhookResponse: true });
			expect(sent.status).toBe(400);
			expect(String(sent.body)).toContain(
				`<p class="problem">Refund by: &quot;${date}&quot; is not a date (YYYY-MM-DD).`,
			);
			const after = await openLink({
				execution,
				parameters,
				method: 'POST',
				query: queryOf(link),
				form: posted(),
			});
			expect(after.result.workflowData).toHaveLength(1);
		});
	}

	it.each<[string, IDataObject, string]>([
		[
			"a field's Default Value that is no date: the definition is refused naming the field, before any request",
			{ fieldLabel: 'Refund by', fieldType: 'date', defaultValue: '2026-13-01' },
			'Form Elements → field 1 (Refund by) → Default Value "2026-13-01" is not a date',
		],
		[
			'a field named __proto__ (Custom Field Name) is refused with the reason, before anything is sent',
			{ fieldLabel: 'Amount', fieldType: 'number', fieldName: '__proto__' },
			'Form Elements "__proto__" cannot be a key of the answer',
		],
	])('%s', async (_name, field, message) => {
		const { output, requests } = await send(withFields(field));
		expect((output as Error).message).toBe(message);
		expect(requests.map(methodOf)).toEqual(['GET']); // only the template was read
	});

	it('a required Textarea answered with spaces and new lines only is refused, as a Text Input is', async () => {
		const parameters = withFields({
			fieldLabel: 'Why',
			fieldType: 'textarea',
			requiredField: true,
		});
		const { sent, result } = await askAndOpen('POST', [['field-0', ' \r\n  \n\t']], parameters);
		expect(result).toEqual({ noWebhookResponse: true });
		expect(String(sent.body)).toContain('<p class="problem">Why: this field is required.');
	});

	it('a refused answer shows the checkboxes as the person left them: a default they cleared stays cleared', async () => {
		const parameters = withFields(
			{ fieldLabel: 'Amount', fieldType: 'number', requiredField: true },
			{
				fieldLabel: 'Notify',
				fieldType: 'checkbox',
				fieldOptions: option('Customer', 'Finance'),
				defaultValue: 'Customer, Finance',
			},
		);
		const first = await askAndOpen('GET', undefined, parameters);
		expect(String(first.sent.body)).toContain('value="Finance" checked>');
		// Both defaults cleared (a browser then posts nothing for the field), the amount mistyped.
		const { sent } = await askAndOpen('POST', [['field-0', '12abc']], parameters);
		const html = String(sent.body);
		expect(html).toContain('value="Customer">');
		expect(html).toContain('value="Finance">');
		expect(html).not.toContain('checked>');
	});

	it('7,300 Devanagari characters in a Textarea (max 10,000) are taken: the limit counts what was typed', async () => {
		// Not its encoding.
		const note = 'नमस्ते'.repeat(1217).slice(0, 7300);
		const encoded = new URLSearchParams(posted({ 'field-5': note })).toString();
		expect(Buffer.byteLength(encoded)).toBeGreaterThan(64 * 1024);
		const { result } = await askAndOpen('POST', posted({ 'field-5': note }));
		const [[item]] = result.workflowData ?? [[]];
		expect((item.json.data as IDataObject).Note).toBe(note);
	});

	it('an answer over 64 KB as typed is refused, and the page keeps what was typed', async () => {
		const note = 'x'.repeat(70 * 1024);
		const { sent } = await askAndOpen('POST', posted({ 'field-5': note }));
		expect(sent.status).toBe(400);
		expect(String(sent.body)).toContain('The answer is too long (more than 64 KB).');
		expect(String(sent.body)).toContain(`>${note}</textarea>`);
	});
});
