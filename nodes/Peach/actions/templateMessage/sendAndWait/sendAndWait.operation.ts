import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { SEND_AND_WAIT_OPERATION } from 'n8n-workflow';

import { contactFieldsCollection, phoneNumberField } from '../../../descriptions/contact';
import { additionalFieldsCollection, businessPhoneNumberField } from '../../../descriptions/fields';
import { locator } from '../../../descriptions/locator';
import { headerMediaFields } from '../../../descriptions/headerMedia';
import { templateVariablesFields } from '../../../descriptions/templateVariables';
import { isPlainObject } from '../../../helpers/json';
import type {
	Delivered,
	DeliveringBatchOperation,
	OperationOption,
	PreparedDeliveries,
	Sight,
} from '../../operation/node.type';
import { rememberWait } from './link';
import {
	deliverTemplateMessage,
	previewTemplateMessage,
	recipientOfTemplateMessage,
	sameTemplateMessage,
	sightOfTemplateMessage,
	uploadHeaderFiles,
	witnessOfTemplateMessage,
} from '../shared';
import { responseProperties } from './response.description';
import type { WaitPlan } from './setup';
import { prepareWait } from './setup';

const option: OperationOption = {
	name: 'Send and Wait for Response',
	value: SEND_AND_WAIT_OPERATION,
	action: 'Send a template message and wait for approval or an answer',
	description:
		'Send an approved template with a link to an answer page (approve/decline, a written answer, or a form) and pause the workflow until the contact answers. Works outside the 24-hour window.',
};

const properties: INodeProperties[] = [
	phoneNumberField,
	locator('template', {
		required: true,
		description:
			'An approved template with a variable for the answer link (WhatsApp Template → Create → Approval Request makes one)',
	}),
	{
		displayName: 'Message',
		name: 'message',
		type: 'string',
		typeOptions: { rows: 4 },
		required: true,
		default: '',
		placeholder: 'e.g. Approve the refund of ₹1,200 for order A-7?',
		description:
			'The question. It goes into the Message Variable of the template (as one line) and is shown in full on the answer page.',
	},
	{
		displayName: 'Link Placement',
		name: 'linkPlacement',
		type: 'options',
		noDataExpression: true,
		options: [
			{
				name: 'In a Template Variable',
				value: 'variable',
				description: 'A variable of the body carries the link as text; works with any template',
			},
			{
				name: 'In a URL Button',
				value: 'urlButton',
				description:
					"The template's URL button ends with the variable; its URL must start with this n8n's waiting-webhook address",
			},
		],
		default: 'variable',
	},
	{
		displayName: 'Link Variable Name or ID',
		name: 'linkVariable',
		type: 'options',
		typeOptions: {
			loadOptionsMethod: 'getLinkVariables',
			loadOptionsDependsOn: ['templateId.value', 'linkPlacement'],
		},
		required: true,
		default: 'approval_link',
		description:
			'Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>',
		hint: 'The variable of the template that carries the answer link',
	},
	{
		displayName: 'Message Variable Name or ID',
		name: 'messageVariable',
		type: 'options',
		typeOptions: {
			loadOptionsMethod: 'getMessageVariables',
			loadOptionsDependsOn: ['templateId.value'],
		},
		default: 'message',
		description:
			'Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>',
		hint: 'The variable of the template that carries the message; with None it shows on the answer page only',
	},
	...templateVariablesFields({
		label: 'Other Template Variables',
		description:
			'Values of the other variables of the template (the message and link variables are filled by the node)',
	}),
	...headerMediaFields(),
	contactFieldsCollection(),
	...responseProperties,
	additionalFieldsCollection([businessPhoneNumberField()]),
];

/**
 * Send and Wait asks once per execution of the node, for its first input item, as n8n's own Send
 * and Wait nodes do (n8n says so under the output when there are more): that item is read and
 * checked (setup.ts), the others are not asked.
 */
