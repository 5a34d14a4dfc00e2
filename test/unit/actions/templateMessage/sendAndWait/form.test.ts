import type { IDataObject, NodeOperationError } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { Peach } from '../../../../../nodes/Peach/Peach.node';
import { createExecuteContext, type FakeResponse, locator } from '../../../support/harness';
import { newWaitingExecution } from '../../../support/n8nExecutionData';
import { newExecution } from '../../../support/n8nRecovery';
import { openLink, queryOf } from '../../../support/n8nWaiting';

/** Send and Wait's Custom Form: the definition checked before the send, the page, every answer checked. */

const template: FakeResponse = {
	statusCode: 200,
	body: {
		id: 'wat_approval',
		status: 'approved',
		components: [
			{
				component_type: 'body',
				data_type: 'text',
				value:
					"Approval needed: {{message | example: 'Refund?'}} Please answer here: {{approval_link | example: 'https://x/1/a'}} Thank you.",
				index: 0,
			},
		],
	},
};
const queued: FakeResponse = { statusCode: 200, body: { status: 'success', event_id: 'evt_f1' } };

const option = (...labels: string[]) => ({ values: labels.map((label) => ({ option: label })) });

/** A form with one field of each kind the page offers. */
const elements = [
	{ fieldLabel: 'Amount (₹)', fieldType: 'number', requiredField: true, placeholder: 'e.g. 1200' },
	{
		fieldLabel: 'Reason',
		fieldType: 'dropdown',
		fieldOptions: option('Damaged', 'Late', 'Other'),
		requiredField: true,
	},
	{ fieldLabel: 'Refund by', fieldType: 'date', defaultValue: '2026-12-01' },
	{ fieldLabel: 'Channel', fieldType: 'radio', fieldOptions: option('UPI', 'Card') },
	{
		fieldLabel: 'Notify',
		fieldType: 'checkbox',
		fieldOptions: option('Customer', 'Finance', 'Store'),
		limitSelection: 'range',
		minSelections: 1,
		maxSelections: 2,
	},
	{ fieldLabel: 'Note', fieldType: 'textarea' },
	{ fieldLabel: 'Manager e-mail', fieldType: 'email', fieldName: 'managerEmail' },
	{ fieldLabel: 'PIN', fieldType: 'password' },
	{ fieldType: 'hiddenField', fieldName: 'orderId', fieldValue: 'A-7' },
	{ fieldType: 'html', html: '<h3>Order A-7</h3><script>alert(1)</script><b onclick="x">Paid</b>' },
];

const base = {
	resource: 'templateMessage',
	operation: 'sendAndWait',
	phoneNumber: '+919988776655',
	templateId: locator('wat_approval'),
	message: 'How much do we refund for order A-7?',
	responseType: 'customForm',
	defineForm: 'fields',
	formFields: { values: elements },
	options: { responseFormTitle: 'Refund A-7', responseFormButtonLabel: 'Send answer' },
};

/** A request's method: a Send and Wait that refuses reads its template (to name every problem) and sends nothing. */
const methodOf = (request: { options: { method?: string } }) => request.options.method;

async function send(params: Record<string, unknown>) {
	const execution = newWaitingExecution(2);
	const harness = createExecuteContext({
		params,
		responses: [template, queued],
		templates: 'responses',
		execution,
		lineage: newExecution(undefined, { n8nLine: 2 }),
	});
	const output = await new Peach().execute.call(harness.context).catch((e: unknown) => e);
	return { ...harness, output, execution };
}

/**
 * Asks with the form, then posts to the link (or GETs it): `body` as n8n parsed it, or a form as a
 * browser posts it ([name, value] pairs, encoded and parsed as on the wire).
 */
async function askAndOpen(
	method: 'GET' | 'POST',
	body?: IDataObject | Array<[string, string]>,
	parameters: Record<string, unknown> = base,
	n8nLine: 1 | 2 = 2,
) {
	const execution = newWaitingExecution(n8nLine);
	const harness = createExecuteContext({
		params: parameters,
		responses: [template, queued],
		templates: 'responses',
		execution,
		lineage: newExecution(undefined, { n8nLine }),
	});
	await new Peach().execute.call(harness.context);
	const link = String(
		(
			harness.requests[1].body as {
				template_message: { liquid_values: IDataObject };
			}
		).template_message.liquid_values.approval_link,
	);
	const opened = await openLink({
		execution,
		parameters,
		method,
		query: queryOf(link),
		...(Array.isArray(body) ? { form: body } : { body }),
	});
	return { ...opened, execution, link, parameters };
}

