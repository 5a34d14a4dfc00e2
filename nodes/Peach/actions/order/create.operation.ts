import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { contactFieldsCollection, phoneNumberField } from '../../descriptions/contact';
import { contactFrom, recipientOfEvent } from '../../helpers/contact';
import { isSet, oneOf } from '../../helpers/fields';
import { PeachInputError } from '../../helpers/inputError';
import { omitEmpty } from '../../helpers/payload';
import { parseDateTime } from '../../helpers/time';
import { postDelivery } from '../../transport/request';
import type { DeliveringOperation, OperationOption } from '../operation/node.type';
import { lineItemsField, lineItemsOf } from './create.lineItems';
import { createWitness, duplicateIdRefusal, orderMadeBefore } from './create.witness';
import { orderAsked } from './shared';
import { apiPath } from '../../transport/path';
import { additionalFieldsCollection } from '../../descriptions/fields';

const option: OperationOption = {
	name: 'Create',
	value: 'create',
	action: 'Create an order',
	description:
		'Create a WhatsApp Payments order for a contact, with line items in minor units (12000 = ₹120.00)',
};

export const ORDER_TYPES = ['physical_goods', 'digital_goods'];

const properties: INodeProperties[] = [
	phoneNumberField,
	lineItemsField,
	contactFieldsCollection(),
	additionalFieldsCollection([
		{
			displayName: 'App Execution ID',
			name: 'appExecutionId',
			type: 'string',
			default: '',
			placeholder: 'e.g. app_exec_1234',
			description: 'The Peach app execution the order belongs to',
		},
		{
			displayName: 'Expires At',
			name: 'expiresAt',
			type: 'dateTime',
			default: '',
			description:
				'When the order stops being payable; must be in the future. Sent as epoch seconds.',
		},
		{
			displayName: 'Expiry Description',
			name: 'expiryDescription',
			type: 'string',
			default: '',
			placeholder: 'e.g. Pay within 24 hours',
			description: 'Shown to the contact with the expiry',
		},
		{
			displayName: 'Order ID',
			name: 'orderId',
			type: 'string',
			default: '',
			placeholder: 'e.g. A-1001',
			description: "Your own order ID (Peach's webhooks return it as reference_id)",
		},
		{
			displayName: 'Type',
			name: 'type',
			type: 'options',
			options: [
				{ name: 'Digital Goods', value: 'digital_goods' },
				{ name: 'Physical Goods', value: 'physical_goods' },
			],
			default: 'physical_goods',
		},
	]),
];

/** The order's expiration from Expires At (a moment after `now`), or none when it is not set. Pure. */
function expirationOf(fields: IDataObject, timeZone: string, now: Date): IDataObject | undefined {
	if (!isSet(fields.expiresAt)) return undefined;
	const at = parseDateTime('Expires At', fields.expiresAt, timeZone);
	if (at.toMillis() <= now.getTime()) {
		throw new PeachInputError(
			'Expires At',
			fields.expiresAt,
			'is not in the future',
			'Pick a later moment, e.g. {{ $now.plus({ days: 1 }) }}.',
		);
	}
	return omitEmpty({
		timestamp: Math.floor(at.toMillis() / 1000),
		description:
			typeof fields.expiryDescription === 'string' ? fields.expiryDescription.trim() : undefined,
	});
}

/** The body of `POST /api/v1/orders`. Pure. */
export function buildOrderBody(
	input: {
		phoneNumber: unknown;
		contactFields: IDataObject;
		items: IDataObject[];
		additionalFields: IDataObject;
	},
	timeZone: string,
	now: Date = new Date(),
): IDataObject {
	const items = lineItemsOf(input.items);
	const fields = input.additionalFields;
	const expiration = expirationOf(fields, timeZone, now);
	return omitEmpty({
		id: typeof fields.orderId === 'string' ? fields.orderId.trim() : undefined,
		app_execution_id:
			typeof fields.appExecutionId === 'string' ? fields.appExecutionId.trim() : undefined,
		type: oneOf('Type', fields.type, ORDER_TYPES),
		contact: contactFrom(input.phoneNumber, input.contactFields),
		items: items as unknown as IDataObject,
		expiration,
	});
}

/** Reads and checks one item; the body of its order. */
async function prepare(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const items = this.getNodeParameter('items', itemIndex, {}) as { item?: IDataObject[] };
	return buildOrderBody(
		{
			phoneNumber: this.getNodeParameter('phoneNumber', itemIndex),
			contactFields: this.getNodeParameter('contactFields', itemIndex, {}) as IDataObject,
			items: Array.isArray(items.item) ? items.item : [],
			additionalFields: this.getNodeParameter('additionalFields', itemIndex, {}) as IDataObject,
		},
		this.getTimezone(),
	);
}

const post = postDelivery((body: IDataObject) => ({ path: apiPath`/orders`, body }));

/**
 * The create; where Peach refuses it because your Order ID is taken, the order it has under that ID
 * comes back `alreadySent` when it is this one, else the refusal names the ID (create.witness.ts).
 */
async function deliver(
	this: IExecuteFunctions,
	body: IDataObject,
	itemIndex: number,
	permit: Parameters<typeof post>[2],
): Promise<IDataObject> {
	return await post.call(this, body, itemIndex, permit).catch(async (error: unknown) => {
		if (typeof body.id !== 'string' || !duplicateIdRefusal(error)) throw error;
		return await orderMadeBefore(this, body, error, itemIndex);
	});
}

/**
 * Dry Run: the create's exact request and, as a person checks it, the contact, your Order ID, each
 * line's amounts in paise and rupees, the expiry as a date. Nothing is read or created.
 */
async function preview(this: IExecuteFunctions, body: IDataObject): Promise<IDataObject> {
	return { wouldSend: post.wouldSend(body), preview: orderAsked(body) };
}

/**
 * Order → Create. Before a later try creates again what the record cannot tell, the order under
 * your Order ID is asked (`peachWitness`). Peach makes the order at once: an order it took is
 * `accepted` (not `queued`, as a message is).
 */
export const create: DeliveringOperation<IDataObject> = {
	option,
	properties,
	delivers: true,
	prepare,
	recipientOf: recipientOfEvent,
	preview,
	peachWitness: createWitness,
	madeOnEvidence: true,
	deliver,
	doneOutcome: 'accepted',
};
