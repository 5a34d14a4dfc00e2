import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { isSet } from '../../helpers/fields';
import { normalizeContactPhoneNumber } from '../../helpers/phone';
import { toUtcTimestamp } from '../../helpers/time';
import { filtersOfItem, listFields, readList } from '../operation/list';
import type { ItemResult, OperationOption } from '../operation/node.type';
import { STATUS_OPTIONS } from './shared';
import { apiPath } from '../../transport/path';

export const option: OperationOption = {
	name: 'Get Many',
	value: 'getMany',
	action: 'Get many conversations',
	description:
		'List conversations, optionally by status, escalation, last activity, contact, call permission or update time',
};

export const properties: INodeProperties[] = listFields([
	{
		displayName: 'Activity Type',
		name: 'activityType',
		type: 'options',
		options: [
			{ name: 'Assignment', value: 'assignment' },
			{ name: 'Escalation', value: 'escalation' },
			{ name: 'Message', value: 'message' },
			{ name: 'Status Change', value: 'status_change' },
		],
		default: 'message',
		description: 'Only conversations whose last activity is of this type',
	},
	{
		displayName: 'Escalated',
		name: 'escalated',
		type: 'boolean',
		default: false,
		description:
			'Whether to list only escalated conversations (on) or only not escalated ones (off)',
	},
	{
		displayName: 'Has Call Permission',
		name: 'hasCallPermission',
		type: 'boolean',
		default: false,
		description: 'Whether the contact allowed calls (on) or not (off)',
	},
	{
		displayName: 'Phone Number',
		name: 'phoneNumber',
		type: 'string',
		default: '',
		placeholder: 'e.g. +919988776655',
	},
	{
		displayName: 'Status',
		name: 'status',
		type: 'options',
		options: STATUS_OPTIONS,
		default: 'open',
	},
	{
		displayName: 'Updated Since',
		name: 'updatedSince',
		type: 'dateTime',
		default: '',
	},
]);

/** The query of GET /conversations from the filters. Pure. */
export function conversationQuery(filters: IDataObject, timeZone: string): IDataObject {
	const qs: IDataObject = {};
	if (isSet(filters.status)) qs.status = String(filters.status);
	if (typeof filters.escalated === 'boolean') qs.escalated = filters.escalated;
	if (isSet(filters.activityType)) qs.activity_type = String(filters.activityType);
	if (isSet(filters.phoneNumber))
		qs.phone_number = normalizeContactPhoneNumber('Phone Number', filters.phoneNumber);
	if (typeof filters.hasCallPermission === 'boolean')
		qs.has_call_permission = filters.hasCallPermission;
	if (isSet(filters.updatedSince))
		qs.updated_since = toUtcTimestamp('Updated Since', filters.updatedSince, timeZone);
	return qs;
}

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<ItemResult> {
	return await readList(
		this,
		itemIndex,
		{
			path: apiPath`/conversations`,
			qs: conversationQuery(filtersOfItem(this, itemIndex), this.getTimezone()),
		},
		{ itemsKey: ['conversations'] },
	);
}
