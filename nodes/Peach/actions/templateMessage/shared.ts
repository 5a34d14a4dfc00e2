import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { contactFrom } from '../../helpers/contact';
import { isSet, requireText } from '../../helpers/fields';
import { isPlainObject } from '../../helpers/json';
import { omitEmpty } from '../../helpers/payload';
import { normalizeBusinessPhoneNumber } from '../../helpers/phone';
import { toFutureUtcTimestamp, validateTimeOfDay, validateTimeZone } from '../../helpers/time';
import { peachApiRequest } from '../../transport/request';
import type { DeliveryPermit } from '../node.type';

/**
 * What the Template Message operations share: the body of a `send_template_message` event (Send and
 * Send and Wait build it alike) and the one request that sends it.
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

/** `POST /api/v1/events` with a template message: made once, never repeated. Peach's answer, with `event_id`. */
export async function postTemplateMessage(
	context: IExecuteFunctions,
	body: IDataObject,
	itemIndex: number,
	permit: DeliveryPermit,
): Promise<unknown> {
	return await peachApiRequest.call(context, {
		method: 'POST',
		path: '/events',
		body,
		itemIndex,
		delivers: permit,
	});
}
