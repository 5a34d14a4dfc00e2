import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { readAgainWhenRefused, templateOf } from '../../api/templates';
import { contactFrom, recipientOfEvent } from '../../helpers/contact';
import { isSet, requireText } from '../../helpers/fields';
import { isPlainObject } from '../../helpers/json';
import { omitEmpty } from '../../helpers/payload';
import { normalizeBusinessPhoneNumber } from '../../helpers/phone';
import { previewTemplate, renderTemplate } from '../../helpers/templatePreview';
import { toFutureUtcTimestamp, validateTimeOfDay, validateTimeZone } from '../../helpers/time';
import { postDelivery } from '../../transport/request';
import type { HeaderMedia } from '../templateSend/headerMedia';
import {
	headerMediaOfItem,
	notYetUploaded,
	sameHeaderFile,
	uploadHeaderMedia,
	withHeaderMedia,
} from '../templateSend/headerMedia';
import type { Delivery, DeliveryPermit, PreparedDeliveries, Sight } from '../operation/node.type';
import type { VariablesToCheck } from '../templateSend/templateCheck';
import { checkTemplateBeforeSend } from '../templateSend/templateCheck';
import { apiPath } from '../../transport/path';

/**
 * What the Template Message operations share: the body of a `send_template_message` event (Send and
 * Send and Wait build it alike), the header file from a binary field, and the one request that sends.
 */

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

/** A template message to send: its event body and, with Header Media from a binary field, the file. */
export interface TemplateMessagePlan {
	body: IDataObject;
	headerMedia?: HeaderMedia;
}

/**
 * The item's event body checked against its template (read once per execution): the header file
 * fits the template's header, and every variable of the template has a value (`variables`: what the
 * item gave, read once; the body's `liquid_values` is what goes). Returns the header file
 * (undefined with Header Media None).
 */
export async function checkAgainstTemplate(
	context: IExecuteFunctions,
	itemIndex: number,
	body: IDataObject,
	variables: VariablesToCheck,
): Promise<HeaderMedia | undefined> {
	const message = isPlainObject(body.template_message) ? body.template_message : {};
	const templateId = String(message.whats_app_template_id);
	const values = isPlainObject(message.liquid_values) ? message.liquid_values : undefined;
	const headerMedia = await headerMediaOfItem(context, itemIndex, templateId, values);
	await checkTemplateBeforeSend(context, itemIndex, {
		templateId,
		variables: { ...variables, values: values ?? {} },
		filledLater: headerMedia ? ['header_media'] : [],
		recipient: recipientOfEvent(body),
	});
	return headerMedia;
}

/**
 * The operations' `stage`: uploads the header files of the sends still to make, once per distinct
 * file; a send whose file could not be uploaded is not made.
 */
export async function uploadHeaderFiles<Plan extends TemplateMessagePlan>(
	this: IExecuteFunctions,
	deliveries: Array<Delivery<Plan>>,
): Promise<PreparedDeliveries<Plan>> {
	const failed = await uploadHeaderMedia(
		this,
		deliveries.flatMap(({ inputs, plan }) =>
			plan.headerMedia ? [{ itemIndex: inputs[0], media: plan.headerMedia }] : [],
		),
	);
	return {
		deliveries: deliveries.filter(({ inputs }) => !failed.has(inputs[0])),
		problems: [...failed].map(([itemIndex, error]) => ({ itemIndex, error })),
	};
}

/** The event body with the uploaded header file as `liquid_values.header_media`. Pure. */
function withHeaderFile(body: IDataObject, media: HeaderMedia | undefined): IDataObject {
	if (media?.value === undefined) return body;
	const message = isPlainObject(body.template_message) ? body.template_message : {};
	return {
		...body,
		template_message: { ...message, liquid_values: withHeaderMedia(message.liquid_values, media) },
	};
}

const sendEvent = readAgainWhenRefused(
	postDelivery((body: IDataObject) => ({ path: apiPath`/events`, body })),
	(body) =>
		(isPlainObject(body.template_message) ? body.template_message : {}).whats_app_template_id,
);

/**
 * The delivery of Send, Send and Wait and Connect to AI Agent: `POST /api/v1/events` with the
 * template message, made once, never repeated. Peach's answer, with `event_id` (and the uploaded
 * header file's `media_url`).
 */
export async function deliverTemplateMessage(
	this: IExecuteFunctions,
	plan: TemplateMessagePlan,
	itemIndex: number,
	permit: DeliveryPermit,
): Promise<IDataObject> {
	const answer = await sendEvent.call(
		this,
		withHeaderFile(plan.body, plan.headerMedia),
		itemIndex,
		permit,
	);
	return plan.headerMedia?.mediaUrl ? { ...answer, media_url: plan.headerMedia.mediaUrl } : answer;
}

/**
 * The template of a message (read once per execution) and the values that fill it as the phone
 * shows them: a header file from a binary field by its name.
 */
async function filledTemplate(
	context: IExecuteFunctions,
	plan: TemplateMessagePlan,
	itemIndex: number,
): Promise<{ template: IDataObject; templateId: string; values: IDataObject }> {
	const message = isPlainObject(plan.body.template_message) ? plan.body.template_message : {};
	const templateId = String(message.whats_app_template_id);
	const template = await templateOf(context, templateId, itemIndex);
	const values: IDataObject = isPlainObject(message.liquid_values)
		? { ...message.liquid_values }
		: {};
	if (plan.headerMedia) values.header_media = { filename: plan.headerMedia.file.fileName };
	return { template, templateId, values };
}

/**
 * Dry Run of Send, Send and Wait and Connect to AI Agent: the request the send would make, and the
 * message as the contact's phone would show it (a Dry Run reads the template afresh).
 */
export async function previewTemplateMessage(
	this: IExecuteFunctions,
	plan: TemplateMessagePlan,
	itemIndex: number,
): Promise<IDataObject> {
	const wouldSend = sendEvent.wouldSend(
		withHeaderFile(plan.body, plan.headerMedia && notYetUploaded(plan.headerMedia)),
	);
	const { template, templateId, values } = await filledTemplate(this, plan, itemIndex);
	const contact = isPlainObject(plan.body.contact) ? plan.body.contact : {};
	return {
		wouldSend,
		preview: {
			to: contact.phone_number,
			...previewTemplate(template, templateId, values),
		},
	};
}

/** After a send: the message as the contact's phone shows it, for the output's view. */
export async function sightOfTemplateMessage(
	this: IExecuteFunctions,
	plan: TemplateMessagePlan,
	itemIndex: number,
): Promise<Sight> {
	const { template, values } = await filledTemplate(this, plan, itemIndex);
	return { message: renderTemplate(template, values).text };
}

/** Messages to the same contact are sent one after another, in input order. */
export function recipientOfTemplateMessage(plan: TemplateMessagePlan): string | undefined {
	return recipientOfEvent(plan.body);
}

/** What a template message sends, between tries: its event body and its header file (by name and kind). */
export function sameTemplateMessage(plan: TemplateMessagePlan): IDataObject {
	return { body: plan.body, header: sameHeaderFile(plan.headerMedia) };
}

/** A template message, as Peach lists it in its template messages: the contact and the template. */
export function witnessOfTemplateMessage(
	plan: TemplateMessagePlan,
): { recipient: string; templateId: string } | undefined {
	const recipient = recipientOfEvent(plan.body);
	const message = isPlainObject(plan.body.template_message) ? plan.body.template_message : {};
	const templateId = message.whats_app_template_id;
	return recipient !== undefined && typeof templateId === 'string'
		? { recipient, templateId }
		: undefined;
}
