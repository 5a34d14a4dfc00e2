import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import {
	additionalFieldsCollection,
	businessPhoneNumberField,
	keyValueCollection,
} from '../../descriptions/fields';
import { locator } from '../../descriptions/locator';
import { templateVariablesFields } from '../../descriptions/templateVariables';
import type {
	DeliveringBatchOperation,
	DeliveryPermit,
	OperationOption,
	PreparedDeliveries,
	Sight,
} from '../operation/node.type';
import { type LaunchPlan, recipientOfLaunch, sameLaunch } from './launchBase';
import {
	launchFromItems,
	prepareFromItems,
	previewFromItems,
	sightFromItems,
} from './launchFromItems';
import { launchWitness } from './launch.witness';
import { launchHeaderMediaProperties, uploadLaunchHeaderFiles } from './launchHeaderMedia';
import {
	launchToAudience,
	prepareToAudiences,
	previewToAudience,
	sightToAudience,
} from './launchToAudience';

/**
 * Broadcast → Launch: its fields, and which of its two plans runs: one broadcast from all input
 * items (launchFromItems.ts) or one per input item to an audience (launchToAudience.ts). The header
 * files' fields and their upload are in launchHeaderMedia.ts.
 */

const option: OperationOption = {
	name: 'Launch',
	value: 'launch',
	action: 'Launch a broadcast',
	description:
		'Send an approved template to many contacts at once: an audience, or one broadcast from all input items',
};

const properties: INodeProperties[] = [
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
	...launchHeaderMediaProperties,
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
	additionalFieldsCollection([
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
			description: 'When Peach starts sending; must be in the future. Leave it out to launch now.',
		},
	]),
];

/**
 * Reads and checks every item before anything is uploaded or launched: each contact row (From Input
 * Items) or each item's whole broadcast (Audience), and each header file against the template's
 * header kind. A problem with the shared fields fails the whole batch.
 */
async function prepareBatch(
	this: IExecuteFunctions,
	itemIndexes: number[],
): Promise<PreparedDeliveries<LaunchPlan>> {
	return this.getNodeParameter('recipients', 0, 'items') === 'audience'
		? await prepareToAudiences(this, itemIndexes)
		: await prepareFromItems(this, itemIndexes);
}

/** Dry Run: the launch's request and what the contacts would get; nothing is uploaded or launched. */
async function preview(
	this: IExecuteFunctions,
	plan: LaunchPlan,
	itemIndex: number,
): Promise<IDataObject> {
	return plan.recipients === 'audience'
		? await previewToAudience(this, plan, itemIndex)
		: await previewFromItems(this, plan, itemIndex);
}

/** The launch: one `send_broadcast` event, with the uploaded header files. */
async function deliver(
	this: IExecuteFunctions,
	plan: LaunchPlan,
	itemIndex: number,
	permit: DeliveryPermit,
): Promise<IDataObject> {
	return plan.recipients === 'audience'
		? await launchToAudience(this, plan, itemIndex, permit)
		: await launchFromItems(this, plan, itemIndex, permit);
}

/** After the launch: to whom (the audience; or the first contact and how many more), the message. */
async function sight(this: IExecuteFunctions, plan: LaunchPlan, itemIndex: number): Promise<Sight> {
	return plan.recipients === 'audience'
		? await sightToAudience(this, plan, itemIndex)
		: await sightFromItems(this, plan, itemIndex);
}

/**
 * Broadcast → Launch: one broadcast from all input items, or one per item to an audience. Before a
 * later try launches again what the record cannot tell, Peach's list of broadcasts is asked
 * (`peachWitness`).
 */
export const launch: DeliveringBatchOperation<LaunchPlan> = {
	option,
	properties,
	delivers: true,
	batch: true,
	prepareBatch,
	recipientOf: recipientOfLaunch,
	preview,
	sameDelivery: sameLaunch,
	peachWitness: launchWitness,
	madeOnEvidence: true,
	stage: uploadLaunchHeaderFiles,
	deliver,
	sight,
};
