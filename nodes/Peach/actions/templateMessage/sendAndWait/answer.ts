import type { IDataObject, IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';

import type { FormField } from './form';
import { readAnswer } from './form.answers';
import { readCustomForm } from './form.definition';
import { answersWait, currentWait, forgetWait } from './link';
import { answeredPage, questionPage, stalePage, unavailablePage } from './page';

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
	const response = this.getResponseObject();
	const send = (status: number, html: string): IWebhookResponseData => {
		response.setHeader('Content-Type', 'text/html; charset=utf-8');
		response.setHeader('Cache-Control', 'no-store');
		response.setHeader(
			'Content-Security-Policy',
			"default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
		);
		response.status(status).send(html);
		return { noWebhookResponse: true };
	};
	const wait = currentWait(this);
	if (!wait || !answersWait(this, wait)) return send(200, stalePage());

	const type = this.getNodeParameter('responseType', 'approval');
	const responseType = type === 'freeText' || type === 'customForm' ? type : ('approval' as const);
	const approval = this.getNodeParameter('approvalOptions.values', {}) as IDataObject;
	const options = this.getNodeParameter('options', {}) as IDataObject;
	const double = approval.approvalType === 'double';
	const approveLabel = String(approval.approveLabel || 'Approve');
	const declineLabel = String(approval.disapproveLabel || 'Decline');
	const ask = {
		message: pageMessage(this),
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
	let fields: FormField[] = [];
	if (responseType === 'customForm') {
		try {
			fields = readCustomForm((name, fallback) => this.getNodeParameter(name, fallback));
		} catch (error) {
			// Checked before the send; a form that no longer reads (e.g. an expression) shows why.
			return send(500, unavailablePage((error as Error).message));
		}
	}
	if (request.method !== 'POST') return send(200, questionPage({ ...ask, fields }));

	const body = this.getBodyData();
	const respondedAt = new Date().toISOString();
	const link = { id: wait.id, askedAt: wait.askedAt, answeredAt: respondedAt };
	if (responseType === 'customForm') {
		const answer = readAnswer(fields, body);
		if (answer.problem !== undefined) {
			return send(
				400,
				questionPage({ ...ask, fields, given: answer.given, problem: answer.problem }),
			);
		}
		forgetWait(this);
		return {
			webhookResponse: answeredPage({ kind: 'form', answers: shownAnswers(fields, answer.data) }),
			workflowData: [
				[{ json: { data: { ...answer.data, respondedAt }, link }, pairedItem: { item: 0 } }],
			],
		};
	}
	if (responseType === 'freeText') {
		const text = typeof body.text === 'string' ? body.text.trim() : '';
		if (text === '') return send(400, questionPage({ ...ask, problem: 'Write an answer first.' }));
		forgetWait(this);
		return {
			webhookResponse: answeredPage({ kind: 'text', text }),
			workflowData: [[{ json: { data: { text, respondedAt }, link }, pairedItem: { item: 0 } }]],
		};
	}
	const choice =
		body.approved === 'true' ? true : body.approved === 'false' && double ? false : undefined;
	if (choice === undefined)
		return send(400, questionPage({ ...ask, problem: 'Choose one of the buttons.' }));
	const button = choice ? approveLabel : declineLabel;
	forgetWait(this);
	return {
		webhookResponse: answeredPage({ kind: 'approval', approved: choice, button }),
		workflowData: [
			[
				{
					json: { data: { approved: choice, respondedAt }, button, link },
					pairedItem: { item: 0 },
				},
			],
		],
	};
}