/** A valid answer, as the page posts it (field-<index>). */
const valid = {
	'field-0': '1200.50',
	'field-1': 'Damaged',
	'field-2': '2026-12-03',
	'field-3': 'UPI',
	'field-4': ['Customer', 'Finance'],
	'field-5': '  Box was wet\nfrom rain  ',
	'field-6': 'ana@store.example',
	'field-7': ' s3cret ',
};

describe('Send and Wait → Custom Form: the definition, checked before the send', () => {
	it('a form that can be shown: the template is sent with the link, and the workflow waits', async () => {
		const { requests, putExecutionToWait } = await send(base);
		expect(requests.map((r) => `${r.options.method} ${r.url}`)).toEqual([
			'GET https://peach.test/api/v1/whats_app_templates/wat_approval',
			'POST https://peach.test/api/v1/events',
		]);
		expect(putExecutionToWait).toHaveBeenCalledTimes(1);
	});

	it("takes the form as JSON (n8n's Form node format)", async () => {
		const { requests, output } = await send({
			...base,
			defineForm: 'json',
			jsonOutput: JSON.stringify(elements.slice(0, 2)),
		});
		expect(output).not.toBeInstanceOf(Error);
		expect(requests).toHaveLength(2);
	});

	for (const [what, formFields, message] of [
		[
			'no field to fill in',
			[{ fieldType: 'html', html: '<p>Hi</p>' }],
			'Form Elements "1 fields" has no field to fill in',
		],
		[
			'a field without a label',
			[{ fieldLabel: ' ', fieldType: 'text' }],
			'Form Elements → field 1 → Label is empty',
		],
		[
			'a file field (the page takes no files)',
			[{ fieldLabel: 'Photo', fieldType: 'file' }],
			'Form Elements → field 1 (Photo) → Element Type "file" is not offered: the answer page takes no files',
		],
		[
			'a dropdown without options',
			[{ fieldLabel: 'Reason', fieldType: 'dropdown', fieldOptions: { values: [] } }],
			'Form Elements → field 1 (Reason) → Options [] has no options',
		],
		[
			'an option given twice',
			[{ fieldLabel: 'Reason', fieldType: 'radio', fieldOptions: option('A', 'A') }],
			'Form Elements → field 1 (Reason) → Options "A" is given twice',
		],
		[
			'a default that is not an option',
			[
				{
					fieldLabel: 'Reason',
					fieldType: 'dropdown',
					fieldOptions: option('Damaged'),
					defaultValue: 'Lost',
				},
			],
			'Form Elements → field 1 (Reason) → Default Value "Lost" is not one of its options',
		],
		[
			'a date default that is not a date',
			[{ fieldLabel: 'When', fieldType: 'date', defaultValue: '2026-02-30' }],
			'Form Elements → field 1 (When) → Default Value "2026-02-30" is not a date',
		],
		[
			'two fields with one key (one answer would hide the other)',
			[
				{ fieldLabel: 'Amount', fieldType: 'number' },
				{ fieldLabel: 'Amount', fieldType: 'text' },
			],
			'Form Elements "Amount" names two fields: one answer would hide the other',
		],
		[
			'a field named respondedAt',
			[{ fieldLabel: 'respondedAt', fieldType: 'text' }],
			'Form Elements "respondedAt" is the key of the time of the answer',
		],
		[
			'a hidden field without a name',
			[
				{ fieldLabel: 'Amount', fieldType: 'number' },
				{ fieldType: 'hiddenField', fieldValue: 'x' },
			],
			'Form Elements → field 2 → Custom Field Name is empty',
		],
		[
			'checkboxes that cannot be chosen (3 of 2)',
			[
				{
					fieldLabel: 'Notify',
					fieldType: 'checkbox',
					fieldOptions: option('A', 'B'),
					limitSelection: 'exact',
					numberOfSelections: 3,
				},
			],
			'Form Elements → field 1 (Notify) → Limit Selection "3 to 3 of 2" cannot be chosen',
		],
	] as const) {
		it(`refuses ${what} before anything is sent`, async () => {
			const { requests, output, putExecutionToWait } = await send({
				...base,
				formFields: { values: formFields },
			});
			expect(requests.map(methodOf)).toEqual(['GET']); // only the template was read
			expect(putExecutionToWait).not.toHaveBeenCalled();
			expect((output as NodeOperationError).message).toBe(message);
			expect((output as NodeOperationError).description).toContain('Nothing was sent');
		});
	}

	it('refuses Form Fields (JSON) that is not JSON, or not a list, before anything is sent', async () => {
		const broken = await send({ ...base, defineForm: 'json', jsonOutput: '[{"fieldLabel": }' });
		expect(broken.requests.map(methodOf)).toEqual(['GET']); // only the template was read
		expect((broken.output as Error).message).toMatch(
			/^Form Fields \(JSON\) ".*" is not valid JSON/,
		);
		const object = await send({ ...base, defineForm: 'json', jsonOutput: '{"fieldLabel": "A"}' });
		expect(object.requests.map(methodOf)).toEqual(['GET']); // only the template was read
		expect((object.output as Error).message).toBe(
			'Form Fields (JSON) {"fieldLabel":"A"} is not a list of fields',
		);
	});
});

