import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { locator } from '../../descriptions/locator';
import { isSet } from '../../helpers/fields';
import { isPlainObject } from '../../helpers/json';
import { toUtcTimestamp } from '../../helpers/time';
import { locatorValueOf } from '../item/itemParameters';
import { filtersOfItem, listFields, readList } from '../operation/list';
import type { ItemResult, OperationOption } from '../operation/node.type';
import { apiPath } from '../../transport/path';

export const option: OperationOption = {
	name: 'Get Many Statuses',
	value: 'getManyStatuses',
	action: 'Get many template message statuses',
	description:
		'List template messages with their WhatsApp status, most recently updated first, optionally of one broadcast or since a date',
};

/** Peach's largest page (`per`). */
const PAGE_SIZE = 1000;

export const properties: INodeProperties[] = listFields([
	locator('broadcast', {
		description: 'Only the messages of this broadcast',
	}),
	{
		displayName: 'Updated Since',
		name: 'updatedSince',
		type: 'dateTime',
		default: '',
		description:
			'Only messages updated at or after this moment. Peach uses the last 24 hours when it is left out.',
	},
]);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<ItemResult> {
	const filters = filtersOfItem(this, itemIndex);
	const qs: IDataObject = {};
	if (isPlainObject(filters.broadcastId) || isSet(filters.broadcastId)) {
		qs.broadcast_id = locatorValueOf(
			this,
			itemIndex,
			'filters.broadcastId',
			'Broadcast',
			'Pick a broadcast From List, or enter its ID (e.g. cmp_1234abcd).',
		);
	}
	if (isSet(filters.updatedSince)) {
		qs.updated_since = toUtcTimestamp('Updated Since', filters.updatedSince, this.getTimezone());
	}
	return await readList(
		this,
		itemIndex,
		{ path: apiPath`/template_messages`, qs },
		{ itemsKey: ['template_messages'], pageSizeUpTo: PAGE_SIZE },
	);
}
