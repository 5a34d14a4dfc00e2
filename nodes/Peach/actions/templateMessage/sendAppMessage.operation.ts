import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { contactFieldsCollection, phoneNumberField } from '../../descriptions/contact';
import { locator } from '../../descriptions/locator';
import { templateVariablesFields } from '../../descriptions/templateVariables';
import { readAgainWhenRefused, templateOf } from '../../api/templates';
import { contactFrom, recipientOfEvent } from '../../helpers/contact';
import { isSet, requireText } from '../../helpers/fields';
import { isPlainObject } from '../../helpers/json';
import { previewTemplate } from '../../helpers/templatePreview';
import { postDelivery } from '../../transport/request';
import { liquidValuesOf, parameterOfItem, variablesOfItem } from '../item/itemParameters';
import { checkTemplateBeforeSend, refuseEmptyVariables } from '../templateSend/templateCheck';
import type { DeliveringOperation, OperationOption, Sight } from '../operation/node.type';
import { apiPath } from '../../transport/path';

/**
 * The field names of `send_app_message`. Peach's page for it was never seen; these come from Peach's
 * own MCP server (docs/peach-api.md §14). Kept here, in one place, to change them at once.
 */
export const APP_MESSAGE = {
	eventType: 'send_app_message',
	/** The block that names the app (flow): `flow` in Peach's code (the docs' page may say `app`). */
	block: 'flow',
	id: 'id',
	variables: 'liquid_values',
	fallbackTemplate: 'whats_app_template_id',
} as const;

const option: OperationOption = {
	name: 'Send App Message',
	value: 'sendAppMessage',
	action: 'Send an app message',
	description:
		'Send a Peach app (flow) to a contact, with a fallback template for when the 24-hour reply window is closed',
};

const properties: INodeProperties[] = [
	phoneNumberField,
	{
		displayName: 'App ID',
		name: 'appId',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. flw_1234abcd',
		description: 'The app (flow) to send, from the Peach web app',
	},
	{
		displayName: 'Fallback Template',
		name: 'useFallbackTemplate',
		type: 'boolean',
		default: false,
		description:
			"Whether to name an approved template Peach sends instead when the contact's 24-hour reply window is closed",
	},
	{
		...locator('template', {
			description: 'The approved template sent when the 24-hour window is closed',
		}),
		displayOptions: { show: { useFallbackTemplate: [true] } },
	},
	...templateVariablesFields({ defaultMode: 'fields', label: 'App Variables' }).map((property) =>
		property.name === 'variablesMapped'
			? {
					...property,
					displayOptions: { show: { variablesInput: ['template'], useFallbackTemplate: [true] } },
				}
			: property,
	),
	contactFieldsCollection(['email', 'metadata', 'name']),
];

/** The body of `POST /api/v1/events` for `send_app_message`, with the names in APP_MESSAGE. Pure. */
export function buildSendAppMessageBody(input: {
	phoneNumber: unknown;
	appId: unknown;
	liquidValues: IDataObject | undefined;
	fallbackTemplateId?: unknown;
	contactFields: IDataObject;
}): IDataObject {
	const block: IDataObject = {
		[APP_MESSAGE.id]: requireText(
			'App ID',
			input.appId,
			'Copy the app (flow) ID, e.g. flw_1234abcd, from the Peach web app.',
		),
	};
	if (input.liquidValues) block[APP_MESSAGE.variables] = input.liquidValues;
	if (isSet(input.fallbackTemplateId)) {
		block[APP_MESSAGE.fallbackTemplate] = requireText(
			'Fallback Template',
			input.fallbackTemplateId,
			'Pick an approved template From List, or turn Fallback Template off.',
		);
	}
	return {
		event_type: APP_MESSAGE.eventType,
		contact: contactFrom(input.phoneNumber, input.contactFields),
		[APP_MESSAGE.block]: block,
	};
}

