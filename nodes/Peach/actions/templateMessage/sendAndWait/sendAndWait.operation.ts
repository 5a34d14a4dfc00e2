import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { SEND_AND_WAIT_OPERATION } from 'n8n-workflow';

import { templateOf } from '../../../api/templates';
import { contactFieldsCollection, phoneNumberField } from '../../../descriptions/contact';
import { additionalFieldsCollection, businessPhoneNumberField } from '../../../descriptions/fields';
import { locator } from '../../../descriptions/locator';
import { headerMediaFields } from '../../../descriptions/headerMedia';
import { templateVariablesFields } from '../../../descriptions/templateVariables';
import { isSet, requireText } from '../../../helpers/fields';
import { PeachInputError } from '../../../helpers/inputError';
import { isPlainObject, setOwn } from '../../../helpers/json';
import { templateVariables } from '../../../helpers/templateVariables';
import { liquidValuesOfItem, locatorValueOf } from '../../itemParameters';
import type { Delivered, OperationOption } from '../../node.type';
import { checkCanRemember, checkReachable, linkValue, makeAnswerLink, rememberWait } from './link';
import { readCustomForm } from './form.definition';
import { customFormProperties } from './form.description';
import { limitWaitTime, waitTillOf } from './limit';
import type { TemplateMessagePlan } from '../shared';
import { buildSendTemplateMessageBody, checkAgainstTemplate, sameTemplateMessage } from '../shared';

export const option: OperationOption = {
	name: 'Send and Wait for Response',
	value: SEND_AND_WAIT_OPERATION,
	action: 'Send a template message and wait for the answer',
	description:
		'Send an approved template with a link to an answer page (approve/decline, a written answer, or a form) and pause the workflow until the contact answers. Works outside the 24-hour window. Sent once: never repeat one that failed without checking.',
};

/** The link's place in the template. */
const LINK_PLACEMENTS = ['variable', 'urlButton'];

/** A WhatsApp template variable may not hold new lines, tabs or more than 4 spaces in a row (Meta). */
const VARIABLE_MAX_LENGTH = 600;

export const properties: INodeProperties[] = [
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
		displayName: 'Link Variable',
		name: 'linkVariable',
		type: 'string',
		required: true,
		default: 'approval_link',
		placeholder: 'e.g. approval_link',
		description: 'The template variable that carries the answer link',
	},
	{
		displayName: 'Message Variable',
		name: 'messageVariable',
		type: 'string',
		default: 'message',
		placeholder: 'e.g. message',
		description:
			'The template variable that carries the message. Leave it empty when the template has its own text: the message then shows on the answer page only.',
	},
	...templateVariablesFields({
		dependsOn: ['linkVariable', 'messageVariable', 'headerMedia'],
		label: 'Other Template Variables',
		description:
			'Values of the other variables of the template (the message and link variables are filled by the node)',
	}),
	...headerMediaFields(),
	contactFieldsCollection(),
	{
		displayName: 'Response Type',
		name: 'responseType',
		type: 'options',
		default: 'approval',
		options: [
			{
				name: 'Approval',
				value: 'approval',
				description: 'The contact approves (or declines) on the answer page',
			},
			{
				name: 'Free Text',
				value: 'freeText',
				description: 'The contact writes an answer on the answer page',
			},
			{
				name: 'Custom Form',
				value: 'customForm',
				description:
					'The contact fills in a form on the answer page (an amount, a choice, a date…)',
			},
		],
	},
	...customFormProperties.map((property) => ({
		...property,
		displayOptions: {
			show: { ...property.displayOptions?.show, responseType: ['customForm'] },
		},
	})),
	{
		displayName: 'Approval Options',
		name: 'approvalOptions',
		type: 'fixedCollection',
		placeholder: 'Add option',
		default: {},
		options: [
			{
				displayName: 'Values',
				name: 'values',
				values: [
					{
						displayName: 'Type of Approval',
						name: 'approvalType',
						type: 'options',
						default: 'single',
						options: [
							{ name: 'Approve Only', value: 'single' },
							{ name: 'Approve and Disapprove', value: 'double' },
						],
					},
					{
						displayName: 'Approve Button Label',
						name: 'approveLabel',
						type: 'string',
						default: 'Approve',
					},
					{
						displayName: 'Disapprove Button Label',
						name: 'disapproveLabel',
						type: 'string',
						default: 'Decline',
						displayOptions: { show: { approvalType: ['double'] } },
					},
				],
			},
		],
		displayOptions: { show: { responseType: ['approval'] } },
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add option',
		default: {},
		options: [limitWaitTime],
		displayOptions: { show: { responseType: ['approval'] } },
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add option',
		default: {},
		options: [
			limitWaitTime,
			{
				displayName: 'Response Form Button Label',
				name: 'responseFormButtonLabel',
				type: 'string',
				default: 'Send',
			},
			{
				displayName: 'Response Form Title',
				name: 'responseFormTitle',
				type: 'string',
				default: '',
				description: 'Title of the answer page',
			},
		],
		displayOptions: { show: { responseType: ['freeText', 'customForm'] } },
	},
	additionalFieldsCollection([businessPhoneNumberField()]),
];

/** The message as one template variable: no new lines or tabs, no long runs of spaces, not too long. */
export function messageForVariable(message: string): string {
	const line = message
		.replace(/\\n/g, ' ')
		.replace(/[\r\n\t]+/g, ' ')
		.replace(/ {2,}/g, ' ')
		.trim();
	return line.length > VARIABLE_MAX_LENGTH ? `${line.slice(0, VARIABLE_MAX_LENGTH - 1)}…` : line;
}

