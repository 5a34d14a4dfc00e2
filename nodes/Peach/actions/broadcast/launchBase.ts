import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { readAgainWhenRefused } from '../../api/templates';
import { isSet, requireText } from '../../helpers/fields';
import { omitEmpty } from '../../helpers/payload';
import { normalizeBusinessPhoneNumber } from '../../helpers/phone';
import { toFutureUtcTimestamp } from '../../helpers/time';
import { apiPath } from '../../transport/path';
import { postDelivery } from '../../transport/request';
import type { HeaderMedia } from '../templateSend/headerMedia';
import { sameHeaderFile } from '../templateSend/headerMedia';
import type { ItemVariables } from '../item/itemParameters';
import { liquidValuesOf, locatorValueOf, replyAutomationOfItem } from '../item/itemParameters';

/**
 * What Broadcast → Launch's two plans share (launchFromItems.ts, launchToAudience.ts): the plan's
 * shape (its recipient and what names it between tries), the broadcast's own fields, and the one
 * request that launches.
 */

/**
 * Delivery modes: Peach's docs and its n8n node say instant or gradual; Peach's MCP server says
 * instant or smart. Both readings are offered (docs/peach-api.md §14).
 */
const DELIVERY_MODES = ['instant', 'gradual', 'smart'];

/**
 * One launch. From input items: the shared fields and every good contact row, in ONE request, with
 * the header file for everyone or each contact's. To audiences: one broadcast per input item, with
 * its header file.
 */
export type LaunchPlan =
	| {
			recipients: 'items';
			base: IDataObject;
			headerMedia?: HeaderMedia;
			contacts: Array<{ itemIndex: number; contact: IDataObject; headerMedia?: HeaderMedia }>;
	  }
	| { recipients: 'audience'; broadcast: IDataObject; headerMedia?: HeaderMedia };

/** Launches to the same audience go one after another, in input order. */
export function recipientOfLaunch(plan: LaunchPlan): string | undefined {
	return plan.recipients === 'audience'
		? `audience ${String(plan.broadcast.audience_id)}`
		: undefined;
}

/**
 * What a launch sends, between tries: the broadcast's own fields and header file. A broadcast from
 * all items is one per run whatever its contact rows (a Retry whose rows changed does not launch it
 * again).
 */
export function sameLaunch(plan: LaunchPlan): IDataObject {
	return plan.recipients === 'audience'
		? { broadcast: plan.broadcast, header: sameHeaderFile(plan.headerMedia) }
		: { broadcast: plan.base, header: sameHeaderFile(plan.headerMedia) };
}

/**
 * The broadcast fields shared by every contact, read from the first item (they cannot vary per
 * contact); `globalVariables`: that item's Global Variables, read once.
 */
export function broadcastBase(
	context: IExecuteFunctions,
	itemIndex: number,
	globalVariables: ItemVariables,
): IDataObject {
	const additionalFields = context.getNodeParameter(
		'additionalFields',
		itemIndex,
		{},
	) as IDataObject;
	const deliveryMode = requireText(
		'Delivery Mode',
		context.getNodeParameter('deliveryMode', itemIndex, 'instant'),
		`Use one of: ${DELIVERY_MODES.join(', ')}.`,
	);
	const replyAutomation = replyAutomationOfItem(context, itemIndex, additionalFields);
	return omitEmpty({
		name: requireText(
			'Name',
			context.getNodeParameter('name', itemIndex),
			'Give the broadcast a name, e.g. Spring sale.',
		),
		whats_app_template_id: locatorValueOf(
			context,
			itemIndex,
			'templateId',
			'Template',
			'Pick an approved template From List, or enter its ID By ID (e.g. wat_1234abcd).',
		),
		liquid_values: liquidValuesOf(globalVariables),
		delivery_mode: deliveryMode,
		scheduled_launch_time: isSet(additionalFields.scheduledLaunchTime)
			? toFutureUtcTimestamp(
					'Scheduled Launch Time',
					additionalFields.scheduledLaunchTime,
					context.getTimezone(),
				)
			: undefined,
		phone_number: isSet(additionalFields.businessPhoneNumber)
			? normalizeBusinessPhoneNumber('Business Phone Number', additionalFields.businessPhoneNumber)
			: undefined,
		reply_automation: replyAutomation ? { app_id: replyAutomation } : undefined,
	});
}

export const launch = readAgainWhenRefused(
	postDelivery((broadcast: IDataObject) => ({
		path: apiPath`/events`,
		body: { event_type: 'send_broadcast', broadcast },
	})),
	(broadcast) => broadcast.whats_app_template_id,
);
