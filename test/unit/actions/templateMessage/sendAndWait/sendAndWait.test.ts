import type { IDataObject, NodeOperationError } from 'n8n-workflow';
import { WAIT_INDEFINITELY } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { waitTillOf } from '../../../../../nodes/Peach/actions/templateMessage/sendAndWait/limit';
import { Peach } from '../../../../../nodes/Peach/Peach.node';
import {
	type FakeResponse,
	jsonOf,
	locator,
	type RecordedRequest,
	signedResumeUrl,
	TEST_WAITING_BASE,
} from '../../../support/harness';
import {
	customDataOf,
	newWaitingExecution,
	type WaitingExecution,
} from '../../../support/n8nExecutionData';
import { newExecution } from '../../../support/n8nRecovery';
import { runner } from '../../../support/resourceRun';
import { openLink, queryOf } from '../../../support/n8nWaiting';
import {
	approvalWith,
	approvedTemplate,
	body,
	readOf,
	urlButton,
} from '../../../support/templates';

/** The sandbox's approval template: a message variable and the link as text in the body. */
const inBody = readOf(
	approvalWith(
		"Approval needed: {{message | example: 'Approve?'}} Answer here: {{approval_link | example: 'https://x/1/a'}} for order {{order_id | example: 'A-7'}}. Thank you.",
	),
);

/** A template whose URL button carries the link after this n8n's waiting-webhook address. */
const withButton = (url: string) =>
	readOf(
		approvedTemplate(
			'wat_button',
			'approval_button',
			body("{{message | example: 'Approve?'}}"),
			urlButton(url, 'Answer'),
		),
	);

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

/** A request's method: a Send and Wait that refuses reads its template (to name every problem) and sends nothing. */
const methodOf = (request: { options: { method?: string } }) => request.options.method;

/** The node over `responses`, its templates read from them; the output, or the error it threw. */
const run = runner({ templates: 'responses' });

/** The liquid values of the send (the last request). */
function sentValues(requests: RecordedRequest[]): IDataObject {
	return (
		requests[requests.length - 1].body as { template_message: { liquid_values: IDataObject } }
	).template_message.liquid_values;
}

/** The link of a send: n8n's signed resume URL with this wait's own ID (22 base64url characters). */
function linkOf(requests: RecordedRequest[]): string {
	const link = String(sentValues(requests).approval_link);
	const waitId = new URL(link).searchParams.get('peachWait') ?? '';
	expect(waitId).toMatch(/^[\w-]{22}$/);
	expect(link).toBe(signedResumeUrl({ peachWait: waitId }));
	return link;
}

