import type { IDataObject } from 'n8n-workflow';

import { type FakeResponse, locator } from '../../../support/harness';
import { newWaitingExecution } from '../../../support/n8nExecutionData';
import { newExecution } from '../../../support/n8nRecovery';
import { runner, throwingRunner } from '../../../support/resourceRun';
import { openLink, queryOf } from '../../../support/n8nWaiting';
import { approvalWith, readOf } from '../../../support/templates';

/** Send and Wait's Custom Form: the template, the form and the runs its tests share. */

const template = readOf(
	approvalWith(
		"Approval needed: {{message | example: 'Refund?'}} Please answer here: {{approval_link | example: 'https://x/1/a'}} Thank you.",
	),
);
const queued: FakeResponse = {
	statusCode: 200,
	body: { status: 'success', event_id: 'evt_f1' },
};

export const option = (...labels: string[]) => ({
	values: labels.map((label) => ({ option: label })),
});

/** A form with one field of each kind the page offers. */
export const elements = [
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

export const base = {
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

/** `base` with a form of the fields `values` in place of `elements`. */
export const withFields = (...values: IDataObject[]) => ({ ...base, formFields: { values } });

/** A request's method: a Send and Wait that refuses reads its template (to name every problem) and sends nothing. */
export const methodOf = (request: { options: { method?: string } }) => request.options.method;

/** The form's runs: Peach answers the template read, then the send; templates are read from those answers. */
const answers = { responses: [template, queued], templates: 'responses' as const };
const attempt = runner(answers);
const run = throwingRunner(answers);

/** Asks with `params` in a new waiting execution of n8n 2.x: the output, or the error the node threw. */
export async function send(params: Record<string, unknown>) {
	const execution = newWaitingExecution(2);
	const sent = await attempt(params, undefined, {
		execution,
		lineage: newExecution(undefined, { n8nLine: 2 }),
	});
	return { ...sent, execution };
}

/**
 * Asks with the form, then posts to the link (or GETs it): `body` as n8n parsed it, or a form as a
 * browser posts it ([name, value] pairs, encoded and parsed as on the wire).
 */
export async function askAndOpen(
	method: 'GET' | 'POST',
	body?: IDataObject | Array<[string, string]>,
	parameters: Record<string, unknown> = base,
	n8nLine: 1 | 2 = 2,
) {
	const execution = newWaitingExecution(n8nLine);
	const asked = await run(parameters, undefined, {
		execution,
		lineage: newExecution(undefined, { n8nLine }),
	});
	const link = String(
		(
			asked.requests[1].body as {
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
export const valid = {
	'field-0': '1200.50',
	'field-1': 'Damaged',
	'field-2': '2026-12-03',
	'field-3': 'UPI',
	'field-4': ['Customer', 'Finance'],
	'field-5': '  Box was wet\nfrom rain  ',
	'field-6': 'ana@store.example',
	'field-7': ' s3cret ',
};
