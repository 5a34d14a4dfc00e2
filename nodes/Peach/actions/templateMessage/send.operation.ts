import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { contactFieldsCollection, phoneNumberField } from '../../descriptions/contact';
import { businessPhoneNumberField } from '../../descriptions/fields';
import { locator } from '../../descriptions/locator';
import { templateVariablesFields } from '../../descriptions/templateVariables';
import { contactFrom } from '../../helpers/contact';
import { isSet, requireText } from '../../helpers/fields';
import { isPlainObject } from '../../helpers/json';
import { omitEmpty, outputOf } from '../../helpers/payload';
import { normalizeBusinessPhoneNumber } from '../../helpers/phone';
import { toFutureUtcTimestamp, validateTimeOfDay, validateTimeZone } from '../../helpers/time';
import { pollUntil } from '../../transport/poll';
import { peachApiRequest } from '../../transport/request';
import { liquidValuesOfItem, replyAutomationOfItem } from '../itemParameters';
import type { ItemResult, OperationOption } from '../node.type';

export const option: OperationOption = {
	name: 'Send',
	value: 'send',
	action: 'Send a template message',
	description:
		'Send an approved WhatsApp template to one contact by phone number; Peach queues it and returns an event ID. Never repeat a send that failed without checking: it may have been queued.',
};

/** WhatsApp message statuses after which nothing more happens to a delivery. */
export const FINAL_MESSAGE_STATUSES = ['delivered', 'read', 'replied', 'failed'];
export const MAX_WAIT_SECONDS = 600;

const properties: INodeProperties[] = [
	phoneNumberField,
	locator('template', {
		required: true,
		description: 'The approved WhatsApp template to send',
	}),
	...templateVariablesFields(),
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
	{
		displayName: 'Additional Fields',
		name: 'additionalFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		options: [
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
		],
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['templateMessage'], operation: ['send'] } },
	properties,
);

/** `retry_window` from the fixedCollection; undefined when not set. */
export function retryWindowFrom(collection: unknown): IDataObject | undefined {
	const window =
		isPlainObject(collection) && isPlainObject(collection.window) ? collection.window : undefined;
	if (!window) return undefined;
	const result: IDataObject = {
		start_at: validateTimeOfDay('Retry Window → Start Time', window.startAt),
		end_at: validateTimeOfDay('Retry Window → End Time', window.endAt),
	};
	if (typeof window.timezone === 'string' && window.timezone.trim() !== '') {
		result.timezone = validateTimeZone('Retry Window → Time Zone', window.timezone);
	}
	return result;
}

/** The body of `POST /api/v1/events` for `send_template_message`, from the node's parameters. Pure. */
export function buildSendTemplateMessageBody(
	input: {
		phoneNumber: unknown;
		templateId: unknown;
		liquidValues: IDataObject | undefined;
		contactFields: IDataObject;
		additionalFields: IDataObject;
		/** The reply automation's ID, as n8n extracts it from the nested locator. */
		replyAutomation?: unknown;
	},
	timeZone: string,
	now: Date = new Date(),
): IDataObject {
	const { additionalFields } = input;
	const replyAutomationId = isSet(input.replyAutomation)
		? requireText(
				'Reply Automation',
				input.replyAutomation,
				'Pick an automation From List, or enter its ID By ID (e.g. strm_1234abcd or aiflw_1234abcd).',
			)
		: '';
	const templateMessage = omitEmpty({
		whats_app_template_id: requireText(
			'Template',
			input.templateId,
			'Pick an approved template From List, or enter its ID By ID (e.g. wat_1234abcd).',
		),
		liquid_values: input.liquidValues,
		retry_until: isSet(additionalFields.retryUntil)
			? toFutureUtcTimestamp('Retry Until', additionalFields.retryUntil, timeZone, now)
			: undefined,
		retry_window: retryWindowFrom(additionalFields.retryWindow),
		business_phone_number: isSet(additionalFields.businessPhoneNumber)
			? normalizeBusinessPhoneNumber('Business Phone Number', additionalFields.businessPhoneNumber)
			: undefined,
		reply_automation: replyAutomationId ? { app_id: replyAutomationId } : undefined,
	});
	return {
		event_type: 'send_template_message',
		contact: contactFrom(input.phoneNumber, input.contactFields),
		template_message: templateMessage,
	};
}

/** The WhatsApp message status in an event's answer (`result.status`), if any. */
export function messageStatusOf(event: unknown): string | undefined {
	const result = isPlainObject(event) && isPlainObject(event.result) ? event.result : undefined;
	return typeof result?.status === 'string' ? result.status : undefined;
}

/**
 * After a send: polls `GET /events/{event_id}` until the message reaches a final status or the
 * timeout. The send is never repeated. The output says the final status, or that the wait timed out.
 */
export async function waitForDelivery(
	this: IExecuteFunctions,
	eventId: string,
	timeoutSeconds: number,
	itemIndex: number,
): Promise<IDataObject> {
	const result = await pollUntil.call(
		this,
		{
			method: 'GET',
			path: `/events/${encodeURIComponent(eventId)}`,
			itemIndex,
			notFound: { label: 'Event', id: eventId },
		},
		{
			timeoutMs: Math.min(Math.max(timeoutSeconds, 1), MAX_WAIT_SECONDS) * 1000,
			done: (event) => {
				const status = messageStatusOf(event);
				return (
					(status !== undefined && FINAL_MESSAGE_STATUSES.includes(status)) ||
					(isPlainObject(event) && event.status === 'failed')
				);
			},
		},
	);
	const event = isPlainObject(result.body) ? result.body : {};
	const result_ = isPlainObject(event.result) ? event.result : {};
	return {
		status: messageStatusOf(event) ?? null,
		final: result.done,
		timedOut: !result.done,
		waitedSeconds: Math.round(result.waitedMs / 100) / 10,
		polls: result.polls,
		failureMessage: (result_.failure_message as string | undefined) ?? null,
		eventStatus: (event.status as string | undefined) ?? null,
	};
}

/** Reads the parameters of one item (only those of the chosen variables mode), sends, and maybe waits. */
export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<ItemResult> {
	const additionalFields = this.getNodeParameter('additionalFields', itemIndex, {}) as IDataObject;
	const body = buildSendTemplateMessageBody(
		{
			phoneNumber: this.getNodeParameter('phoneNumber', itemIndex),
			templateId: this.getNodeParameter('templateId', itemIndex, '', { extractValue: true }),
			liquidValues: liquidValuesOfItem(this, itemIndex),
			contactFields: this.getNodeParameter('contactFields', itemIndex, {}) as IDataObject,
			additionalFields,
			replyAutomation: replyAutomationOfItem(this, itemIndex, additionalFields),
		},
		this.getTimezone(),
	);
	const response = await peachApiRequest.call(this, {
		method: 'POST',
		path: '/events',
		body,
		itemIndex,
		delivers: true,
	});
	// Both documented answers keep event_id at the top: {status, event_id} and the 201 echo.
	const output = outputOf(response);
	if (!this.getNodeParameter('waitForDelivery', itemIndex, false)) return output;
	const answer = Array.isArray(output) ? {} : output;
	const eventId = typeof answer.event_id === 'string' ? answer.event_id : '';
	if (!eventId) {
		return {
			...answer,
			delivery: {
				status: null,
				final: false,
				timedOut: false,
				reason: 'Peach returned no event_id to follow',
			},
		};
	}
	const delivery = await waitForDelivery.call(
		this,
		eventId,
		this.getNodeParameter('waitTimeout', itemIndex, 60) as number,
		itemIndex,
	);
	return { ...answer, deliveryStatus: delivery.status, delivery };
}