/** Asks (sends and waits) in the given execution; returns its link. */
async function ask(
	execution: WaitingExecution,
	params: Record<string, unknown> = base,
	runIndex = 0,
) {
	const lineage = newExecution(undefined, { n8nLine: execution.n8nLine, runIndex });
	const asked = await run(params, [inBody, queued], { execution, lineage });
	expect(asked.putExecutionToWait).toHaveBeenCalledTimes(1);
	return { ...asked, link: linkOf(asked.requests) };
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
					approval_link: linkOf(requests),
					header_media: { link: 'media://101', filename: 'quote.pdf' },
				},
			},
		});
		expect(putExecutionToWait).toHaveBeenCalledTimes(1);
		expect(jsonOf(output as never)).toEqual([
			{
				to: '+919988776655',
				message:
					'[document: quote.pdf]\nApproval needed: Approve the refund of ₹1,200 for order A-7? Answer here: [answer link] for order A-7. Thank you.',
				outcome: 'queued',
				peachId: 'evt_w1',
				status: 'success',
				event_id: 'evt_w1',
				media_url: 'media://101',
			},
		]);
	});

	it('In a Template Variable (default): the signed link and the message fill their variables; the workflow waits', async () => {
		// The message on one line.
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
					approval_link: linkOf(requests),
					message: 'Approve the refund of ₹1,200 for order A-7?',
				},
			},
		});
		expect(putExecutionToWait).toHaveBeenCalledWith(WAIT_INDEFINITELY);
		// Shown while the execution waits (the link itself never: whoever reads the output must not
		// be able to answer); the answer replaces it.
		expect(jsonOf(output as never)).toEqual([
			{
				to: '+919988776655',
				message:
					'Approval needed: Approve the refund of ₹1,200 for order A-7? Answer here: [answer link] for order A-7. Thank you.',
				outcome: 'queued',
				peachId: 'evt_w1',
				status: 'success',
				event_id: 'evt_w1',
			},
		]);
		expect(JSON.stringify(output)).not.toContain(linkOf(requests));
	});

	it("In a URL Button: the button's suffix is the link after this n8n's waiting-webhook address", async () => {
		const { requests } = await run(
			{ ...base, templateId: locator('wat_button'), linkPlacement: 'urlButton' },
			[withButton(`${TEST_WAITING_BASE}/{{approval_link | example: '1/a?signature=b'}}`), queued],
		);
		const suffix = String(sentValues(requests).approval_link);
		const link = `${TEST_WAITING_BASE}/${suffix}`;
		expect(link).toBe(
			signedResumeUrl({ peachWait: new URL(link).searchParams.get('peachWait') ?? '' }),
		);
		expect(suffix).toMatch(/^231\/node-1\?peachWait=[\w-]{22}&signature=a1b2c3d4e5f6$/);
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

	it('a template without the link or message variable is refused before the send, with every other problem', async () => {
		// Every other problem of the run is named at once.
		const noLink = await run({ ...base, linkVariable: 'answer_link' }, [inBody, queued]);
		expect(noLink.requests).toHaveLength(1);
		const linkError = noLink.output as NodeOperationError;
		expect(linkError.message).toBe(
			'Link Variable "answer_link" is not a variable of the template text (and 1 more to fix)',
		);
		// The template's own {{approval_link}} then carries nothing: named in the same error.
		expect(linkError.description).toMatch(
			/^Send and Wait checks its whole setup before it asks; fix these 2, then run again\. 1\) Link Variable "answer_link" is not a variable of the template text: .* 2\) Variable approval_link is empty for \+919988776655 \(item 0\): /,
		);
		const noMessage = await run({ ...base, messageVariable: 'question' }, [inBody, queued]);
		const messageError = noMessage.output as NodeOperationError;
		expect(messageError.message).toBe(
			'Message Variable "question" is not a variable of the template text (and 1 more to fix)',
		);
		expect(messageError.description).toContain(
			'1) Message Variable "question" is not a variable of the template text: Pick the variable that should carry the message (the template has message, approval_link, order_id), or None',
		);
		expect(messageError.description).toContain(
			'2) Variable message is empty for +919988776655 (item 0)',
		);
		const both = await run(
			{ ...base, linkVariable: 'answer_link', messageVariable: 'question', message: '' },
			[inBody, queued],
		);
		const all = both.output as NodeOperationError;
		expect(all.message).toBe('Message is empty (and 3 more to fix)');
		expect(all.description).toContain('2) Message Variable "question" is not a variable');
		expect(all.description).toContain('3) Link Variable "answer_link" is not a variable');
		expect(all.description).toContain(
			'4) Variable message (and approval_link) is empty for +919988776655 (item 0)',
		);
		// Without a message variable, the message shows on the page only: the template's {{message}}
		// then needs a value of its own (it is refused without one, as every empty variable is).
		const unfilled = await run({ ...base, messageVariable: '' }, [inBody, queued]);
		expect(unfilled.requests).toHaveLength(1);
		expect((unfilled.output as Error).message).toBe(
			'Variable message is empty for +919988776655 (item 0)',
		);
		const pageOnly = await run(
			{
				...base,
				messageVariable: '',
				variables: {
					values: [
						{ key: 'order_id', value: 'A-7' },
						{ key: 'message', value: 'See the page' },
					],
				},
			},
			[inBody, queued],
		);
		expect(
			(pageOnly.requests[1].body as { template_message: { liquid_values: IDataObject } })
				.template_message.liquid_values.message,
		).toBe('See the page');
	});

	it('refuses a variable the node fills, given among the others', async () => {
		const { requests, output } = await run(
			{ ...base, variables: { values: [{ key: 'approval_link', value: 'https://x' }] } },
			[inBody, queued],
		);
		expect(requests.map(methodOf)).toEqual(['GET']); // only the template was read
		// Its order_id is gone too (the rows replaced base's): both are named at once.
		expect((output as Error).message).toBe(
			'Other Template Variables "approval_link" is filled by the node (and 1 more to fix)',
		);
		expect((output as NodeOperationError).description).toContain(
			'2) Variable order_id is empty for +919988776655 (item 0)',
		);
	});

	it('one answer per execution: with several input items it asks for the first, as n8n says under the output', async () => {
		// n8n says "This action will run only once, for the first input item"; the node says nothing that
		// contradicts it.
		const { requests, output, putExecutionToWait } = await run(base, [inBody, queued], {
			items: 2,
		});
		expect(requests.map(methodOf)).toEqual(['GET', 'POST']);
		expect(putExecutionToWait).toHaveBeenCalledTimes(1);
		const items = (output as Array<Array<{ pairedItem: unknown }>>)[0];
		expect(items.map((item) => item.pairedItem)).toEqual([{ item: 0 }]);
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

/** Asks in a new execution of the given n8n line, then opens its link as n8n does. */
async function askThenOpen(input: {
	method: 'GET' | 'POST';
	body?: IDataObject;
	parameters?: Record<string, unknown>;
	n8nLine?: 1 | 2;
}) {
	const parameters = { ...base, ...input.parameters };
	const execution = newWaitingExecution(input.n8nLine ?? 2);
	const { link } = await ask(execution, parameters);
	const opened = await openLink({ ...input, execution, parameters, query: queryOf(link) });
	return { ...opened, link, execution };
}

describe('Template Message → Send and Wait for Response: the answer link', () => {
	it('a GET (a link preview, or the contact opening it) only shows the page: who is asked, and what; nothing resumes', async () => {
		const { result, sent } = await askThenOpen({
			method: 'GET',
			parameters: { contactFields: { name: 'Manager Ana' } },
		});
		expect(result).toEqual({ noWebhookResponse: true });
		expect(sent.status).toBe(200);
		expect(sent.headers['content-type']).toBe('text/html; charset=utf-8');
		expect(sent.headers['cache-control']).toBe('no-store');
		expect(sent.headers['content-security-policy']).toContain("default-src 'none'");
		// Self-contained: no script, no external asset; the message escaped; one POST form.
		expect(sent.body).not.toMatch(/<script|src=|href=|@import|url\(/i);
		expect(sent.body).toContain('<p class="who">Asked of Manager Ana</p>');
		expect(sent.body).toContain('Approve the refund of ₹1,200\nfor order A-7?');
		expect(sent.body).toContain('<form method="post">');
		expect(sent.body).toContain(
			'<button class="approve" type="submit" name="approved" value="true">Approve</button>',
		);
		expect(sent.body).not.toContain('value="false"');
	});

	it('the page names the number asked when the contact has no name', async () => {
		const { sent } = await askThenOpen({ method: 'GET' });
		expect(sent.body).toContain('<p class="who">Asked of +919988776655</p>');
	});

	it('the message is shown as text, never as HTML', async () => {
		const { sent } = await askThenOpen({
			method: 'GET',
			parameters: { message: '<img src=x onerror=alert(1)> & "quotes"' },
		});
		expect(sent.body).toContain('&lt;img src=x onerror=alert(1)&gt; &amp; &quot;quotes&quot;');
		expect(sent.body).not.toContain('<img');
	});

	it('the POST of the approve button resumes with { data: { approved: true } }, the button, and which link was answered when', async () => {
		const before = new Date().toISOString();
		const { result, link } = await askThenOpen({ method: 'POST', body: { approved: 'true' } });
		const [[item]] = result.workflowData ?? [[]];
		expect(item.json).toMatchObject({ data: { approved: true }, button: 'Approve' });
		const { respondedAt } = item.json.data as IDataObject;
		const answered = item.json.link as { id: string; askedAt: string; answeredAt: string };
		expect(answered.answeredAt).toBe(respondedAt);
		expect(before <= answered.askedAt && answered.askedAt <= answered.answeredAt).toBe(true);
		// The link's identity, not its secret: the link's own ID is nowhere in the output.
		expect(answered.id).toMatch(/^[\w-]{22}$/);
		expect(JSON.stringify(item.json)).not.toContain(new URL(link).searchParams.get('peachWait'));
		expect(String(result.webhookResponse)).toContain(
			'Recorded: <strong>approved</strong> (Approve)',
		);
	});

	it('approve and decline: both buttons; decline resumes with approved: false, and the page says declined', async () => {
		const parameters = {
			approvalOptions: {
				values: { approvalType: 'double', approveLabel: 'Yes, refund', disapproveLabel: 'No' },
			},
		};
		const page = await askThenOpen({ method: 'GET', parameters });
		expect(page.sent.body).toContain('value="true">Yes, refund</button>');
		expect(page.sent.body).toContain('value="false">No</button>');
		const { result } = await askThenOpen({
			method: 'POST',
			body: { approved: 'false' },
			parameters,
		});
		expect(result.workflowData?.[0][0].json).toMatchObject({
			data: { approved: false },
			button: 'No',
		});
		expect(String(result.webhookResponse)).toContain('Recorded: <strong>declined</strong> (No)');
	});

	it('a POST without a valid choice resumes nothing and shows the page again', async () => {
		for (const body of [{}, { approved: 'maybe' }, { approved: 'false' }]) {
			const { result, sent } = await askThenOpen({ method: 'POST', body });
			expect(result).toEqual({ noWebhookResponse: true });
			expect(sent.status).toBe(400);
			expect(sent.body).toContain('Choose one of the buttons.');
		}
	});

	it('free text: a text box; its POST resumes with { data: { text } } and says what was recorded; an empty one not', async () => {
		const parameters = {
			responseType: 'freeText',
			options: { responseFormTitle: 'Delivery slot', responseFormButtonLabel: 'Send answer' },
		};
		const page = await askThenOpen({ method: 'GET', parameters });
		expect(page.sent.body).toContain('<textarea id="text" name="text" required></textarea>');
		expect(page.sent.body).toContain('<h1>Delivery slot</h1>');
		const { result } = await askThenOpen({
			method: 'POST',
			body: { text: '  Tomorrow <after> 5 pm  ' },
			parameters,
		});
		expect(result.workflowData?.[0][0].json).toMatchObject({
			data: { text: 'Tomorrow <after> 5 pm' },
		});
		expect(String(result.webhookResponse)).toContain(
			'Your answer was recorded: <span class="answer">Tomorrow &lt;after&gt; 5 pm</span>',
		);
		const empty = await askThenOpen({ method: 'POST', body: { text: ' ' }, parameters });
		expect(empty.result).toEqual({ noWebhookResponse: true });
		expect(empty.sent.status).toBe(400);
	});
});

describe('Send and Wait for Response: each link answers its own wait', () => {
	for (const n8nLine of [2, 1] as const) {
		it(`n8n ${n8nLine}.x, Loop Over Items: A, then B, in one execution; A's old link resumes nothing`, async () => {
			// A's old link shows the question is closed; B's resumes B's wait.
			const execution = newWaitingExecution(n8nLine);
			const a = await ask(execution, { ...base, phoneNumber: '+919900000001' });
			// n8n resumes the execution with A's answer (a link of this wait), the loop asks B.
			const b = await ask(execution, { ...base, phoneNumber: '+919900000002' }, 1);
			expect(b.link).not.toBe(a.link);

			const staleA = await openLink({
				execution,
				parameters: base,
				method: 'POST',
				query: queryOf(a.link),
				body: { approved: 'true' },
			});
			expect(staleA.result).toEqual({ noWebhookResponse: true });
			expect(staleA.sent.status).toBe(200);
			expect(staleA.sent.body).toContain('<h1>This question is closed</h1>');
			expect(staleA.sent.body).toContain('Nothing was recorded.');
			expect(staleA.sent.body).not.toContain('<form');

			const pageA = await openLink({
				execution,
				parameters: base,
				method: 'GET',
				query: queryOf(a.link),
			});
			expect(pageA.sent.body).toContain('This question is closed');
			expect(pageA.sent.body).not.toContain('+919900000002');

			const answerB = await openLink({
				execution,
				parameters: base,
				method: 'POST',
				query: queryOf(b.link),
				body: { approved: 'true' },
			});
			expect(answerB.result.workflowData?.[0][0].json).toMatchObject({
				data: { approved: true },
				link: { askedAt: expect.any(String) },
			});
		});

		it(`n8n ${n8nLine}.x: a link without this wait's ID (n8n 1.x checks no signature) resumes nothing`, async () => {
			const execution = newWaitingExecution(n8nLine);
			const { link } = await ask(execution);
			const { signature } = queryOf(link);
			const queries: Array<Record<string, string>> = [
				{ signature: '0000' },
				{ signature },
				{ peachWait: '', signature },
				{ peachWait: 'A'.repeat(22), signature },
				{ peachWait: queryOf(link).peachWait.slice(0, 21), signature },
			];
			for (const query of queries) {
				const opened = await openLink({
					execution,
					parameters: base,
					method: 'POST',
					query,
					body: { approved: 'true' },
				});
				expect(opened.result).toEqual({ noWebhookResponse: true });
				expect(opened.sent.body).toContain('This question is closed');
			}
		});
	}

	for (const n8nLine of [2, 1] as const) {
		it(`n8n ${n8nLine}.x: once answered, the same link (a double tap, or the page sent again) resumes nothing`, async () => {
			const execution = newWaitingExecution(n8nLine);
			const { link } = await ask(execution);
			const query = queryOf(link);
			const first = await openLink({
				execution,
				parameters: base,
				method: 'POST',
				query,
				body: { approved: 'true' },
			});
			expect(first.result.workflowData).toHaveLength(1);
			const again = await openLink({
				execution: { ...execution, data: first.data },
				parameters: base,
				method: 'POST',
				query,
				body: { approved: 'true' },
			});
			expect(again.result).toEqual({ noWebhookResponse: true });
			expect(again.sent.body).toContain('This question is closed');
		});
	}

	it("the execution's custom data (shown in the executions list) keeps the wait under a key n8n accepts, without the link's ID", async () => {
		const execution = newWaitingExecution(2);
		const { link } = await ask(execution, { ...base, contactFields: { name: 'Manager Ana' } });
		const kept = customDataOf(execution).getAll();
		expect(Object.keys(kept)).toEqual(['peachWait_node1']);
		const [id, askedAt, who] = JSON.parse(kept.peachWait_node1) as string[];
		expect([id.length, Number.isNaN(Date.parse(askedAt)), who]).toEqual([22, false, 'Manager Ana']);
		expect(kept.peachWait_node1).not.toContain(queryOf(link).peachWait);
	});

	it("a wait n8n could not keep (the execution's custom data has 10 keys already) is refused before the send", async () => {
		const execution = newWaitingExecution(2);
		const customData = customDataOf(execution);
		for (let key = 1; key <= 10; key++) customData.set(`key${key}`, 'x');
		const { requests, output, putExecutionToWait } = await run(base, [inBody, queued], {
			execution,
		});
		expect(requests.map(methodOf)).toEqual(['GET']); // only the template was read
		expect(putExecutionToWait).not.toHaveBeenCalled();
		const error = output as NodeOperationError;
		expect(error.message).toBe(
			'Send and Wait "10 custom data keys" leave no room for the wait: n8n keeps at most 10 per execution, and the answer link needs one',
		);
		expect(error.description).toContain('Keys set now: key1, key2,');
		expect(error.description).toContain('Nothing was sent');
	});
});

describe('Send and Wait for Response: no link that is dead on arrival', () => {
	const localhost = 'http://localhost:5678/webhook-waiting';

	it("a link on this machine's loopback address (WEBHOOK_URL unset) is refused before the send, naming the setting", async () => {
		for (const waitingBase of [
			localhost,
			'http://127.0.0.1:5678/webhook-waiting',
			'http://[::1]:5678/webhook-waiting',
		]) {
			const { requests, output, putExecutionToWait } = await run(base, [inBody, queued], {
				waitingBase,
			});
			expect(requests.map(methodOf)).toEqual(['GET']); // only the template was read
			expect(putExecutionToWait).not.toHaveBeenCalled();
			const error = output as NodeOperationError;
			expect(error.message).toBe(
				`Answer Link "${new URL(waitingBase).origin}" points at this machine, so the person's phone cannot open it`,
			);
			expect(error.description).toContain(
				'Set N8N_WEBHOOK_URL (WEBHOOK_URL on n8n 1.x) to the public address of this n8n',
			);
			expect(error.description).toContain('in queue mode on every worker too');
			expect(error.description).toContain('Nothing was sent');
		}
	});

	it('a loopback link is sent when Peach is on this machine too (a local sandbox: npm run dev)', async () => {
		const { requests, putExecutionToWait } = await run(base, [inBody, queued], {
			waitingBase: localhost,
			baseUrl: 'http://127.0.0.1:5690',
		});
		expect(requests.map((r) => `${r.options.method} ${r.url}`)).toEqual([
			'GET http://127.0.0.1:5690/api/v1/whats_app_templates/wat_approval',
			'POST http://127.0.0.1:5690/api/v1/events',
		]);
		expect(String(sentValues(requests).approval_link)).toMatch(
			/^http:\/\/localhost:5678\/webhook-waiting\/231\/node-1\?peachWait=/,
		);
		expect(putExecutionToWait).toHaveBeenCalledTimes(1);
	});

	const limit = (values: IDataObject) => ({ ...base, options: { limitWaitTime: { values } } });

	for (const [what, values, message] of [
		[
			'a Max Date and Time in the past',
			{ limitType: 'atSpecifiedTime', maxDateAndTime: '2020-01-01T10:00:00Z' },
			'Limit Wait Time "2020-01-01T10:00:00Z" is already over: the link would be dead on arrival',
		],
		[
			'0 minutes',
			{ limitType: 'afterTimeInterval', resumeAmount: 0, resumeUnit: 'minutes' },
			'Limit Wait Time "0 minutes" is already over: the link would be dead on arrival',
		],
		[
			'100,000,000 days (no date)',
			{ limitType: 'afterTimeInterval', resumeAmount: 100_000_000, resumeUnit: 'days' },
			'Limit Wait Time "100000000 days" ends at no date n8n can keep',
		],
		[
			'a date after the year 9999',
			{ limitType: 'atSpecifiedTime', maxDateAndTime: '+010000-01-01T00:00:00Z' },
			'Limit Wait Time "+010000-01-01T00:00:00Z" ends at no date n8n can keep',
		],
	] as const) {
		it(`Limit Wait Time of ${what} is refused before the send`, async () => {
			const { requests, output, putExecutionToWait } = await run(limit(values), [inBody, queued]);
			expect(requests.map(methodOf)).toEqual(['GET']); // only the template was read
			expect(putExecutionToWait).not.toHaveBeenCalled();
			expect((output as Error).message).toBe(message);
		});
	}
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