/**
 * Reads and checks one item; the body of its request. With a Fallback Template, every variable of
 * that template needs a value among the Variables (the contact may get the template instead).
 */
async function prepare(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const fallback = parameterOfItem(this, 'useFallbackTemplate', itemIndex, false) as boolean;
	const templateId = fallback
		? parameterOfItem(this, 'templateId', itemIndex, '', { extractValue: true })
		: undefined;
	const variables = variablesOfItem(this, itemIndex);
	const liquidValues = liquidValuesOf(variables);
	const body = buildSendAppMessageBody({
		phoneNumber: parameterOfItem(this, 'phoneNumber', itemIndex),
		appId: parameterOfItem(this, 'appId', itemIndex),
		liquidValues,
		fallbackTemplateId: templateId,
		contactFields: parameterOfItem(this, 'contactFields', itemIndex, {}) as IDataObject,
	});
	const block = body[APP_MESSAGE.block] as IDataObject;
	const fallbackTemplate = block[APP_MESSAGE.fallbackTemplate];
	const recipient = recipientOfEvent(body);
	if (typeof fallbackTemplate === 'string') {
		await checkTemplateBeforeSend(this, itemIndex, {
			templateId: fallbackTemplate,
			variables,
			recipient,
		});
	} else refuseEmptyVariables(this, itemIndex, variables, recipient);
	return body;
}

const deliver = readAgainWhenRefused(
	postDelivery((body: IDataObject) => ({ path: apiPath`/events`, body })),
	(body) => (body[APP_MESSAGE.block] as IDataObject)[APP_MESSAGE.fallbackTemplate],
);

/** What the contact sees first: the app opening (its screens are Peach's, not shown here). */
const appOpens = (app: string) =>
	`The app ${app} opens in WhatsApp (its screens are Peach's; not shown here).`;

/** With a Fallback Template: that template as the phone would show it (read once per execution). */
async function fallbackOf(
	context: IExecuteFunctions,
	block: IDataObject,
	itemIndex: number,
): Promise<IDataObject | undefined> {
	const fallbackId = block[APP_MESSAGE.fallbackTemplate];
	if (typeof fallbackId !== 'string') return undefined;
	const template = await templateOf(context, fallbackId, itemIndex);
	const values = block[APP_MESSAGE.variables];
	return previewTemplate(template, fallbackId, isPlainObject(values) ? values : undefined);
}

/**
 * Dry Run: the request, and what the contact would get: the app (its screens are Peach's, not shown
 * here) and, with a Fallback Template, that template as the phone would show it.
 */
async function preview(
	this: IExecuteFunctions,
	body: IDataObject,
	itemIndex: number,
): Promise<IDataObject> {
	const block = body[APP_MESSAGE.block] as IDataObject;
	const contact = isPlainObject(body.contact) ? body.contact : {};
	const app = String(block[APP_MESSAGE.id]);
	const shown: IDataObject = { to: contact.phone_number, app, text: appOpens(app) };
	const fallback = await fallbackOf(this, block, itemIndex);
	if (fallback) shown.fallback = { ...fallback };
	return { wouldSend: deliver.wouldSend(body), preview: shown };
}

/** After the send: the app opening, and the fallback template as the phone shows it. */
async function sight(
	this: IExecuteFunctions,
	body: IDataObject,
	itemIndex: number,
): Promise<Sight> {
	const block = body[APP_MESSAGE.block] as IDataObject;
	const fallback = await fallbackOf(this, block, itemIndex);
	return {
		message: appOpens(String(block[APP_MESSAGE.id])),
		fallback: fallback?.text as string | undefined,
	};
}

/** Template Message → Send App Message: a Peach app opened in WhatsApp, with a fallback template. */
export const sendAppMessage: DeliveringOperation<IDataObject> = {
	option,
	properties,
	delivers: true,
	prepare,
	recipientOf: recipientOfEvent,
	preview,
	deliver,
	sight,
};
