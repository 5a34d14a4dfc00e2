import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { businessPhoneNumberField, keyValueCollection } from '../../descriptions/fields';
import { headerMediaFileFields, headerMediaModeField } from '../../descriptions/headerMedia';
import { locator } from '../../descriptions/locator';
import { templateVariablesFields } from '../../descriptions/templateVariables';
import { isSet, requireText } from '../../helpers/fields';
import { isPlainObject } from '../../helpers/json';
import { omitEmpty, pairsToLiquidValues, rowsOf } from '../../helpers/payload';
import { normalizeBusinessPhoneNumber, normalizeContactPhoneNumber } from '../../helpers/phone';
import { checkRows } from '../../helpers/rows';
import { toFutureUtcTimestamp } from '../../helpers/time';
import { postDelivery } from '../../transport/request';
import type { HeaderMedia } from '../headerMedia';
import { headerMediaOfItem, uploadHeaderMedia } from '../headerMedia';
import { liquidValuesOfItem, locatorValueOf, replyAutomationOfItem } from '../itemParameters';
import { checkTemplateBeforeSend } from '../templateCheck';
import type { Delivery, DeliveryPermit, OperationOption, PreparedDeliveries } from '../node.type';
import { apiPath } from '../../transport/path';

export const option: OperationOption = {
	name: 'Launch',
	value: 'launch',
	action: 'Launch a broadcast',
	description:
		'Send an approved template to many contacts at once: an audience, or one broadcast from all input items. Never repeat a launch that failed without checking: it may have started.',
};

/**
 * Delivery modes: Peach's docs and its n8n node say instant or gradual; Peach's MCP server says
 * instant or smart. Both readings are offered (README, "What is not known").
 */
export const DELIVERY_MODES = ['instant', 'gradual', 'smart'];

export const properties: INodeProperties[] = [
	{
		displayName: 'Name',
		name: 'name',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. Spring sale',
		description: 'The name of the broadcast in Peach',
	},
	locator('template', { required: true, description: 'The approved WhatsApp template to send' }),
	...templateVariablesFields({
		label: 'Global Variables',
		description:
			'Values of the template variables shared by every contact (per-contact values below take precedence)',
		dependsOn: ['headerMedia'],
	}),
	{
		displayName: 'Recipients',
		name: 'recipients',
		type: 'options',
		noDataExpression: true,
		options: [
			{
				name: 'One Broadcast From All Input Items',
				value: 'items',
				description:
					'Each input item is one contact (phone number, name, variables mapped below); all of them go in one request',
			},
			{
				name: 'Audience',
				value: 'audience',
				description: 'A saved Peach audience; each input item launches its own broadcast',
			},
		],
		default: 'items',
	},
	{
		displayName: 'Contact Phone Number',
		name: 'contactPhoneNumber',
		type: 'string',
		required: true,
		default: '={{ $json.phone_number }}',
		placeholder: 'e.g. {{ $json.phone }}',
		description:
			"Each item's contact number, + and the country code. Every number is checked before anything is sent.",
		displayOptions: { show: { recipients: ['items'] } },
	},
	{
		displayName: 'Contact Name',
		name: 'contactName',
		type: 'string',
		default: '',
		placeholder: 'e.g. {{ $json.name }}',
		description: "Each item's contact name",
		displayOptions: { show: { recipients: ['items'] } },
	},
	{
		...keyValueCollection('contactVariables', 'Contact Variables', {
			description:
				"Each contact's own template variable values, e.g. first_name = {{ $json.first_name }}",
			keyName: 'Variable Name',
			keyPlaceholder: 'e.g. first_name',
			valuePlaceholder: 'e.g. {{ $json.first_name }}',
		}),
		displayOptions: { show: { recipients: ['items'] } },
	},
	{
		displayName: 'Audience ID',
		name: 'audienceId',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. aud_1234abcd',
		description: 'A saved audience from the Peach web app (Peach has no API that lists audiences)',
		displayOptions: { show: { recipients: ['audience'] } },
	},
	headerMediaModeField(
		[
			{
				name: 'From a Binary Field',
				value: 'binary',
				description:
					"Upload the first input item's file once and show it in every contact's template header",
			},
			{
				name: "From Each Item's Binary Field",
				value: 'binaryPerContact',
				description:
					"Upload each input item's file (once per distinct file) and show each contact its own",
			},
		],
		{ show: { recipients: ['items'] } },
	),
	headerMediaModeField(
		[
			{
				name: 'From a Binary Field',
				value: 'binary',
				description: "Upload each input item's file and show it in the header of its broadcast",
			},
		],
		{ show: { recipients: ['audience'] } },
	),
	...headerMediaFileFields(),
	{
		displayName: 'Delivery Mode',
		name: 'deliveryMode',
		type: 'options',
		options: [
			{ name: 'Instant', value: 'instant', description: 'Send to everyone now' },
			{
				name: 'Gradual',
				value: 'gradual',
				description: "Spread the sending out (the docs' name for it)",
			},
			{
				name: 'Smart',
				value: 'smart',
				description: "Spread the sending out (the name Peach's MCP server uses)",
			},
		],
		default: 'instant',
		description:
			"How Peach sends the messages. Peach's sources disagree on the name of the spread-out mode: choose the one your account accepts.",
	},
	{
		displayName: 'Additional Fields',
		name: 'additionalFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		options: [
			businessPhoneNumberField(
				"The business number to send from: digits with the country code and no +. Sent as phone_number, as Peach's broadcasts name it.",
			),
			locator('automation', {
				displayName: 'Reply Automation',
				name: 'replyAutomation',
				description: "The automation (or AI agent, by ID) that handles the contacts' replies",
			}),
			{
				displayName: 'Scheduled Launch Time',
				name: 'scheduledLaunchTime',
				type: 'dateTime',
				default: '',
				description:
					'When Peach starts sending; must be in the future. Leave it out to launch now.',
			},
		],
	},
];

