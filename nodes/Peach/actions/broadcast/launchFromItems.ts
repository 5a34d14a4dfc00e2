import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { omitEmpty } from '../../helpers/payload';
import { givenVariables } from '../../helpers/variableValues';
import { normalizeContactPhoneNumber } from '../../helpers/phone';
import { checkRows } from '../../helpers/rows';
import { templateOf } from '../../api/templates';
import { isPlainObject } from '../../helpers/json';
import { renderTemplate } from '../../helpers/templatePreview';
import type { HeaderMedia } from '../templateSend/headerMedia';
import { notYetUploaded, withHeaderMedia } from '../templateSend/headerMedia';
import { parameterOfItem } from '../item/itemParameters';
import type { DeliveryPermit, PreparedDeliveries, Sight } from '../operation/node.type';
import type { LaunchPlan } from './launchBase';
import { launch } from './launchBase';
import { readyContact, sharedFieldsOf } from './launchFromItems.contacts';

/**
 * Broadcast → Launch, from input items: ONE broadcast of every good contact row, prepared, launched
 * and previewed. What the contacts share and each contact's checks are in launchFromItems.contacts.ts.
 */

type FromItems = Extract<LaunchPlan, { recipients: 'items' }>;

/**
 * One broadcast contact from an input item: phone, name and the contact's own variables (rows, by
 * the one rule of helpers/variableValues.ts: an empty one is set aside in `empty`). Pure.
 */
export function broadcastContact(input: {
	itemIndex: number;
	phoneNumber: unknown;
	name: unknown;
	variables: unknown;
}): { contact: IDataObject; empty: string[] } {
	const at = `Item ${input.itemIndex}`;
	const given = givenVariables('fields', { rows: input.variables }, `${at} → Contact Variables`);
	return {
		contact: omitEmpty({
			phone_number: normalizeContactPhoneNumber(`${at} → Contact Phone Number`, input.phoneNumber),
			name: typeof input.name === 'string' ? input.name.trim() : undefined,
			liquid_values: given.values,
		}),
		empty: given.empty,
	};
}

/** What names the one broadcast made from all input items between tries of the node. */
const FROM_ALL_ITEMS = 'from all input items';

/**
 * From input items: ONE broadcast, its shared fields read from the first item, every contact row and
 * each contact's own header file checked (and the template's variables filled for each) before
 * anything is uploaded or launched.
 */
export async function prepareFromItems(
	context: IExecuteFunctions,
	itemIndexes: number[],
): Promise<PreparedDeliveries<LaunchPlan>> {
	const problems: PreparedDeliveries<LaunchPlan>['problems'] = [];
	const shared = await sharedFieldsOf(context, itemIndexes);
	const rows = checkRows(itemIndexes, (itemIndex) =>
		broadcastContact({
			itemIndex,
			phoneNumber: parameterOfItem(context, 'contactPhoneNumber', itemIndex, ''),
			name: parameterOfItem(context, 'contactName', itemIndex, ''),
			variables: parameterOfItem(context, 'contactVariables', itemIndex, {}),
		}),
	);
	const contacts: FromItems['contacts'] = [];
	for (const row of rows) {
		if ('error' in row) {
			problems.push(row);
			continue;
		}
		try {
			contacts.push(await readyContact(context, row, shared));
		} catch (error) {
			problems.push({ itemIndex: row.itemIndex, error: error as Error });
		}
	}
	const inputs = contacts.map((entry) => entry.itemIndex);
	const { base, headerMedia } = shared;
	return {
		deliveries: inputs.length
			? [
					{
						inputs,
						key: FROM_ALL_ITEMS,
						plan: { recipients: 'items', base, headerMedia, contacts },
					},
				]
			: [],
		problems,
	};
}

/** The broadcast of all input items: every contact, with the header files (uploaded). Pure. */
function broadcastOf(plan: FromItems): IDataObject {
	return omitEmpty({
		...plan.base,
		liquid_values: withHeaderMedia(plan.base.liquid_values, plan.headerMedia),
		contacts: plan.contacts.map(({ contact, headerMedia }) =>
			omitEmpty({
				...contact,
				liquid_values: withHeaderMedia(contact.liquid_values, headerMedia),
			}),
		),
	});
}

/** The one broadcast from all input items: every contact, each with its own header file if any. */
export async function launchFromItems(
	context: IExecuteFunctions,
	plan: FromItems,
	itemIndex: number,
	permit: DeliveryPermit,
): Promise<IDataObject> {
	const mediaUrls: IDataObject = {};
	for (const { contact, headerMedia } of plan.contacts)
		if (headerMedia?.mediaUrl) mediaUrls[String(contact.phone_number)] = headerMedia.mediaUrl;
	const json = await launch.call(context, broadcastOf(plan), itemIndex, permit);
	return {
		...json,
		contactCount: plan.contacts.length,
		...(plan.headerMedia?.mediaUrl ? { media_url: plan.headerMedia.mediaUrl } : {}),
		...(Object.keys(mediaUrls).length ? { media_urls: mediaUrls } : {}),
	};
}

/**
 * Dry Run: the one request (header files held by their place) and, for every contact, the message
 * its phone would show (the global values and its own).
 */
export async function previewFromItems(
	context: IExecuteFunctions,
	plan: FromItems,
	itemIndex: number,
): Promise<IDataObject> {
	const pending = (media: HeaderMedia | undefined) => media && notYetUploaded(media);
	const wouldSend = launch.wouldSend(
		broadcastOf({
			...plan,
			headerMedia: pending(plan.headerMedia),
			contacts: plan.contacts.map((entry) => ({
				...entry,
				headerMedia: pending(entry.headerMedia),
			})),
		}),
	);
	const templateId = String(plan.base.whats_app_template_id);
	const template = await templateOf(context, templateId, itemIndex);
	return {
		wouldSend,
		preview: {
			template: typeof template.name === 'string' ? template.name : templateId,
			contacts: plan.contacts.map((entry) => ({
				to: entry.contact.phone_number,
				...renderTemplate(template, valuesOfContact(plan, entry)),
			})),
		},
	};
}

/**
 * The values that fill one contact's message as the phone shows it: the global values, its own,
 * and its header file (or everyone's) by its name. Pure.
 */
function valuesOfContact(plan: FromItems, entry: FromItems['contacts'][number]): IDataObject {
	const shared = isPlainObject(plan.base.liquid_values) ? plan.base.liquid_values : {};
	const file = (entry.headerMedia ?? plan.headerMedia)?.file.fileName;
	return {
		...shared,
		...(isPlainObject(entry.contact.liquid_values) ? entry.contact.liquid_values : {}),
		...(file ? { header_media: { filename: file } } : {}),
	};
}

/** After the launch: the first contact, how many more, and the first contact's message. */
export async function sightFromItems(
	context: IExecuteFunctions,
	plan: FromItems,
	itemIndex: number,
): Promise<Sight> {
	const [first] = plan.contacts;
	if (!first) return {};
	const template = await templateOf(context, String(plan.base.whats_app_template_id), itemIndex);
	const phone = first.contact.phone_number;
	return {
		to: typeof phone === 'string' ? phone : '?',
		more: plan.contacts.length - 1,
		message: renderTemplate(template, valuesOfContact(plan, first)).text,
	};
}
