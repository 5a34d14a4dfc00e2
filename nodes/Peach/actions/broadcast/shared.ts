import type { IExecuteFunctions } from 'n8n-workflow';

import { outputOf } from '../../helpers/payload';
import { apiPath, segment } from '../../transport/path';
import { peachApiRequest } from '../../transport/request';
import { locatorValueOf } from '../item/itemParameters';
import type { ItemResult } from '../operation/node.type';

/** What the Broadcast operations share: the broadcast's ID, and archive and cancel. */

/** The broadcast ID of the item, from the locator. */
export function broadcastIdOf(context: IExecuteFunctions, itemIndex: number): string {
	return locatorValueOf(
		context,
		itemIndex,
		'broadcastId',
		'Broadcast',
		'Pick a broadcast From List, or enter its ID By ID (e.g. cmp_1234abcd).',
	);
}

/** `PATCH /api/v1/broadcasts/{id}/<action>` (archive, cancel), without a body; Peach's answer as it came. */
export async function changeBroadcast(
	context: IExecuteFunctions,
	itemIndex: number,
	action: 'archive' | 'cancel',
): Promise<ItemResult> {
	const id = broadcastIdOf(context, itemIndex);
	const response = await peachApiRequest.call(context, {
		method: 'PATCH',
		path: apiPath`/broadcasts/${segment('Broadcast', id)}/${segment('Action', action)}`,
		itemIndex,
		notFound: { label: 'Broadcast', id },
	});
	return outputOf(response);
}
