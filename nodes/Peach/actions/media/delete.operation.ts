import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { locator } from '../../descriptions/locator';
import { PeachInputError } from '../../helpers/inputError';
import { isPlainObject } from '../../helpers/json';
import { peachApiRequestAllItems } from '../../transport/paginate';
import { apiPath, segment } from '../../transport/path';
import { peachApiRequest } from '../../transport/request';
import { locatorValueOf, recordIn } from '../item/itemParameters';
import type { ItemResult, OperationOption } from '../operation/node.type';

export const option: OperationOption = {
	name: 'Delete',
	value: 'delete',
	action: 'Delete a media file',
	description: 'Remove an uploaded media file from Peach',
};

export const properties: INodeProperties[] = [locator('media', { required: true })];

/**
 * The ID of the file a `media://` URL names. The number in a media URL is not the file's ID (Peach's
 * own examples pair ID 11 with media://12, and media 55 with media://101), so the URL is looked up
 * in the media list by its `media_url`.
 */
async function mediaIdOfUrl(
	context: IExecuteFunctions,
	url: string,
	itemIndex: number,
): Promise<string> {
	const [found] = await peachApiRequestAllItems.call(
		context,
		{ method: 'GET', path: apiPath`/medias`, itemIndex },
		{ itemsKey: ['medias'], limit: 1, filter: (media) => media.media_url === url },
	);
	if (found?.id === undefined || found.id === null || found.id === '') {
		throw new PeachInputError(
			'Media',
			url,
			'is not the media_url of any file in the media list',
			"Pick the file From List, or give its ID (Media → Get Many shows each file's id and media_url).",
		);
	}
	return String(found.id);
}

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<ItemResult> {
	const given = locatorValueOf(
		this,
		itemIndex,
		'mediaId',
		'Media',
		'Pick a media file From List, or enter its ID (or its media:// URL).',
	);
	const id = /^media:\/\//.test(given) ? await mediaIdOfUrl(this, given, itemIndex) : given;
	const response = await peachApiRequest.call(this, {
		method: 'DELETE',
		path: apiPath`/medias/${segment('Media', id)}`,
		itemIndex,
		notFound: { label: 'Media', id },
	});
	// 204 No Content is a success: n8n's convention for a delete is {deleted: true}.
	return isPlainObject(response) && Object.keys(response).length > 0
		? { deleted: true, ...response }
		: { deleted: true, id };
}

/** Changes to one record go one after another, in input order. */
export const recordOf = recordIn('mediaId');
