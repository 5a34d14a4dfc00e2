import type { IExecuteFunctions } from 'n8n-workflow';

import { outputOf } from '../../helpers/payload';
import { peachApiRequest } from '../../transport/request';
import type { ItemResult } from '../node.type';
import { broadcastIdOf } from './get.operation';

/** `PATCH /api/v1/broadcasts/{id}/<action>` (archive, cancel), without a body; Peach's answer as it came. */
export async function changeBroadcast(
	context: IExecuteFunctions,
	itemIndex: number,
	action: 'archive' | 'cancel',
): Promise<ItemResult> {
	const id = broadcastIdOf(context, itemIndex);
	const response = await peachApiRequest.call(context, {
		method: 'PATCH',
		path: `/broadcasts/${encodeURIComponent(id)}/${action}`,
		itemIndex,
		notFound: { label: 'Broadcast', id },
	});
	return outputOf(response);
}
