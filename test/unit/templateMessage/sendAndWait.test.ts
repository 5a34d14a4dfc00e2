import type {
	IDataObject,
	IWebhookFunctions,
	IWebhookResponseData,
	NodeOperationError,
} from 'n8n-workflow';
import { WAIT_INDEFINITELY } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { waitTillOf } from '../../../nodes/Peach/actions/templateMessage/sendAndWait.operation';
import { Peach } from '../../../nodes/Peach/Peach.node';
import {
	createExecuteContext,
	type FakeResponse,
	jsonOf,
	locator,
	signedResumeUrl,
	TEST_WAITING_BASE,
} from '../harness';
import { resolveParameters } from '../parameters';

/** The sandbox's approval template: a message variable and the link as text in the body. */
const inBody: FakeResponse = {
	statusCode: 200,
	body: {
		id: 'wat_approval',
		status: 'approved',
		components: [
			{
				component_type: 'body',
				data_type: 'text',
				value:
					"{{message | example: 'Approve?'}} Answer here: {{approval_link | example: 'https://x/1/a'}} Order {{order_id | example: 'A-7'}}",
				index: 0,
			},
		],
	},
};

/** A template whose URL button carries the link after this n8n's waiting-webhook address. */
const withButton = (url: string): FakeResponse => ({
	statusCode: 200,
	body: {
		id: 'wat_button',
		status: 'approved',
		components: [
			{
				component_type: 'body',
				data_type: 'text',
				value: "{{message | example: 'Approve?'}}",
				index: 0,
			},
			{
				component_type: 'buttons',
				data_type: 'text',
				sub_type: 'url',
				name: 'Answer',
				value: url,
				index: 1,
			},
		],
	},
});

const queued: FakeResponse = { statusCode: 200, body: { status: 'success', event_id: 'evt_w1' } };

const base = {
	resource: 'templateMessage',
	operation: 'sendAndWait',
	phoneNumber: '+919988776655',
	templateId: locator('wat_approval'),
	message: 'Approve the refund of ₹1,200\nfor order A-7?',
	variablesInput: 'fields',
	variables: { values: [{ key: 'order_id', value: 'A-7' }] },
};

async function run(
	params: Record<string, unknown>,
	responses: FakeResponse[],
	extra: Record<string, unknown> = {},
) {
	const harness = createExecuteContext({ params, responses, ...extra });
	const output = await new Peach().execute.call(harness.context).catch((e: unknown) => e);
	return { ...harness, output };
}