/** One broadcast contact from an input item: phone, name and the contact's own variables. Pure. */
export function broadcastContact(input: {
	itemIndex: number;
	phoneNumber: unknown;
	name: unknown;
	variables: unknown;
}): IDataObject {
	const at = `Item ${input.itemIndex + 1}`;
	return omitEmpty({
		phone_number: normalizeContactPhoneNumber(`${at} → Contact Phone Number`, input.phoneNumber),
		name: typeof input.name === 'string' ? input.name.trim() : undefined,
		liquid_values: pairsToLiquidValues(`${at} → Contact Variables`, rowsOf(input.variables)),
	});
}

/** The broadcast fields shared by every contact, read from the first item (they cannot vary per contact). */
function broadcastBase(context: IExecuteFunctions, itemIndex: number): IDataObject {
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
		liquid_values: liquidValuesOfItem(context, itemIndex, 'Global Variables'),
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

const launch = postDelivery((broadcast: IDataObject) => ({
	path: apiPath`/events`,
	body: { event_type: 'send_broadcast', broadcast },
}));

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

export const batch = true;
export const delivers = true;

/** What names the one broadcast made from all input items between tries of the node. */
const FROM_ALL_ITEMS = 'from all input items';

/** The values with the uploaded header file as header_media. Pure. */
function withHeaderMedia(
	liquidValues: unknown,
	media: HeaderMedia | undefined,
): IDataObject | undefined {
	const values = isPlainObject(liquidValues) ? liquidValues : undefined;
	if (media?.value === undefined) return values;
	return { ...values, header_media: media.value };
}

/**
 * Reads and checks every item before anything is uploaded or launched: each contact row (From Input
 * Items) or each item's whole broadcast (Audience), and each header file against the template's
 * header kind. A problem with the shared fields fails the whole batch.
 */
export async function prepareBatch(
	this: IExecuteFunctions,
	itemIndexes: number[],
): Promise<PreparedDeliveries<LaunchPlan>> {
	const problems: PreparedDeliveries<LaunchPlan>['problems'] = [];
	if (this.getNodeParameter('recipients', 0, 'items') === 'audience') {
		const rows = checkRows(
			itemIndexes,
			(itemIndex): IDataObject => ({
				...broadcastBase(this, itemIndex),
				audience_id: requireText(
					'Audience ID',
					this.getNodeParameter('audienceId', itemIndex),
					'Copy the audience ID from the Peach web app.',
				),
			}),
		);
		const deliveries: PreparedDeliveries<LaunchPlan>['deliveries'] = [];
		for (const row of rows) {
			if ('error' in row) {
				problems.push(row);
				continue;
			}
			try {
				const headerMedia = await headerMediaOfItem(
					this,
					row.itemIndex,
					String(row.value.whats_app_template_id),
					row.value.liquid_values as IDataObject | undefined,
				);
				deliveries.push({
					inputs: [row.itemIndex],
					plan: { recipients: 'audience', broadcast: row.value, headerMedia },
				});
			} catch (error) {
				problems.push({ itemIndex: row.itemIndex, error: error as Error });
			}
		}
		return { deliveries, problems };
	}
	const base = itemIndexes.length ? broadcastBase(this, itemIndexes[0]) : {};
	const templateId = String(base.whats_app_template_id);
	const perContact =
		itemIndexes.length > 0 &&
		this.getNodeParameter('headerMedia', itemIndexes[0], 'variables') === 'binaryPerContact';
	const headerMedia =
		itemIndexes.length && !perContact
			? await headerMediaOfItem(
					this,
					itemIndexes[0],
					templateId,
					base.liquid_values as IDataObject | undefined,
				)
			: undefined;
	const rows = checkRows(itemIndexes, (itemIndex) =>
		broadcastContact({
			itemIndex,
			phoneNumber: this.getNodeParameter('contactPhoneNumber', itemIndex, ''),
			name: this.getNodeParameter('contactName', itemIndex, ''),
			variables: this.getNodeParameter('contactVariables', itemIndex, {}),
		}),
	);
	const contacts: Extract<LaunchPlan, { recipients: 'items' }>['contacts'] = [];
	for (const row of rows) {
		if ('error' in row) {
			problems.push(row);
			continue;
		}
		try {
			const values = {
				...(base.liquid_values as IDataObject | undefined),
				...(row.value.liquid_values as IDataObject | undefined),
			};
			const ownMedia = perContact
				? await headerMediaOfItem(this, row.itemIndex, templateId, values)
				: undefined;
			await checkTemplateBeforeSend(this, row.itemIndex, {
				templateId,
				values,
				field: 'Global Variables',
				alsoIn: 'Contact Variables',
				filledLater: headerMedia || ownMedia ? ['header_media'] : [],
			});
			contacts.push({ itemIndex: row.itemIndex, contact: row.value, headerMedia: ownMedia });
		} catch (error) {
			problems.push({ itemIndex: row.itemIndex, error: error as Error });
		}
	}
	const inputs = contacts.map((entry) => entry.itemIndex);
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

/**
 * The header files, uploaded once per distinct file before the first launch. A launch to an
 * audience whose file failed is not made; a broadcast from all items without its shared file is
 * not made, and a contact whose own file failed is left out of it (each with its error).
 */
export async function stage(
	this: IExecuteFunctions,
	deliveries: Array<Delivery<LaunchPlan>>,
): Promise<PreparedDeliveries<LaunchPlan>> {
	const files = deliveries.flatMap(({ inputs, plan }) => {
		if (plan.recipients === 'audience')
			return plan.headerMedia ? [{ itemIndex: inputs[0], media: plan.headerMedia }] : [];
		const own = plan.contacts.flatMap(({ itemIndex, headerMedia }) =>
			headerMedia ? [{ itemIndex, media: headerMedia }] : [],
		);
		return plan.headerMedia && plan.contacts.length
			? [{ itemIndex: plan.contacts[0].itemIndex, media: plan.headerMedia }, ...own]
			: own;
	});
	const failed = await uploadHeaderMedia(this, files);
	const staged: PreparedDeliveries<LaunchPlan> = { deliveries: [], problems: [] };
	for (const delivery of deliveries) {
		const { plan } = delivery;
		if (plan.recipients === 'audience') {
			const error = failed.get(delivery.inputs[0]);
			if (error) staged.problems.push({ itemIndex: delivery.inputs[0], error });
			else staged.deliveries.push(delivery);
			continue;
		}
		const shared =
			plan.headerMedia && plan.contacts.length && failed.get(plan.contacts[0].itemIndex);
		if (shared) {
			// The file every contact shares could not be uploaded: the broadcast cannot go out.
			staged.problems.push(...plan.contacts.map(({ itemIndex }) => ({ itemIndex, error: shared })));
			continue;
		}
		const contacts = plan.contacts.filter(({ itemIndex }) => {
			const error = failed.get(itemIndex);
			if (error) staged.problems.push({ itemIndex, error });
			return !error;
		});
		if (contacts.length)
			staged.deliveries.push({
				...delivery,
				inputs: contacts.map(({ itemIndex }) => itemIndex),
				plan: { ...plan, contacts },
			});
	}
	return staged;
}

/** Launches to the same audience go one after another, in input order. */
export function recipientOf(plan: LaunchPlan): string | undefined {
	return plan.recipients === 'audience'
		? `audience ${String(plan.broadcast.audience_id)}`
		: undefined;
}

/** The launch: one `send_broadcast` event, with the uploaded header files. */
export async function deliver(
	this: IExecuteFunctions,
	plan: LaunchPlan,
	itemIndex: number,
	permit: DeliveryPermit,
): Promise<IDataObject> {
	if (plan.recipients === 'audience') {
		const json = await launch.call(
			this,
			omitEmpty({
				...plan.broadcast,
				liquid_values: withHeaderMedia(plan.broadcast.liquid_values, plan.headerMedia),
			}),
			itemIndex,
			permit,
		);
		return plan.headerMedia?.mediaUrl ? { ...json, media_url: plan.headerMedia.mediaUrl } : json;
	}
	const mediaUrls: IDataObject = {};
	for (const { contact, headerMedia } of plan.contacts)
		if (headerMedia?.mediaUrl) mediaUrls[String(contact.phone_number)] = headerMedia.mediaUrl;
	const json = await launch.call(
		this,
		omitEmpty({
			...plan.base,
			liquid_values: withHeaderMedia(plan.base.liquid_values, plan.headerMedia),
			contacts: plan.contacts.map(({ contact, headerMedia }) =>
				omitEmpty({
					...contact,
					liquid_values: withHeaderMedia(contact.liquid_values, headerMedia),
				}),
			),
		}),
		itemIndex,
		permit,
	);
	return {
		...json,
		contactCount: plan.contacts.length,
		...(plan.headerMedia?.mediaUrl ? { media_url: plan.headerMedia.mediaUrl } : {}),
		...(Object.keys(mediaUrls).length ? { media_urls: mediaUrls } : {}),
	};
}
