import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { contactFieldsCollection, phoneNumberField } from '../../descriptions/contact';
import { keyValueCollection } from '../../descriptions/fields';
import { locator } from '../../descriptions/locator';
import { contactFrom, recipientOfEvent } from '../../helpers/contact';
import { PeachInputError } from '../../helpers/inputError';
import { parseJsonObject, setOwn } from '../../helpers/json';
import { pairsToValues, rowsOf } from '../../helpers/payload';
import { postDelivery } from '../../transport/request';
import type { DeliveringOperation, OperationOption } from '../operation/node.type';
import { automationIdOf } from './shared';
import { apiPath, segment } from '../../transport/path';

/**
 * The body of `POST /streams/{id}/events`, as Peach's MCP server builds it (its docs page was never
 * seen): `contact` plus the payload's keys at the top level. The contact's key, kept in one place.
 */
export const CONTACT_KEY = 'contact';

const option: OperationOption = {
	name: 'Trigger',
	value: 'trigger',
	action: 'Trigger an automation for a contact',
	description:
		'Start an automation for one contact with an event payload; the automation may message the contact, so a failed one must be checked before repeating',
};

const properties: INodeProperties[] = [
	locator('automation', { required: true }),
	phoneNumberField,
	contactFieldsCollection(['email', 'name']),
	{
		displayName: 'Payload',
		name: 'payloadInput',
		type: 'options',
		noDataExpression: true,
		options: [
			{ name: 'Using Fields Below', value: 'fields' },
			{ name: 'Using JSON', value: 'json' },
		],
		default: 'fields',
		description: 'Event data the automation can read, next to the contact',
	},
	{
		...keyValueCollection('payload', 'Payload Fields', {
			description: 'Names and values of the event data, e.g. order_id = A-7',
			keyPlaceholder: 'e.g. order_id',
			valuePlaceholder: 'e.g. A-7',
		}),
		displayOptions: { show: { payloadInput: ['fields'] } },
	},
	{
		displayName: 'Payload (JSON)',
		name: 'payloadJson',
		type: 'json',
		default: '{}',
		displayOptions: { show: { payloadInput: ['json'] } },
	},
];

/**
 * The event body: the contact and the payload (any JSON values, every key kept as given, even
 * `__proto__`; "contact" is reserved). Pure.
 */
export function buildTriggerEventBody(contact: IDataObject, payload: IDataObject): IDataObject {
	if (Object.prototype.hasOwnProperty.call(payload, CONTACT_KEY)) {
		throw new PeachInputError(
			'Payload',
			CONTACT_KEY,
			'is a reserved name',
			'Give the contact in Phone Number and Contact Fields, and name the payload fields otherwise.',
		);
	}
	const body: IDataObject = {};
	setOwn(body, CONTACT_KEY, contact);
	for (const [key, value] of Object.entries(payload)) setOwn(body, key, value);
	return body;
}

/** One run of an automation, read and checked: the automation and the event body. */
interface TriggerPlan {
	automationId: string;
	body: IDataObject;
}

async function prepare(this: IExecuteFunctions, itemIndex: number): Promise<TriggerPlan> {
	const automationId = automationIdOf(this, itemIndex);
	const payload =
		this.getNodeParameter('payloadInput', itemIndex, 'fields') === 'json'
			? parseJsonObject('Payload (JSON)', this.getNodeParameter('payloadJson', itemIndex, '{}'))
			: pairsToValues('Payload Fields', rowsOf(this.getNodeParameter('payload', itemIndex, {})));
	const body = buildTriggerEventBody(
		contactFrom(
			this.getNodeParameter('phoneNumber', itemIndex),
			this.getNodeParameter('contactFields', itemIndex, {}) as IDataObject,
		),
		payload,
	);
	return { automationId, body };
}

/** Runs for the same contact go one after another, in input order. */
function recipientOf(plan: TriggerPlan): string | undefined {
	return recipientOfEvent(plan.body);
}

const deliver = postDelivery((plan: TriggerPlan) => ({
	path: apiPath`/streams/${segment('Automation', plan.automationId)}/events`,
	body: plan.body,
	notFound: { label: 'Automation', id: plan.automationId },
}));

/**
 * Dry Run: the trigger's exact request and, as a person checks it, the contact, the automation and
 * the payload (every key as given, next to the contact). Nothing is read or triggered.
 */
async function preview(this: IExecuteFunctions, plan: TriggerPlan): Promise<IDataObject> {
	const payload: IDataObject = {};
	for (const [key, value] of Object.entries(plan.body))
		if (key !== CONTACT_KEY) setOwn(payload, key, value);
	return {
		wouldSend: deliver.wouldSend(plan),
		preview: { to: recipientOf(plan), automation: plan.automationId, payload },
	};
}

/**
 * Automation → Trigger: one run of the automation per item. Peach starts the run at once: a run it
 * took is `accepted` (not `queued`, as a message is).
 */
export const trigger: DeliveringOperation<TriggerPlan> = {
	option,
	properties,
	delivers: true,
	prepare,
	recipientOf,
	preview,
	deliver,
	// Peach lists no automation runs: what a crash's record lost of one is outcomeUnknown.
	madeOnEvidence: true,
	doneOutcome: 'accepted',
};