async function prepareBatch(
	this: IExecuteFunctions,
	itemIndexes: number[],
): Promise<PreparedDeliveries<WaitPlan>> {
	const [first] = itemIndexes;
	if (first === undefined) return { deliveries: [], problems: [] };
	try {
		return {
			deliveries: [{ inputs: [first], plan: await prepareWait(this, first) }],
			problems: [],
		};
	} catch (error) {
		return { deliveries: [], problems: [{ itemIndex: first, error: error as Error }] };
	}
}

/** Every text in `value` with the answer link shown as [answer link]. Pure. */
function withoutLink(value: unknown, link: string): unknown {
	if (typeof value === 'string') return value.split(link).join('[answer link]');
	if (Array.isArray(value)) return value.map((entry) => withoutLink(entry, link));
	if (isPlainObject(value))
		return Object.fromEntries(
			Object.entries(value).map(([key, entry]) => [key, withoutLink(entry, link)]),
		);
	return value;
}

/**
 * What the question would send (`wouldSend`, exact) and what the phone shows (`preview`), the link
 * there as [answer link]: whoever can read the output (or the output of a real run, which shows
 * the message too) must not be able to answer with it.
 */
async function preview(
	this: IExecuteFunctions,
	plan: WaitPlan,
	itemIndex: number,
): Promise<IDataObject> {
	const json = await previewTemplateMessage.call(this, plan, itemIndex);
	return { ...json, preview: withoutLink(json.preview, plan.linkValue) as IDataObject };
}

/** After the send: the message as the phone shows it, the link there as [answer link] too. */
async function sight(this: IExecuteFunctions, plan: WaitPlan, itemIndex: number): Promise<Sight> {
	const { message = '' } = await sightOfTemplateMessage.call(this, plan, itemIndex);
	return { message: withoutLink(message, plan.linkValue) as string };
}

/**
 * What the question sends, between tries: the message without its answer link, which names this
 * execution and this wait (a Retry makes another).
 */
function sameDelivery(plan: WaitPlan): IDataObject {
	const same = sameTemplateMessage(plan);
	return JSON.parse(
		JSON.stringify(same, (_key, value: unknown) =>
			typeof value === 'string' && value.includes(plan.waitId) ? '(the answer link)' : value,
		),
	) as IDataObject;
}

/**
 * After the send: the execution waits for the answer, on this wait's link only (link.ts). The
 * output shown while it waits is Peach's answer (with `event_id`); the answer replaces it. When Limit
 * Wait Time runs out, n8n goes on with the node's input items, as for every Send and Wait node (they
 * have no `data`). A question an earlier try sent is not waited for.
 */
async function follow(
	this: IExecuteFunctions,
	delivered: Array<Delivered<WaitPlan>>,
): Promise<void> {
	for (const entry of delivered) {
		if (entry.earlier) {
			// Sent by the execution this one retries: its link answers that execution, not this one.
			entry.json.waitError = `The question was already sent by the execution this one retries${typeof entry.json.event_id === 'string' ? ` (event_id ${entry.json.event_id})` : ''}, and its link answers that execution, so this one does not wait. Nothing was sent again: to ask again, start a new execution.`;
			continue;
		}
		const plan = entry.prepared as WaitPlan;
		try {
			if (!rememberWait(this, plan.waitId, plan.who)) {
				throw new Error(
					"n8n did not keep the wait in the execution's custom data, so its link would answer nothing",
				);
			}
			await this.putExecutionToWait(plan.waitTill);
		} catch (error) {
			entry.json.waitError = `The message was sent (event_id ${String(entry.json.event_id)}), but n8n could not pause the workflow: ${(error as Error).message}`;
		}
	}
}

/**
 * Template Message → Send and Wait: one question, for the first input item, then the execution
 * waits for its answer (`follow`).
 */
export const sendAndWait: DeliveringBatchOperation<WaitPlan> = {
	option,
	properties,
	delivers: true,
	batch: true,
	prepareBatch,
	recipientOf: recipientOfTemplateMessage,
	preview,
	sameDelivery,
	witnessOf: witnessOfTemplateMessage,
	stage: uploadHeaderFiles,
	deliver: deliverTemplateMessage,
	follow,
	sight,
};