describe('Template Message → Send and Wait for Response: the send', () => {
	it('Header Media From a Binary Field: the invoice goes in the header, uploaded before the send; the workflow waits after', async () => {
		const invoice = Buffer.from('%PDF-1.4 invoice');
		const template = inBody.body as { components: object[] };
		const { requests, output, putExecutionToWait } = await run(
			{ ...base, headerMedia: 'binary' },
			[
				{
					statusCode: 200,
					body: {
						...template,
						components: [
							{ component_type: 'header', data_type: 'document', index: -1 },
							...template.components,
						],
					},
				},
				{
					statusCode: 200,
					body: { signed_id: 's1', direct_upload: { url: 'https://storage.test/up', headers: {} } },
				},
				{ statusCode: 200, body: { id: 1, media_url: 'media://101' } },
				queued,
			],
			{
				binary: { 0: { bytes: invoice, mimeType: 'application/pdf', fileName: 'quote.pdf' } },
				plainResponses: [{ statusCode: 204, body: '' }],
			},
		);
		expect(requests.map((r) => `${r.options.method} ${r.url}`)).toEqual([
			'GET https://peach.test/api/v1/whats_app_templates/wat_approval',
			'POST https://peach.test/api/v1/medias/direct_uploads',
			'POST https://peach.test/api/v1/medias/finalize',
			'POST https://peach.test/api/v1/events',
		]);
		expect(requests[3].body).toMatchObject({
			template_message: {
				liquid_values: {
					approval_link: signedResumeUrl(),
					header_media: { link: 'media://101', filename: 'quote.pdf' },
				},
			},
		});
		expect(putExecutionToWait).toHaveBeenCalledTimes(1);
		expect(jsonOf(output as never)).toEqual([
			{ status: 'success', event_id: 'evt_w1', media_url: 'media://101' },
		]);
	});

	it('In a Template Variable (default): the signed link and the message (one line) fill their variables; then the workflow waits', async () => {
		const { requests, output, putExecutionToWait } = await run(base, [inBody, queued]);
		expect(requests.map((r) => `${r.options.method} ${r.url}`)).toEqual([
			'GET https://peach.test/api/v1/whats_app_templates/wat_approval',
			'POST https://peach.test/api/v1/events',
		]);
		expect(requests[1].body).toEqual({
			event_type: 'send_template_message',
			contact: { phone_number: '+919988776655' },
			template_message: {
				whats_app_template_id: 'wat_approval',
				liquid_values: {
					order_id: 'A-7',
					approval_link: signedResumeUrl(),
					message: 'Approve the refund of ₹1,200 for order A-7?',
				},
			},
		});
		expect(putExecutionToWait).toHaveBeenCalledWith(WAIT_INDEFINITELY);
		// Shown while the execution waits; the answer replaces it.
		expect(jsonOf(output as never)).toEqual([{ status: 'success', event_id: 'evt_w1' }]);
	});

	it("In a URL Button: the button's suffix is the link after this n8n's waiting-webhook address", async () => {
		const { requests } = await run(
			{ ...base, templateId: locator('wat_button'), linkPlacement: 'urlButton' },
			[withButton(`${TEST_WAITING_BASE}/{{approval_link | example: '1/a?signature=b'}}`), queued],
		);
		const values = (requests[1].body as { template_message: { liquid_values: IDataObject } })
			.template_message.liquid_values;
		expect(values.approval_link).toBe(signedResumeUrl().slice(TEST_WAITING_BASE.length + 1));
		expect(`${TEST_WAITING_BASE}/${String(values.approval_link)}`).toBe(signedResumeUrl());
	});

	it('a URL button to another address is refused before the send, saying exactly what the template must contain', async () => {
		const { requests, output, putExecutionToWait } = await run(
			{ ...base, templateId: locator('wat_button'), linkPlacement: 'urlButton' },
			[withButton("https://elsewhere.example/{{approval_link | example: 'x'}}"), queued],
		);
		expect(requests).toHaveLength(1); // only the template was read
		expect(putExecutionToWait).not.toHaveBeenCalled();
		const error = output as NodeOperationError;
		expect(error.message).toBe(
			'Link Placement "In a URL Button" does not fit the template\'s URL button (https://elsewhere.example/{{approval_link}})',
		);
		expect(error.description).toContain(
			`The template's URL button must be exactly ${TEST_WAITING_BASE}/{{approval_link}}`,
		);
		expect(error.description).toContain('Nothing was sent');
	});

	it('a template without the link variable, or a message variable it lacks, is refused before the send', async () => {
		const noLink = await run({ ...base, linkVariable: 'answer_link' }, [inBody, queued]);
		expect(noLink.requests).toHaveLength(1);
		expect((noLink.output as Error).message).toBe(
			'Link Variable "answer_link" is not a variable of the template text',
		);
		const noMessage = await run({ ...base, messageVariable: 'question' }, [inBody, queued]);
		expect((noMessage.output as Error).message).toBe(
			'Message Variable "question" is not a variable of the template',
		);
		// Without a message variable, the message shows on the page only.
		const pageOnly = await run({ ...base, messageVariable: '' }, [inBody, queued]);
		expect(
			(pageOnly.requests[1].body as { template_message: { liquid_values: IDataObject } })
				.template_message.liquid_values,
		).not.toHaveProperty('message');
	});

	it('refuses a variable the node fills, given among the others', async () => {
		const { requests, output } = await run(
			{ ...base, variables: { values: [{ key: 'approval_link', value: 'https://x' }] } },
			[inBody, queued],
		);
		expect(requests).toHaveLength(0);
		expect((output as Error).message).toBe(
			'Other Template Variables "approval_link" is filled by the node',
		);
	});

	it('one answer per execution: several input items send nothing', async () => {
		const { requests, output } = await run(base, [inBody, queued], { items: 2 });
		expect(requests).toHaveLength(0);
		expect((output as Error).message).toBe(
			'Send and Wait "2 input items" waits for one answer per execution',
		);
	});

	it('a failed send is never retried and never waits; the error says it may already be queued', async () => {
		const { requests, output, putExecutionToWait } = await run(base, [
			inBody,
			{ statusCode: 502, body: 'Bad gateway' },
			queued,
		]);
		expect(requests).toHaveLength(2);
		expect(putExecutionToWait).not.toHaveBeenCalled();
		expect((output as { description: string }).description).toContain(
			'It may already have been queued in Peach',
		);
	});

	it('Limit Wait Time: after an interval or at a date; without it, indefinitely', async () => {
		const now = Date.parse('2026-11-23T10:00:00Z');
		expect(waitTillOf(undefined, 'UTC', now)).toBe(WAIT_INDEFINITELY);
		expect(
			waitTillOf(
				{ values: { limitType: 'afterTimeInterval', resumeAmount: 45, resumeUnit: 'minutes' } },
				'UTC',
				now,
			).toISOString(),
		).toBe('2026-11-23T10:45:00.000Z');
		expect(
			waitTillOf(
				{ values: { limitType: 'atSpecifiedTime', maxDateAndTime: '2026-11-24T08:00:00+05:30' } },
				'UTC',
				now,
			).toISOString(),
		).toBe('2026-11-24T02:30:00.000Z');
		const { putExecutionToWait } = await run(
			{
				...base,
				responseType: 'freeText',
				options: {
					limitWaitTime: {
						values: { limitType: 'afterTimeInterval', resumeAmount: 2, resumeUnit: 'days' },
					},
				},
			},
			[inBody, queued],
		);
		const waitTill = putExecutionToWait.mock.calls[0][0];
		expect(waitTill.getTime() - Date.now()).toBeGreaterThan(2 * 86_400_000 - 60_000);
	});
});

