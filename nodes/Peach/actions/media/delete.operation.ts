import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { locator } from '../../descriptions/locator';
import { requireText } from '../../helpers/fields';
import { isPlainObject } from '../../helpers/json';
import { peachApiRequest } from '../../transport/request';
import type { ItemResult, OperationOption } from '../node.type';

export const option: OperationOption = {
	name: 'Delete',
	value: 'delete',
	action: 'Delete a media file',
	description: 'Remove an uploaded media file from Peach',
};

const properties: INodeProperties[] = [locator('media', { required: true })];

export const description = updateDisplayOptions(
	{ show: { resource: ['media'], operation: ['delete'] } },
	properties,
);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<ItemResult> {
	const id = requireText(
		'Media',
		this.getNodeParameter('mediaId', itemIndex, '', { extractValue: true }),
		'Pick a media file From List, or enter its ID (the number in media://<id>).',
	);
	const response = await peachApiRequest.call(this, {
		method: 'DELETE',
		path: `/medias/${encodeURIComponent(id.replace(/^media:\/\//, ''))}`,
		itemIndex,
		notFound: { label: 'Media', id },
	});
	// 204 No Content is a success: n8n's convention for a delete is {deleted: true}.
	return isPlainObject(response) && Object.keys(response).length > 0
		? { deleted: true, ...response }
		: { deleted: true, id };
}