describe('Send and Wait → Custom Form: the page', () => {
	it('a GET shows every field with its label, as n8n names them (field-<index>), with placeholders, defaults and options; nothing resumes', async () => {
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
		const { sent } = await askAndOpen('GET', undefined, {
			...base,
			formFields: {
				values: [
					{
						fieldLabel: '<img src=x onerror=alert(1)>',
						fieldType: 'radio',
						fieldOptions: option('"><script>x</script>'),
					},
				],
			},
		});
		const html = String(sent.body);
		expect(html).not.toMatch(/<img|<script/);
		expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;');
		expect(html).toContain('value="&quot;&gt;&lt;script&gt;x&lt;/script&gt;"');
	});
});

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
		const parameters = {
			...base,
			formFields: {
				values: [
					{ fieldLabel: 'Comment', fieldType: 'text', requiredField: true },
					{ fieldLabel: 'Amount', fieldType: 'number' },
					{ fieldLabel: 'Notify', fieldType: 'checkbox', fieldOptions: option('A') },
				],
			},
		};
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
			expect(String(sent.body)).toContain('<form method="post">');
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

	it("a field's Default Value that is no date: the definition is refused naming the field, before any request", async () => {
		const { output, requests } = await send({
			...base,
			formFields: {
				values: [{ fieldLabel: 'Refund by', fieldType: 'date', defaultValue: '2026-13-01' }],
			},
		});
		expect((output as Error).message).toBe(
			'Form Elements → field 1 (Refund by) → Default Value "2026-13-01" is not a date',
		);
		expect(requests.map(methodOf)).toEqual(['GET']); // only the template was read
	});

	it('a required Textarea answered with spaces and new lines only is refused, as a Text Input is', async () => {
		const parameters = {
			...base,
			formFields: {
				values: [{ fieldLabel: 'Why', fieldType: 'textarea', requiredField: true }],
			},
		};
		const { sent, result } = await askAndOpen('POST', [['field-0', ' \r\n  \n\t']], parameters);
		expect(result).toEqual({ noWebhookResponse: true });
		expect(String(sent.body)).toContain('<p class="problem">Why: this field is required.');
	});

	it('a refused answer shows the checkboxes as the person left them: a default they cleared stays cleared', async () => {
		const parameters = {
			...base,
			formFields: {
				values: [
					{ fieldLabel: 'Amount', fieldType: 'number', requiredField: true },
					{
						fieldLabel: 'Notify',
						fieldType: 'checkbox',
						fieldOptions: option('Customer', 'Finance'),
						defaultValue: 'Customer, Finance',
					},
				],
			},
		};
		const first = await askAndOpen('GET', undefined, parameters);
		expect(String(first.sent.body)).toContain('value="Finance" checked>');
		// Both defaults cleared (a browser then posts nothing for the field), the amount mistyped.
		const { sent } = await askAndOpen('POST', [['field-0', '12abc']], parameters);
		const html = String(sent.body);
		expect(html).toContain('value="Customer">');
		expect(html).toContain('value="Finance">');
		expect(html).not.toContain('checked>');
	});

	it('7,300 Devanagari characters in a Textarea (which allows 10,000) are taken: the limit counts what was typed, not its encoding', async () => {
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

	it('a field named __proto__ (Custom Field Name) is refused with the reason, before anything is sent', async () => {
		const { output, requests } = await send({
			...base,
			formFields: {
				values: [{ fieldLabel: 'Amount', fieldType: 'number', fieldName: '__proto__' }],
			},
		});
		expect((output as Error).message).toBe(
			'Form Elements "__proto__" cannot be a key of the answer',
		);
		expect(requests.map(methodOf)).toEqual(['GET']); // only the template was read
	});
});