/** Calls the node's webhook as n8n does for a waiting execution's link, recording what it answered. */
async function openLink(input: {
	method: 'GET' | 'POST';
	body?: IDataObject;
	parameters?: Record<string, unknown>;
}) {
	const params = resolveParameters(new Peach().description, { ...base, ...input.parameters });
	const sent: { status?: number; headers: Record<string, string>; body?: string } = { headers: {} };
	const response = {
		status(code: number) {
			sent.status = code;
			return response;
		},
		setHeader(name: string, value: string) {
			sent.headers[name.toLowerCase()] = value;
		},
		send(body: string) {
			sent.body = body;
			return response;
		},
	};
	const lookup = (name: string) =>
		name.split('.').reduce<unknown>((value, part) => (value as IDataObject)?.[part], params);
	const context = {
		getRequestObject: () => ({ method: input.method, headers: {} }),
		getResponseObject: () => response,
		getBodyData: () => input.body ?? {},
		getNodeParameter: (name: string, fallback?: unknown) => lookup(name) ?? fallback,
	} as unknown as IWebhookFunctions;
	const result = (await new Peach().webhook.call(context)) as IWebhookResponseData;
	return { result, sent };
}

describe('Template Message → Send and Wait for Response: the answer link', () => {
	it('a GET (a link preview, or the contact opening it) only shows the page: nothing resumes', async () => {
		const { result, sent } = await openLink({ method: 'GET' });
		expect(result).toEqual({ noWebhookResponse: true });
		expect(sent.status).toBe(200);
		expect(sent.headers['content-type']).toBe('text/html; charset=utf-8');
		expect(sent.headers['cache-control']).toBe('no-store');
		expect(sent.headers['content-security-policy']).toContain("default-src 'none'");
		// Self-contained: no script, no external asset; the message escaped; one POST form.
		expect(sent.body).not.toMatch(/<script|src=|href=|@import|url\(/i);
		expect(sent.body).toContain('Approve the refund of ₹1,200\nfor order A-7?');
		expect(sent.body).toContain('<form method="post">');
		expect(sent.body).toContain(
			'<button class="approve" type="submit" name="approved" value="true">Approve</button>',
		);
		expect(sent.body).not.toContain('value="false"');
	});

	it('the message is shown as text, never as HTML', async () => {
		const { sent } = await openLink({
			method: 'GET',
			parameters: { message: '<img src=x onerror=alert(1)> & "quotes"' },
		});
		expect(sent.body).toContain('&lt;img src=x onerror=alert(1)&gt; &amp; &quot;quotes&quot;');
		expect(sent.body).not.toContain('<img');
	});

	it('the POST of the approve button resumes with { data: { approved: true } }, when and which button', async () => {
		const { result } = await openLink({ method: 'POST', body: { approved: 'true' } });
		const [[item]] = result.workflowData ?? [[]];
		expect(item.json).toMatchObject({ data: { approved: true }, button: 'Approve' });
		expect(Date.parse(String((item.json.data as IDataObject).respondedAt))).toBeGreaterThan(0);
		expect(String(result.webhookResponse)).toContain('Your answer was recorded: Approve');
	});

	it('approve and decline: both buttons; decline resumes with approved: false', async () => {
		const parameters = {
			approvalOptions: {
				values: { approvalType: 'double', approveLabel: 'Yes, refund', disapproveLabel: 'No' },
			},
		};
		const page = await openLink({ method: 'GET', parameters });
		expect(page.sent.body).toContain('value="true">Yes, refund</button>');
		expect(page.sent.body).toContain('value="false">No</button>');
		const { result } = await openLink({ method: 'POST', body: { approved: 'false' }, parameters });
		expect(result.workflowData?.[0][0].json).toMatchObject({
			data: { approved: false },
			button: 'No',
		});
	});

	it('a POST without a valid choice resumes nothing and shows the page again', async () => {
		for (const body of [{}, { approved: 'maybe' }, { approved: 'false' }]) {
			const { result, sent } = await openLink({ method: 'POST', body });
			expect(result).toEqual({ noWebhookResponse: true });
			expect(sent.status).toBe(400);
			expect(sent.body).toContain('Choose one of the buttons.');
		}
	});

	it('free text: the page has a text box; its POST resumes with { data: { text } }; an empty one does not', async () => {
		const parameters = {
			responseType: 'freeText',
			options: { responseFormTitle: 'Delivery slot', responseFormButtonLabel: 'Send answer' },
		};
		const page = await openLink({ method: 'GET', parameters });
		expect(page.sent.body).toContain('<textarea id="text" name="text" required></textarea>');
		expect(page.sent.body).toContain('<h1>Delivery slot</h1>');
		const { result } = await openLink({
			method: 'POST',
			body: { text: '  Tomorrow after 5 pm  ' },
			parameters,
		});
		expect(result.workflowData?.[0][0].json).toMatchObject({
			data: { text: 'Tomorrow after 5 pm' },
		});
		const empty = await openLink({ method: 'POST', body: { text: ' ' }, parameters });
		expect(empty.result).toEqual({ noWebhookResponse: true });
		expect(empty.sent.status).toBe(400);
	});
});

describe('Send and Wait for Response: how n8n sees the node', () => {
	const description = new Peach().description;

	it('has the GET and POST waiting webhooks of a Send and Wait node (signed by n8n, path = node ID)', () => {
		expect(description.webhooks).toEqual(
			['GET', 'POST'].map((httpMethod) =>
				expect.objectContaining({
					name: 'default',
					httpMethod,
					responseMode: 'onReceived',
					path: '={{ $nodeId }}',
					restartWebhook: true,
					isFullPath: true,
				}),
			),
		);
	});

	it("offers operation sendAndWait with n8n's parameter names, so n8n makes a human-review tool of it", () => {
		const operation = description.properties.find(
			(p) =>
				p.name === 'operation' && p.displayOptions?.show?.resource?.includes('templateMessage'),
		);
		expect(operation?.options?.map((o) => (o as { value: string }).value)).toContain('sendAndWait');
		const names = description.properties
			.filter((p) => p.displayOptions?.show?.operation?.includes('sendAndWait'))
			.map((p) => p.name);
		expect(names).toEqual(
			expect.arrayContaining(['message', 'responseType', 'approvalOptions', 'options']),
		);
		const limit = description.properties.find(
			(p) => p.name === 'options' && p.displayOptions?.show?.operation?.includes('sendAndWait'),
		);
		expect(limit?.options?.map((o) => (o as { name: string }).name)).toContain('limitWaitTime');
	});
});
