import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { rowsOf } from '../../helpers/payload';
import type { HeaderMedia } from '../templateSend/headerMedia';
import { headerMediaOfItem } from '../templateSend/headerMedia';
import type { ItemVariables } from '../item/itemParameters';
import { variablesOfItem } from '../item/itemParameters';
import type { VariablesToCheck } from '../templateSend/templateCheck';
import { checkTemplateBeforeSend } from '../templateSend/templateCheck';
import type { LaunchPlan } from './launchBase';
import { broadcastBase } from './launchBase';

/**
 * The contacts of the one broadcast from all input items (launchFromItems.ts), before anything is
 * uploaded or launched: what they all share, read once from the first item, and each contact made
 * ready: its own header file, and the template's variables filled for it and checked.
 */

type FromItems = Extract<LaunchPlan, { recipients: 'items' }>;

/** One contact as its input item gives it (launchFromItems.ts's broadcastContact). */
interface ContactRow {
	itemIndex: number;
	value: { contact: IDataObject; empty: string[] };
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

/** What every contact of the one broadcast shares, read once from the first item. */
export interface SharedFields {
	base: IDataObject;
	templateId: string;
	globalVariables: ItemVariables | undefined;
	/** Header Media is a binary file per contact: each contact's is read with its row. */
	perContact: boolean;
	/** The header file for everyone (none when each contact has its own). */
	headerMedia: HeaderMedia | undefined;
}

/** The broadcast's shared fields, its Global Variables and its header file, from the first item. */
export async function sharedFieldsOf(
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
export async function readyContact(
	context: IExecuteFunctions,
	row: ContactRow,
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
