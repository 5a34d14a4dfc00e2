import type {
	IDataObject,
	IExecuteFunctions,
	INodeProperties,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';
import { SEND_AND_WAIT_OPERATION, WAIT_INDEFINITELY } from 'n8n-workflow';

import { templateOf } from '../../api/templates';
import { contactFieldsCollection, phoneNumberField } from '../../descriptions/contact';
import { businessPhoneNumberField } from '../../descriptions/fields';
import { locator } from '../../descriptions/locator';
import { headerMediaFields } from '../../descriptions/headerMedia';
import { templateVariablesFields } from '../../descriptions/templateVariables';
import { isSet, requireText, waitingWebhookBase } from '../../helpers/fields';
import { PeachInputError } from '../../helpers/inputError';
import { isPlainObject, setOwn } from '../../helpers/json';
import { placesOf, templateVariables } from '../../helpers/templateVariables';
import { parseDateTime } from '../../helpers/time';
import { liquidValuesOfItem, locatorValueOf } from '../itemParameters';
import type { Delivered, OperationOption } from '../node.type';
import type { TemplateMessagePlan } from './shared';
import { buildSendTemplateMessageBody, headerMediaOfBody } from './shared';
import { answeredPage, questionPage } from './sendAndWait.page';

export const option: OperationOption = {
	name: 'Send and Wait for Response',
	value: SEND_AND_WAIT_OPERATION,
	action: 'Send a template message and wait for the answer',
	description:
		'Send an approved template with a link to an answer page (approve/decline, or a written answer) and pause the workflow until the contact answers. Works outside the 24-hour window. Sent once: never repeat one that failed without checking.',
};

/** The link's place in the template. */
const LINK_PLACEMENTS = ['variable', 'urlButton'];

/** A WhatsApp template variable may not hold new lines, tabs or more than 4 spaces in a row (Meta). */
const VARIABLE_MAX_LENGTH = 600;

const limitWaitTime: INodeProperties = {
	displayName: 'Limit Wait Time',
	name: 'limitWaitTime',
	type: 'fixedCollection',
	description:
		'Whether to stop waiting after a time: the workflow then goes on with the input items, without data (no answer)',
	default: { values: { limitType: 'afterTimeInterval', resumeAmount: 45, resumeUnit: 'minutes' } },
	options: [
		{
			displayName: 'Values',
			name: 'values',
			values: [
				{
					displayName: 'Limit Type',
					name: 'limitType',
					type: 'options',
					default: 'afterTimeInterval',
					options: [
						{
							name: 'After Time Interval',
							value: 'afterTimeInterval',
							description: 'Waits for a certain amount of time',
						},
						{
							name: 'At Specified Time',
							value: 'atSpecifiedTime',
							description: 'Waits until the set date and time',
						},
					],
				},
				{
					displayName: 'Amount',
					name: 'resumeAmount',
					type: 'number',
					typeOptions: { minValue: 0, numberPrecision: 2 },
					default: 1,
					displayOptions: { show: { limitType: ['afterTimeInterval'] } },
				},
				{
					displayName: 'Unit',
					name: 'resumeUnit',
					type: 'options',
					options: [
						{ name: 'Minutes', value: 'minutes' },
						{ name: 'Hours', value: 'hours' },
						{ name: 'Days', value: 'days' },
					],
					default: 'hours',
					displayOptions: { show: { limitType: ['afterTimeInterval'] } },
				},
				{
					displayName: 'Max Date and Time',
					name: 'maxDateAndTime',
					type: 'dateTime',
					default: '',
					description: 'Continue after this date and time',
					displayOptions: { show: { limitType: ['atSpecifiedTime'] } },
				},
			],
		},
	],
};

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
		],
	},
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
		displayOptions: { show: { responseType: ['freeText'] } },
	},
	{
		displayName: 'Additional Fields',
		name: 'additionalFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		options: [businessPhoneNumberField()],
	},
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

/** When the wait ends by itself (Options → Limit Wait Time), or never. */
export function waitTillOf(limit: unknown, timeZone: string, now = Date.now()): Date {
	const values = isPlainObject(limit) && isPlainObject(limit.values) ? limit.values : undefined;
	if (!values) return WAIT_INDEFINITELY;
	if (values.limitType === 'atSpecifiedTime') {
		return parseDateTime(
			'Limit Wait Time → Max Date and Time',
			values.maxDateAndTime,
			timeZone,
		).toJSDate();
	}
	const amount = Number(values.resumeAmount);
	const unit = { minutes: 60_000, hours: 3_600_000, days: 86_400_000 }[
		String(values.resumeUnit) as 'minutes' | 'hours' | 'days'
	];
	if (!Number.isFinite(amount) || amount < 0 || unit === undefined) {
		throw new PeachInputError(
			'Limit Wait Time',
			`${String(values.resumeAmount)} ${String(values.resumeUnit)}`,
			'is not a duration',
			'Give an amount of minutes, hours or days, e.g. 45 minutes.',
		);
	}
	return new Date(now + amount * unit);
}

/**
 * Where the answer link goes, checked against the template: a variable of its text, or a URL button
 * that ends with the variable and starts with this n8n's waiting-webhook address. Returns the value
 * of the link variable: the whole link, or the part after that address. Pure.
 */
