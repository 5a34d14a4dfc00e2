import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { requireText } from '../../helpers/fields';
import { omitEmpty } from '../../helpers/payload';
import { checkRows } from '../../helpers/rows';
import { templateOf } from '../../api/templates';
import { isPlainObject } from '../../helpers/json';
import { previewTemplate, renderTemplate } from '../../helpers/templatePreview';
import { headerMediaOfItem, notYetUploaded, withHeaderMedia } from '../templateSend/headerMedia';
import { variablesOfItem } from '../item/itemParameters';
import type { DeliveryPermit, PreparedDeliveries, Sight } from '../operation/node.type';
import { refuseEmptyVariables } from '../templateSend/templateCheck';
import type { LaunchPlan } from './launchBase';
import { broadcastBase, launch } from './launchBase';

type ToAudience = Extract<LaunchPlan, { recipients: 'audience' }>;

/**
 * To audiences: each input item is its own broadcast (its fields, its audience, its header file),
 * read and checked before anything is uploaded or launched.
 */
export async function prepareToAudiences(
	context: IExecuteFunctions,
	itemIndexes: number[],
): Promise<PreparedDeliveries<LaunchPlan>> {
	const problems: PreparedDeliveries<LaunchPlan>['problems'] = [];
	const rows = checkRows(itemIndexes, (itemIndex) => {
		const globalVariables = variablesOfItem(context, itemIndex, 'Global Variables');
		const broadcast: IDataObject = {
			...broadcastBase(context, itemIndex, globalVariables),
			audience_id: requireText(
				'Audience ID',
				context.getNodeParameter('audienceId', itemIndex),
				'Copy the audience ID from the Peach web app.',
			),
		};
		return { broadcast, globalVariables };
	});
	const deliveries: PreparedDeliveries<LaunchPlan>['deliveries'] = [];
	for (const row of rows) {
		if ('error' in row) {
			problems.push(row);
			continue;
		}
		try {
			const { broadcast, globalVariables } = row.value;
			// Each contact's own values are Peach's (the audience's): only the given ones are checked.
			refuseEmptyVariables(context, row.itemIndex, globalVariables);
			const headerMedia = await headerMediaOfItem(
				context,
				row.itemIndex,
				String(broadcast.whats_app_template_id),
				broadcast.liquid_values as IDataObject | undefined,
			);
			deliveries.push({
				inputs: [row.itemIndex],
				plan: { recipients: 'audience', broadcast, headerMedia },
			});
		} catch (error) {
			problems.push({ itemIndex: row.itemIndex, error: error as Error });
		}
	}
	return { deliveries, problems };
}

/** One audience's broadcast with its header file (uploaded). Pure. */
function broadcastOf(plan: ToAudience): IDataObject {
	return omitEmpty({
		...plan.broadcast,
		liquid_values: withHeaderMedia(plan.broadcast.liquid_values, plan.headerMedia),
	});
}

/** One audience's broadcast: its `send_broadcast` event with its uploaded header file. */
export async function launchToAudience(
	context: IExecuteFunctions,
	plan: ToAudience,
	itemIndex: number,
	permit: DeliveryPermit,
): Promise<IDataObject> {
	const json = await launch.call(context, broadcastOf(plan), itemIndex, permit);
	return plan.headerMedia?.mediaUrl ? { ...json, media_url: plan.headerMedia.mediaUrl } : json;
}

/**
 * Dry Run: the request (its header file held by its place) and the message with the broadcast's own
 * values; each contact's own values are Peach's (the audience's), so they show as placeholders.
 */
export async function previewToAudience(
	context: IExecuteFunctions,
	plan: ToAudience,
	itemIndex: number,
): Promise<IDataObject> {
	const wouldSend = launch.wouldSend(
		broadcastOf({ ...plan, headerMedia: plan.headerMedia && notYetUploaded(plan.headerMedia) }),
	);
	const templateId = String(plan.broadcast.whats_app_template_id);
	const template = await templateOf(context, templateId, itemIndex);
	return {
		wouldSend,
		preview: {
			to: `audience ${String(plan.broadcast.audience_id)}`,
			...previewTemplate(template, templateId, valuesOfBroadcast(plan)),
		},
	};
}

/** The broadcast's own values, and its header file by its name (the audience's are Peach's). Pure. */
function valuesOfBroadcast(plan: ToAudience): IDataObject {
	const values = isPlainObject(plan.broadcast.liquid_values) ? plan.broadcast.liquid_values : {};
	const file = plan.headerMedia?.file.fileName;
	return { ...values, ...(file ? { header_media: { filename: file } } : {}) };
}

/** After the launch: the message with the broadcast's own values (to: the audience, as recipient). */
export async function sightToAudience(
	context: IExecuteFunctions,
	plan: ToAudience,
	itemIndex: number,
): Promise<Sight> {
	const template = await templateOf(
		context,
		String(plan.broadcast.whats_app_template_id),
		itemIndex,
	);
	return { message: renderTemplate(template, valuesOfBroadcast(plan)).text };
}
