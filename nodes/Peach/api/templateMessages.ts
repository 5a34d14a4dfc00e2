import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { peachApiRequestAllItems } from '../transport/paginate';
import { apiPath } from '../transport/path';

/** Peach's largest page of template messages (`per`). */
const PAGE_SIZE = 1000;

/**
 * Every template message Peach lists as updated since `since` (`GET /template_messages`, all pages
 * of its largest size): what Peach itself shows it queued, read by a Retry before it sends again.
 */
export async function templateMessagesSince(
	context: IExecuteFunctions,
	since: Date,
): Promise<IDataObject[]> {
	return await peachApiRequestAllItems.call(
		context,
		{
			method: 'GET',
			path: apiPath`/template_messages`,
			qs: { updated_since: since.toISOString() },
		},
		{ itemsKey: ['template_messages'], pageSize: PAGE_SIZE },
	);
}