export function linkValue(input: {
	template: unknown;
	placement: string;
	variable: string;
	link: string;
	/** This n8n's waiting-webhook address, e.g. https://n8n.example.com/webhook-waiting. */
	waitingBase: string;
}): string {
	const { template, placement, variable, link, waitingBase } = input;
	const places = placesOf(template, variable);
	if (placement === 'urlButton') {
		const buttonUrl = `${waitingBase}/{{${variable}}}`;
		const button = places.find((place) => place.component === 'url button');
		if (!button || !button.atEnd || button.urlBefore !== `${waitingBase}/`) {
			throw new PeachInputError(
				'Link Placement',
				'In a URL Button',
				button
					? `does not fit the template's URL button (${button.urlBefore ?? ''}{{${variable}}})`
					: `needs a URL button ending with {{${variable}}}, which the template has not`,
				`The template's URL button must be exactly ${buttonUrl}: this n8n's waiting-webhook address, then the variable. WhatsApp Template → Create → Approval Request (In a URL Button) makes such a template; or choose In a Template Variable.`,
			);
		}
		return link.slice(waitingBase.length + 1);
	}
	if (!places.some((place) => place.component !== 'url button')) {
		throw new PeachInputError(
			'Link Variable',
			variable,
			'is not a variable of the template text',
			`Add {{${variable} | example: 'https://n8n.example.com/webhook-waiting/1/abc'}} to the template's body, or name the variable that should carry the link. WhatsApp Template → Create → Approval Request makes such a template.`,
		);
	}
	return link;
}

/** One Send and Wait, read and checked: the request body, its header file, when the wait ends. */
export interface WaitPlan extends TemplateMessagePlan {
	waitTill: Date;
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
	const link = this.getSignedResumeUrl();
	const waitingBase = waitingWebhookBase(link, this.getExecutionId());
	const liquidValues: IDataObject = { ...given };
	setOwn(
		liquidValues,
		linkVariable,
		linkValue({ template, placement, variable: linkVariable, link, waitingBase }),
	);
	if (messageVariable) setOwn(liquidValues, messageVariable, messageForVariable(message));
	const additionalFields = this.getNodeParameter('additionalFields', itemIndex, {}) as IDataObject;
	const options = this.getNodeParameter('options', itemIndex, {}) as IDataObject;
	const body = buildSendTemplateMessageBody(
		{
			phoneNumber: this.getNodeParameter('phoneNumber', itemIndex),
			templateId,
			liquidValues,
			contactFields: this.getNodeParameter('contactFields', itemIndex, {}) as IDataObject,
			additionalFields: isSet(additionalFields.businessPhoneNumber)
				? { businessPhoneNumber: additionalFields.businessPhoneNumber }
				: {},
		},
		this.getTimezone(),
	);
	return {
		body,
		headerMedia: await headerMediaOfBody(this, itemIndex, body),
		waitTill: waitTillOf(options.limitWaitTime, this.getTimezone()),
	};
}

export {
	deliverTemplateMessage as deliver,
	recipientOfTemplateMessage as recipientOf,
	uploadHeaderFiles as stage,
} from './shared';

/**
 * After the send: the execution waits for the answer. The output shown while it waits is Peach's
 * answer (with `event_id`); the answer replaces it. A question an earlier try sent is not waited for. When Limit Wait Time runs out, n8n goes on with
 * the node's input items, as for every Send and Wait node (they have no `data`).
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
		try {
			await this.putExecutionToWait(entry.prepared?.waitTill ?? WAIT_INDEFINITELY);
		} catch (error) {
			entry.json.waitError = `The message was sent (event_id ${String(entry.json.event_id)}), but n8n could not pause the workflow: ${(error as Error).message}`;
		}
	}
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
 * its form resumes the workflow with `{ data: { approved } }` or `{ data: { text } }`. n8n checks the
 * link's signature before this runs, and shows its own page for a link whose wait is over.
 */
export async function webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
	const request = this.getRequestObject();
	const response = this.getResponseObject();
	const responseType =
		this.getNodeParameter('responseType', 'approval') === 'freeText' ? 'freeText' : 'approval';
	const approval = this.getNodeParameter('approvalOptions.values', {}) as IDataObject;
	const options = this.getNodeParameter('options', {}) as IDataObject;
	const double = approval.approvalType === 'double';
	const approveLabel = String(approval.approveLabel || 'Approve');
	const declineLabel = String(approval.disapproveLabel || 'Decline');
	const ask = {
		message: pageMessage(this),
		responseType,
		approveLabel,
		declineLabel: double ? declineLabel : undefined,
		title: typeof options.responseFormTitle === 'string' ? options.responseFormTitle : undefined,
		buttonLabel:
			typeof options.responseFormButtonLabel === 'string'
				? options.responseFormButtonLabel
				: undefined,
	} as const;
	const show = (status: number, problem?: string): IWebhookResponseData => {
		response.setHeader('Content-Type', 'text/html; charset=utf-8');
		response.setHeader('Cache-Control', 'no-store');
		response.setHeader(
			'Content-Security-Policy',
			"default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
		);
		response.status(status).send(questionPage({ ...ask, problem }));
		return { noWebhookResponse: true };
	};
	if (request.method !== 'POST') return show(200);

	const body = this.getBodyData();
	const respondedAt = new Date().toISOString();
	if (responseType === 'freeText') {
		const text = typeof body.text === 'string' ? body.text.trim() : '';
		if (text === '') return show(400, 'Write an answer first.');
		return {
			webhookResponse: answeredPage(text),
			workflowData: [[{ json: { data: { text, respondedAt } }, pairedItem: { item: 0 } }]],
		};
	}
	const choice =
		body.approved === 'true' ? true : body.approved === 'false' && double ? false : undefined;
	if (choice === undefined) return show(400, 'Choose one of the buttons.');
	const button = choice ? approveLabel : declineLabel;
	return {
		webhookResponse: answeredPage(button),
		workflowData: [
			[{ json: { data: { approved: choice, respondedAt }, button }, pairedItem: { item: 0 } }],
		],
	};
}
