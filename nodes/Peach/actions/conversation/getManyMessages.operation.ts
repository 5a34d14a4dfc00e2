import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { isSet } from '../../helpers/fields';
import { normalizeBusinessPhoneNumber, normalizeContactPhoneNumber } from '../../helpers/phone';
import { toUtcTimestamp } from '../../helpers/time';
import { filtersOfItem, listFields, readList } from '../operation/list';
import type { ItemResult, OperationOption } from '../operation/node.type';
import { apiPath } from '../../transport/path';

export const option: OperationOption = {
	name: 'Get Many Messages',
	value: 'getManyMessages',
	action: 'Get many messages',
	description:
		'List WhatsApp messages, optionally of one contact, conversation or business number, one direction, or a time span',
};

export const properties: INodeProperties[] = listFields([
	{
		displayName: 'Business Phone Number',
		name: 'businessPhoneNumber',
		type: 'string',
		default: '',
		placeholder: 'e.g. 919876543222',
		description: 'Only messages of this business number (digits, no +)',
	},
	{
		displayName: 'Conversation ID',
		name: 'conversationId',
		type: 'string',
		default: '',
		placeholder: 'e.g. conv_1234abcd',
	},
	{
		displayName: 'Direction',
		name: 'direction',
		type: 'options',
		options: [
			{ name: 'Inbound', value: 'inbound', description: 'From the contact' },
			{ name: 'Outbound', value: 'outbound', description: 'To the contact' },
		],
		default: 'inbound',
	},
	{
		displayName: 'From',
		name: 'from',
		type: 'dateTime',
		default: '',
		description: 'Only messages at or after this moment',
	},
	{
		displayName: 'Phone Number',
		name: 'phoneNumber',
		type: 'string',
		default: '',
		placeholder: 'e.g. +919988776655',
		description: 'Only messages with this contact (+ and the country code)',
	},
	{
		displayName: 'To',
		name: 'to',
		type: 'dateTime',
		default: '',
		description: 'Only messages before this moment',
	},
]);

/** The query of GET /messages from the filters. Pure. */
export function messageQuery(filters: IDataObject, timeZone: string): IDataObject {
	const qs: IDataObject = {};
	if (isSet(filters.phoneNumber))
		qs.phone_number = normalizeContactPhoneNumber('Phone Number', filters.phoneNumber);
	if (isSet(filters.conversationId)) qs.conversation_id = String(filters.conversationId).trim();
	if (isSet(filters.businessPhoneNumber))
		qs.business_phone_number = normalizeBusinessPhoneNumber(
			'Business Phone Number',
			filters.businessPhoneNumber,
		);
	if (isSet(filters.direction)) qs.direction = String(filters.direction);
	if (isSet(filters.from)) qs.from = toUtcTimestamp('From', filters.from, timeZone);
	if (isSet(filters.to)) qs.to = toUtcTimestamp('To', filters.to, timeZone);
	return qs;
}

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<ItemResult> {
	return await readList(
		this,
		itemIndex,
		{
			path: apiPath`/messages`,
			qs: messageQuery(filtersOfItem(this, itemIndex), this.getTimezone()),
		},
		{ itemsKey: ['messages'] },
	);
}
