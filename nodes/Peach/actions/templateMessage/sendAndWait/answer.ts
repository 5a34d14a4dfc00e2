import type { IDataObject, IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';

import type { FormField } from './form';
import { readAnswer } from './form.answers';
import { readCustomForm } from './form.definition';
import type { CurrentWait } from './link';
import { answersWait, currentWait, forgetWait } from './link';
import type { Recorded } from './page';
import { answeredPage, questionPage, stalePage, unavailablePage } from './page';

/**
 * The fields a page posted. A Custom Form posts multipart/form-data (n8n 2.41 refuses any other body
 * there, as for its own forms), which n8n parses into `{ data, files }`; the other pages post
 * application/x-www-form-urlencoded, which n8n parses into the fields themselves.
 */
function postedFields(contentType: unknown, body: IDataObject): IDataObject {
	if (
		typeof contentType !== 'string' ||
		!contentType.toLowerCase().startsWith('multipart/form-data')
	)
		return body;
	const { data } = body;
	return typeof data === 'object' && data !== null && !Array.isArray(data)
		? (data as IDataObject)
		: {};
}

/**
 * What happens when a Send and Wait answer link is opened: n8n's waiting webhook of the node (GET
 * shows the page, POST takes the answer and resumes the workflow).
 */

/** The answers said back on the page: what the person filled in (a password never shown). */
function shownAnswers(fields: FormField[], data: IDataObject) {
	return fields
		.filter((field) => field.type !== 'hiddenField' && field.type !== 'html')
		.map((field) => {
			const value = data[field.key];
			return {
				label: field.label,
				value:
					field.type === 'password' && value
						? '••••••'
						: Array.isArray(value)
							? value.join(', ')
							: value === null || value === undefined
								? '—'
								: String(value),
			};
		});
}

/** The message for the page; an expression n8n cannot resolve here (e.g. an AI tool's) shows none. */
function pageMessage(context: IWebhookFunctions): string {
	try {
		return String(context.getNodeParameter('message', '') ?? '');
	} catch {
		return '';
	}
}

/** Replies with a page of the link, its status and HTML (n8n then sends no response of its own). */
type Send = (status: number, html: string) => IWebhookResponseData;

/**
 * Sends the pages of the link as HTML that no one caches, that loads nothing from elsewhere, posts
 * only to itself and shows in no frame.
 */
function pageSender(response: ReturnType<IWebhookFunctions['getResponseObject']>): Send {
	return (status, html) => {
		response.setHeader('Content-Type', 'text/html; charset=utf-8');
		response.setHeader('Cache-Control', 'no-store');
		response.setHeader(
			'Content-Security-Policy',
			"default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
		);
		response.status(status).send(html);
		return { noWebhookResponse: true };
	};
}

/**
 * What the page asks, as the node's parameters set it (a custom form's fields apart): the approval's
 * buttons (the decline button only with Approve and Disapprove), the free text's title and button.
 */
function askOf(context: IWebhookFunctions, wait: CurrentWait) {
	const type = context.getNodeParameter('responseType', 'approval');
	const responseType = type === 'freeText' || type === 'customForm' ? type : ('approval' as const);
	const approval = context.getNodeParameter('approvalOptions.values', {}) as IDataObject;
	const options = context.getNodeParameter('options', {}) as IDataObject;
	const double = approval.approvalType === 'double';
	const approveLabel = String(approval.approveLabel || 'Approve');
	const declineLabel = String(approval.disapproveLabel || 'Decline');
	return {
		message: pageMessage(context),
		who: wait.who,
		responseType,
		approveLabel,
		declineLabel: double ? declineLabel : undefined,
		title: typeof options.responseFormTitle === 'string' ? options.responseFormTitle : undefined,
		buttonLabel:
			typeof options.responseFormButtonLabel === 'string'
				? options.responseFormButtonLabel
				: undefined,
	} as const;
}

/** A POST of the page being taken: what the page asks, the answer as n8n parsed it, and when. */
interface Answering {
	context: IWebhookFunctions;
	send: Send;
	ask: ReturnType<typeof askOf>;
	body: IDataObject;
	respondedAt: string;
	/** The output's `link`: which wait the answer is for, and when it was asked and answered. */
	link: IDataObject;
}

/** The answer is taken: its wait is forgotten, the page says what was recorded, the workflow resumes. */
function resume(
	{ context }: Answering,
	recorded: Recorded,
	json: IDataObject,
): IWebhookResponseData {
	forgetWait(context);
	return {
		webhookResponse: answeredPage(recorded),
		workflowData: [[{ json, pairedItem: { item: 0 } }]],
	};
}

/** Custom form: the answer checked against the form; a problem shows the form again as it was filled. */
function formAnswer(answering: Answering, fields: FormField[]): IWebhookResponseData {
	const { send, ask, body, respondedAt, link } = answering;
	const answer = readAnswer(fields, body);
	if (answer.problem !== undefined) {
		return send(
			400,
			questionPage({ ...ask, fields, given: answer.given, problem: answer.problem }),
		);
	}
	return resume(
		answering,
		{ kind: 'form', answers: shownAnswers(fields, answer.data) },
		{ data: { ...answer.data, respondedAt }, link },
	);
}

/** Free text: the answer, trimmed; a blank one shows the page again. */
function textAnswer(answering: Answering): IWebhookResponseData {
	const { send, ask, body, respondedAt, link } = answering;
	const text = typeof body.text === 'string' ? body.text.trim() : '';
	if (text === '') return send(400, questionPage({ ...ask, problem: 'Write an answer first.' }));
	return resume(answering, { kind: 'text', text }, { data: { text, respondedAt }, link });
}

/**
 * Approval: the button pressed (approve, or decline where the page shows that button); a post that
 * names no such button shows the page again.
 */
function approvalAnswer(answering: Answering): IWebhookResponseData {
	const { send, ask, body, respondedAt, link } = answering;
	const button =
		body.approved === 'true'
			? ask.approveLabel
			: body.approved === 'false'
				? ask.declineLabel
				: undefined;
	if (button === undefined)
		return send(400, questionPage({ ...ask, problem: 'Choose one of the buttons.' }));
	const approved = body.approved === 'true';
	return resume(
		answering,
		{ kind: 'approval', approved, button },
		{ data: { approved, respondedAt }, button, link },
	);
}

/**
 * The answer link. A GET (the contact opening it, or a link preview) only shows the page; the POST of
 * its form resumes the workflow with `{ data: { approved } }`, `{ data: { text } }` or the custom form's
 * `{ data: { <field>: value } }` (checked against the form first), and `link`: which
 * wait it answered and when. A link of another wait of this node (an earlier question of a loop, or one
 * answered already) shows that and resumes nothing. n8n checks the link's signature before this runs
 * (2.x), and shows its own page for a link whose execution no longer waits.
 */
export async function webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
	const request = this.getRequestObject();
	const send = pageSender(this.getResponseObject());
	const wait = currentWait(this);
	if (!wait || !answersWait(this, wait)) return send(200, stalePage());

	const ask = askOf(this, wait);
	let fields: FormField[] = [];
	if (ask.responseType === 'customForm') {
		try {
			fields = readCustomForm((name, fallback) => this.getNodeParameter(name, fallback));
		} catch (error) {
			// Checked before the send; a form that no longer reads (e.g. an expression) shows why.
			return send(500, unavailablePage((error as Error).message));
		}
	}
	if (request.method !== 'POST') return send(200, questionPage({ ...ask, fields }));

	const body = postedFields(request.headers['content-type'], this.getBodyData());
	const respondedAt = new Date().toISOString();
	const link = { id: wait.id, askedAt: wait.askedAt, answeredAt: respondedAt };
	const answering: Answering = { context: this, send, ask, body, respondedAt, link };
	if (ask.responseType === 'customForm') return formAnswer(answering, fields);
	if (ask.responseType === 'freeText') return textAnswer(answering);
	return approvalAnswer(answering);
}
