import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { omitEmpty, rowsOf } from '../../helpers/payload';
import { givenVariables } from '../../helpers/variableValues';
import { normalizeContactPhoneNumber } from '../../helpers/phone';
import { checkRows } from '../../helpers/rows';
import { templateOf } from '../../api/templates';
import { isPlainObject } from '../../helpers/json';
import { renderTemplate } from '../../helpers/templatePreview';
import type { HeaderMedia } from '../headerMedia';
import { headerMediaOfItem, notYetUploaded, withHeaderMedia } from '../headerMedia';
import type { ItemVariables } from '../itemParameters';
import { parameterOfItem, variablesOfItem } from '../itemParameters';
import type { DeliveryPermit, PreparedDeliveries } from '../node.type';
import type { VariablesToCheck } from '../templateCheck';
import { checkTemplateBeforeSend } from '../templateCheck';
import type { LaunchPlan } from './launchBase';
import { broadcastBase, launch } from './launchBase';

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

/**
 * A contact's variables as the template check reads them: the global ones and its own (which take
 * precedence), each named where the user gave it.
 */
function contactVariablesToCheck(
	context: IExecuteFunctions,
	itemIndex: number,
	globalVariables: ItemVariables | undefined,
	own: { values: IDataObject; empty: string[] },
	merged: IDataObject,
): VariablesToCheck {
	const rows = () =>
		rowsOf(context.getNodeParameter('contactVariables', itemIndex, {}, { rawExpressions: true }));
	const ownRaw = (name: string) =>
		rows().find((row) => typeof row.key === 'string' && row.key.trim() === name)?.value;
	const isOwn = (name: string) => own.empty.includes(name) || name in own.values;
	return {
		values: merged,
		empty: [...new Set([...(globalVariables?.empty ?? []), ...own.empty])],
		field: 'Global Variables',
		alsoIn: 'Contact Variables',
		fieldOf: (name) => (isOwn(name) ? 'Contact Variables' : 'Global Variables'),
		expressionOf: (name) => {
			if (!isOwn(name)) return globalVariables?.expressionOf(name);
			const raw = ownRaw(name);
			return typeof raw === 'string' && raw.startsWith('=') ? raw.slice(1).trim() : undefined;
		},
		rawValueOf: (name) =>
			isOwn(name)
				? rowsOf(context.getNodeParameter('contactVariables', itemIndex, {})).find(
						(row) => typeof row.key === 'string' && row.key.trim() === name,
					)?.value
				: globalVariables?.rawValueOf(name),
	};
}

/** What names the one broadcast made from all input items between tries of the node. */
const FROM_ALL_ITEMS = 'from all input items';

/** What every contact of the one broadcast shares, read once from the first item. */
interface SharedFields {
	base: IDataObject;
	templateId: string;
	globalVariables: ItemVariables | undefined;
	/** Header Media is a binary file per contact: each contact's is read with its row. */
	perContact: boolean;
	/** The header file for everyone (none when each contact has its own). */
	headerMedia: HeaderMedia | undefined;
}

/** The broadcast's shared fields, its Global Variables and its header file, from the first item. */
async function sharedFieldsOf(
	context: IExecuteFunctions,
	itemIndexes: number[],
): Promise<SharedFields> {
	const globalVariables = itemIndexes.length
		? variablesOfItem(context, itemIndexes[0], 'Global Variables')
		: undefined;
	const base = globalVariables ? broadcastBase(context, itemIndexes[0], globalVariables) : {};
	const templateId = String(base.whats_app_template_id);
	const perContact =
		itemIndexes.length > 0 &&
		context.getNodeParameter('headerMedia', itemIndexes[0], 'variables') === 'binaryPerContact';
	const headerMedia =
		itemIndexes.length && !perContact
			? await headerMediaOfItem(
					context,
					itemIndexes[0],
					templateId,
					base.liquid_values as IDataObject | undefined,
				)
			: undefined;
	return { base, templateId, globalVariables, perContact, headerMedia };
}

/**
 * One good contact row made ready: its own header file (when each contact has one) and the
 * template's variables filled for it and checked. Throws what is wrong with it.
 */
async function readyContact(
	context: IExecuteFunctions,
	row: { itemIndex: number; value: ReturnType<typeof broadcastContact> },
	shared: SharedFields,
): Promise<FromItems['contacts'][number]> {
	const { base, templateId, globalVariables, perContact, headerMedia } = shared;
	const { contact, empty } = row.value;
	const values = {
		...(base.liquid_values as IDataObject | undefined),
		...(contact.liquid_values as IDataObject | undefined),
	};
	const ownMedia = perContact
		? await headerMediaOfItem(context, row.itemIndex, templateId, values)
		: undefined;
	await checkTemplateBeforeSend(context, row.itemIndex, {
		templateId,
		variables: contactVariablesToCheck(
			context,
			row.itemIndex,
			globalVariables,
			{ values: (contact.liquid_values as IDataObject | undefined) ?? {}, empty },
			values,
		),
		filledLater: headerMedia || ownMedia ? ['header_media'] : [],
		recipient: String(contact.phone_number),
	});
	return { itemIndex: row.itemIndex, contact, headerMedia: ownMedia };
}

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
	const shared = isPlainObject(plan.base.liquid_values) ? plan.base.liquid_values : {};
	return {
		wouldSend,
		preview: {
			template: typeof template.name === 'string' ? template.name : templateId,
			contacts: plan.contacts.map(({ contact, headerMedia }) => {
				const file = (headerMedia ?? plan.headerMedia)?.file.fileName;
				return {
					to: contact.phone_number,
					...renderTemplate(template, {
						...shared,
						...(isPlainObject(contact.liquid_values) ? contact.liquid_values : {}),
						...(file ? { header_media: { filename: file } } : {}),
					}),
				};
			}),
		},
	};
}