/**
 * One Send and Wait, read and checked: the request body, its header file, when the wait ends, and
 * the wait the answer link belongs to (its ID, and who is asked).
 */
export interface WaitPlan extends TemplateMessagePlan {
	waitTill: Date;
	waitId: string;
	who: string;
}

export const delivers = true;

/**
 * Reads and checks the one item: the template (read from Peach) must have the link's place, the
 * message and link variables are filled by the node, and the link is n8n's signed resume URL.
 */
export async function prepare(this: IExecuteFunctions, itemIndex: number): Promise<WaitPlan> {
	const items = this.getInputData().length;
	if (items > 1) {
		throw new PeachInputError(
			'Send and Wait',
			`${items} input items`,
			'waits for one answer per execution',
			'Send one item: put a Loop Over Items node (batch size 1) before this node, or keep only the item to ask about.',
		);
	}
	if (typeof this.getSignedResumeUrl !== 'function') {
		throw new PeachInputError(
			'Send and Wait',
			'this n8n',
			'has no signed resume links',
			'Update n8n to a version this package is tested with (README, Compatibility): n8n 1.123 or 2.40.',
		);
	}
	const templateId = locatorValueOf(
		this,
		itemIndex,
		'templateId',
		'Template',
		'Pick an approved template From List, or enter its ID By ID (e.g. wat_1234abcd).',
	);
	const placement = this.getNodeParameter('linkPlacement', itemIndex, 'variable') as string;
	if (!LINK_PLACEMENTS.includes(placement)) {
		throw new PeachInputError(
			'Link Placement',
			placement,
			'is not a choice',
			'Choose In a Template Variable or In a URL Button.',
		);
	}
	const linkVariable = requireText(
		'Link Variable',
		this.getNodeParameter('linkVariable', itemIndex, 'approval_link'),
		'Name the template variable that carries the link, e.g. approval_link.',
	);
	const messageVariable = String(
		this.getNodeParameter('messageVariable', itemIndex, '') ?? '',
	).trim();
	const message = requireText(
		'Message',
		this.getNodeParameter('message', itemIndex, ''),
		'Write the question, e.g. Approve the refund of ₹1,200 for order A-7?',
	);
	const given = liquidValuesOfItem(this, itemIndex, 'Other Template Variables') ?? {};
	for (const filled of [linkVariable, messageVariable].filter(Boolean)) {
		if (Object.prototype.hasOwnProperty.call(given, filled)) {
			throw new PeachInputError(
				'Other Template Variables',
				filled,
				'is filled by the node',
				`Remove ${filled} from the other variables: the node puts the ${filled === linkVariable ? 'answer link' : 'message'} there.`,
			);
		}
	}
	// The wait and its link first: what would make the link useless refuses before any request.
	if (this.getNodeParameter('responseType', itemIndex, 'approval') === 'customForm') {
		readCustomForm((name, fallback) => this.getNodeParameter(name, itemIndex, fallback));
	}
	const options = this.getNodeParameter('options', itemIndex, {}) as IDataObject;
	const waitTill = waitTillOf(options.limitWaitTime, this.getTimezone());
	checkCanRemember(this);
	const link = makeAnswerLink(this);
	await checkReachable(this, link);
	const template = await templateOf(this, templateId, itemIndex);
	if (
		messageVariable &&
		!templateVariables(template).some((variable) => variable.name === messageVariable)
	) {
		throw new PeachInputError(
			'Message Variable',
			messageVariable,
			'is not a variable of the template',
			'Name the template variable that should carry the message, or leave Message Variable empty (the message then shows on the answer page only).',
		);
	}
	const liquidValues: IDataObject = { ...given };
	setOwn(
		liquidValues,
		linkVariable,
		linkValue({ template, placement, variable: linkVariable, link }),
	);
	if (messageVariable) setOwn(liquidValues, messageVariable, messageForVariable(message));
	const additionalFields = this.getNodeParameter('additionalFields', itemIndex, {}) as IDataObject;
	const contactFields = this.getNodeParameter('contactFields', itemIndex, {}) as IDataObject;
	const body = buildSendTemplateMessageBody(
		{
			phoneNumber: this.getNodeParameter('phoneNumber', itemIndex),
			templateId,
			liquidValues,
			contactFields,
			additionalFields: isSet(additionalFields.businessPhoneNumber)
				? { businessPhoneNumber: additionalFields.businessPhoneNumber }
				: {},
		},
		this.getTimezone(),
	);
	const contact = isPlainObject(body.contact) ? body.contact : {};
	return {
		body,
		headerMedia: await checkAgainstTemplate(this, itemIndex, body, 'Other Template Variables'),
		waitTill,
		waitId: link.waitId,
		who:
			typeof contact.name === 'string' && contact.name
				? contact.name
				: String(contact.phone_number),
	};
}

export {
	deliverTemplateMessage as deliver,
	previewTemplateMessage as preview,
	recipientOfTemplateMessage as recipientOf,
	uploadHeaderFiles as stage,
	witnessOfTemplateMessage as witnessOf,
} from '../shared';

/**
 * What the question sends, between tries: the message without its answer link, which names this
 * execution and this wait (a Retry makes another).
 */
export function sameDelivery(plan: WaitPlan): IDataObject {
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
export async function follow(
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
