import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { contactFieldsCollection, phoneNumberField } from '../../descriptions/contact';
import { additionalFieldsCollection, businessPhoneNumberField } from '../../descriptions/fields';
import { headerMediaFields } from '../../descriptions/headerMedia';
import { locator } from '../../descriptions/locator';
import { templateVariablesFields } from '../../descriptions/templateVariables';
import {
	liquidValuesOf,
	parameterOfItem,
	replyAutomationOfItem,
	variablesOfItem,
} from '../item/itemParameters';
import type { DeliveringOperation, OperationOption } from '../operation/node.type';
import type { TemplateMessagePlan } from './shared';
import {
	buildSendTemplateMessageBody,
	checkAgainstTemplate,
	deliverTemplateMessage,
	previewTemplateMessage,
	recipientOfTemplateMessage,
	sameTemplateMessage,
	sightOfTemplateMessage,
	uploadHeaderFiles,
	witnessOfTemplateMessage,
} from './shared';
import { followDeliveries, MAX_WAIT_SECONDS, waitSecondsOf } from './send.waitForDelivery';

const option: OperationOption = {
	name: 'Send',
	value: 'send',
	action: 'Send a template message',
	description:
		'Send an approved WhatsApp template to one contact by phone number; Peach queues it and returns an event ID',
};

const properties: INodeProperties[] = [
	phoneNumberField,
	locator('template', {
		required: true,
		description: 'The approved WhatsApp template to send',
	}),
	...templateVariablesFields(),
	...headerMediaFields(),
	contactFieldsCollection(),
	{
		displayName: 'Wait for Delivery',
		name: 'waitForDelivery',
		type: 'boolean',
		default: false,
		description:
			'Whether to wait, after the send, until WhatsApp reports the message delivered, read or failed (or the time runs out). Only the status is polled; the message is sent once.',
	},
	{
		displayName: 'Wait Timeout (Seconds)',
		name: 'waitTimeout',
		type: 'number',
		typeOptions: { minValue: 1, maxValue: MAX_WAIT_SECONDS },
		default: 60,
		description: 'How long to wait for a final status, at most 600 seconds (10 minutes)',
		displayOptions: { show: { waitForDelivery: [true] } },
	},
	additionalFieldsCollection([
		businessPhoneNumberField(),
		locator('automation', {
			displayName: 'Reply Automation',
			name: 'replyAutomation',
			description:
				"The automation (or AI agent, by ID) that handles the contact's reply. Sent as reply_automation.app_id.",
		}),
		{
			displayName: 'Retry Until',
			name: 'retryUntil',
			type: 'dateTime',
			default: '',
			description:
				'Peach keeps retrying a failed delivery until this moment. Must be in the future; sent in UTC.',
		},
		{
			displayName: 'Retry Window',
			name: 'retryWindow',
			type: 'fixedCollection',
			default: {},
			placeholder: 'Add Retry Window',
			description: 'The time of day within which Peach may retry the delivery',
			options: [
				{
					displayName: 'Window',
					name: 'window',
					values: [
						{
							displayName: 'Start Time',
							name: 'startAt',
							type: 'string',
							default: '08:00',
							placeholder: 'e.g. 08:00',
							description: 'Start of the window, HH:MM on a 24-hour clock',
						},
						{
							displayName: 'End Time',
							name: 'endAt',
							type: 'string',
							default: '20:00',
							placeholder: 'e.g. 20:00',
							description: 'End of the window, HH:MM on a 24-hour clock',
						},
						{
							displayName: 'Time Zone',
							name: 'timezone',
							type: 'string',
							default: '',
							placeholder: 'e.g. Asia/Kolkata',
							description:
								"IANA time zone of the window. Leave empty to use the Peach account's default time zone.",
						},
					],
				},
			],
		},
	]),
];

/**
 * One send, read and checked: the request body, the header file (From a Binary Field) and, with
 * Wait for Delivery, how long to wait.
 */
interface SendPlan extends TemplateMessagePlan {
	waitSeconds?: number;
}

/**
 * Reads and checks one item's parameters (only those of the chosen variables mode); a header file
 * is checked against the template's header kind.
 */
async function prepare(this: IExecuteFunctions, itemIndex: number): Promise<SendPlan> {
	const additionalFields = parameterOfItem(this, 'additionalFields', itemIndex, {}) as IDataObject;
	const variables = variablesOfItem(this, itemIndex);
	const body = buildSendTemplateMessageBody(
		{
			phoneNumber: parameterOfItem(this, 'phoneNumber', itemIndex),
			templateId: parameterOfItem(this, 'templateId', itemIndex, '', { extractValue: true }),
			liquidValues: liquidValuesOf(variables),
			contactFields: parameterOfItem(this, 'contactFields', itemIndex, {}) as IDataObject,
			additionalFields,
			replyAutomation: replyAutomationOfItem(this, itemIndex, additionalFields),
		},
		this.getTimezone(),
	);
	const headerMedia = await checkAgainstTemplate(this, itemIndex, body, variables);
	if (!parameterOfItem(this, 'waitForDelivery', itemIndex, false)) return { body, headerMedia };
	return {
		body,
		headerMedia,
		waitSeconds: waitSecondsOf(parameterOfItem(this, 'waitTimeout', itemIndex, 60)),
	};
}

/**
 * Template Message → Send: one template message per item, checked against its template first; with
 * Wait for Delivery, each message's status is followed until it is final (`follow`).
 */
export const send: DeliveringOperation<SendPlan> = {
	option,
	properties,
	delivers: true,
	prepare,
	recipientOf: recipientOfTemplateMessage,
	preview: previewTemplateMessage,
	sameDelivery: sameTemplateMessage,
	witnessOf: witnessOfTemplateMessage,
	stage: uploadHeaderFiles,
	deliver: deliverTemplateMessage,
	follow: followDeliveries,
	sight: sightOfTemplateMessage,
};
