import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { keyValueCollection } from '../../descriptions/fields';
import { locator } from '../../descriptions/locator';
import { isSet, requireText, validateEmail } from '../../helpers/fields';
import { isPlainObject, parseJsonObject } from '../../helpers/json';
import {
	jsonToLiquidValues,
	omitEmpty,
	outputOf,
	pairsToLiquidValues,
	pairsToStringMap,
	rowsOf,
} from '../../helpers/payload';
import { normalizeBusinessPhoneNumber, normalizeContactPhoneNumber } from '../../helpers/phone';
import { toFutureUtcTimestamp, validateTimeOfDay, validateTimeZone } from '../../helpers/time';
import { peachApiRequest } from '../../transport/request';
import type { ItemResult, OperationOption } from '../node.type';

export const option: OperationOption = {
	name: 'Send',
	value: 'send',
	action: 'Send a template message',
	description:
		'Send an approved WhatsApp template to one contact by phone number; Peach queues it and returns an event ID',
};

const properties: INodeProperties[] = [
	{
		displayName: 'Phone Number',
		name: 'phoneNumber',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. +919988776655',
		description: "The contact's WhatsApp number in international format: + and the country code",
	},
	locator('template', {
		required: true,
		description: 'The approved WhatsApp template to send',
	}),
	{
		displayName: 'Template Variables',
		name: 'variablesInput',
		type: 'options',
		noDataExpression: true,
		options: [
			{
				name: 'Using Fields Below',
				value: 'fields',
				description: 'One row per template variable',
			},
			{
				name: 'Using JSON',
				value: 'json',
				description: 'A JSON object of variable names and values, e.g. for a header_media object',
			},
		],
		default: 'fields',
		description: "How to give the values of the template's variables (liquid_values)",
	},
	{
		...keyValueCollection('variables', 'Variables', {
			description:
				"Values for the template's named variables. A value may be text or a number; a header media value is a URL.",
			keyName: 'Variable Name',
			keyPlaceholder: 'e.g. first_name',
			valuePlaceholder: 'e.g. Asha',
		}),
		displayOptions: { show: { variablesInput: ['fields'] } },
	},
	{
		displayName: 'Variables (JSON)',
		name: 'variablesJson',
		type: 'json',
		default: '{\n  "first_name": "Asha"\n}',
		description: 'A JSON object of template variable names and values',
		displayOptions: { show: { variablesInput: ['json'] } },
	},
	{
		displayName: 'Contact Fields',
		name: 'contactFields',
		type: 'collection',
		placeholder: 'Add Contact Field',
		default: {},
		options: [
			{
				displayName: 'Email',
				name: 'email',
				type: 'string',
				placeholder: 'e.g. nathan@example.com',
				default: '',
				description: "The contact's email address",
			},
			{
				displayName: 'Language',
				name: 'language',
				type: 'string',
				default: '',
				placeholder: 'e.g. en',
				description: "The contact's language",
			},
			keyValueCollection('metadata', 'Metadata', {
				description: 'Extra facts about the contact, stored by Peach as text',
				keyPlaceholder: 'e.g. customer_id',
				valuePlaceholder: 'e.g. 42',
			}),
			{
				displayName: 'Name',
				name: 'name',
				type: 'string',
				default: '',
				placeholder: 'e.g. Asha Rao',
				description: "The contact's display name",
			},
		],
	},
	{
		displayName: 'Additional Fields',
		name: 'additionalFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		options: [
			{
				displayName: 'Business Phone Number',
				name: 'businessPhoneNumber',
				type: 'string',
				default: '',
				placeholder: 'e.g. 919876543222',
				description:
					"The business number to send from: digits with the country code and no +. Leave it out to use the account's default number.",
			},
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

/** `liquid_values` from the rows or the JSON field, by one rule for both; undefined when there are none. */
export function liquidValuesFrom(
	mode: string,
	rows: unknown,
	json: unknown,
): IDataObject | undefined {
	let values: IDataObject;
	if (mode === 'json') {
		if (json === undefined || (typeof json === 'string' && json.trim() === '')) return undefined;
		values = jsonToLiquidValues('Variables (JSON)', parseJsonObject('Variables (JSON)', json));
	} else {
		values = pairsToLiquidValues('Variables', rowsOf(rows));
	}
	return Object.keys(values).length ? values : undefined;
}

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
		variablesInput: string;
		variables: unknown;
		variablesJson: unknown;
		contactFields: IDataObject;
		additionalFields: IDataObject;
		/** The reply automation's ID, as n8n extracts it from the nested locator. */
		replyAutomation?: unknown;
	},
	timeZone: string,
	now: Date = new Date(),
): IDataObject {
	const { contactFields, additionalFields } = input;
	const contact = omitEmpty({
		phone_number: normalizeContactPhoneNumber('Phone Number', input.phoneNumber),
		name: typeof contactFields.name === 'string' ? contactFields.name.trim() : undefined,
		email:
			typeof contactFields.email === 'string' && isSet(contactFields.email.trim())
				? validateEmail('Email', contactFields.email)
				: undefined,
		language:
			typeof contactFields.language === 'string' ? contactFields.language.trim() : undefined,
		metadata: pairsToStringMap('Metadata', rowsOf(contactFields.metadata)),
	});

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
		liquid_values: liquidValuesFrom(input.variablesInput, input.variables, input.variablesJson),
		retry_until: isSet(additionalFields.retryUntil)
			? toFutureUtcTimestamp('Retry Until', additionalFields.retryUntil, timeZone, now)
			: undefined,
		retry_window: retryWindowFrom(additionalFields.retryWindow),
		business_phone_number: isSet(additionalFields.businessPhoneNumber)
			? normalizeBusinessPhoneNumber('Business Phone Number', additionalFields.businessPhoneNumber)
			: undefined,
		reply_automation: replyAutomationId ? { app_id: replyAutomationId } : undefined,
	});

	return { event_type: 'send_template_message', contact, template_message: templateMessage };
}

/**
 * Reads the parameters of one item. The reply automation is a locator inside a collection: it is
 * read by its own path, so n8n's locator extraction (extractValue) applies to it.
 */
export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<ItemResult> {
	const additionalFields = this.getNodeParameter('additionalFields', itemIndex, {}) as IDataObject;
	const body = buildSendTemplateMessageBody(
		{
			phoneNumber: this.getNodeParameter('phoneNumber', itemIndex),
			templateId: this.getNodeParameter('templateId', itemIndex, '', { extractValue: true }),
			variablesInput: this.getNodeParameter('variablesInput', itemIndex, 'fields') as string,
			variables: this.getNodeParameter('variables', itemIndex, {}),
			variablesJson: this.getNodeParameter('variablesJson', itemIndex, ''),
			contactFields: this.getNodeParameter('contactFields', itemIndex, {}) as IDataObject,
			additionalFields,
			replyAutomation:
				additionalFields.replyAutomation === undefined
					? undefined
					: this.getNodeParameter('additionalFields.replyAutomation', itemIndex, '', {
							extractValue: true,
						}),
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
	return outputOf(response);
}
