import type {
	IDataObject,
	IExecuteFunctions,
	IHttpRequestMethods,
	INodeProperties,
} from 'n8n-workflow';

import { isSet, requireText } from '../../helpers/fields';
import { parseJsonObject } from '../../helpers/json';
import { outputOf } from '../../helpers/payload';
import type { ApiPath } from '../../transport/path';
import { apiPath, segment } from '../../transport/path';
import { peachApiRequest } from '../../transport/request';
import type { ItemResult } from '../operation/node.type';

/**
 * What the Contact operations share: the contact's path and the setup guest link requests (the
 * contact fields and their reading are the node's one set, in descriptions/ and helpers/contact.ts).
 */

/** `/contacts/{phone_number}` with the + URL-encoded. */
export function contactPath(phoneNumber: string): ApiPath {
	return apiPath`/contacts/${segment('Phone Number', phoneNumber)}`;
}

/**
 * Setup guest links: only their paths are documented (not their bodies or answers), so extra fields
 * can be given as JSON and Peach's answer is output as it comes (docs/peach-api.md §14).
 */
export const guestLinkIdField: INodeProperties = {
	displayName: 'Setup Guest Link ID',
	name: 'guestLinkId',
	type: 'string',
	required: true,
	default: '={{ $json.id }}',
	placeholder: 'e.g. sgl_1234abcd',
	description: 'The ID a Create Setup Guest Link returned. By default the one in the input item.',
};

export const extraFieldsJson: INodeProperties = {
	displayName: 'Fields (JSON)',
	name: 'fieldsJson',
	type: 'json',
	default: '{}',
	description:
		"Fields to send in the body, as Peach's web app or support names them. Peach documents none.",
};

export async function guestLinkRequest(
	context: IExecuteFunctions,
	itemIndex: number,
	action: 'create' | 'expire' | 'regenerate',
): Promise<ItemResult> {
	let method: IHttpRequestMethods = 'POST';
	let path = apiPath`/setup_guest_links`;
	let body: IDataObject | undefined;
	if (action === 'create') {
		const json = context.getNodeParameter('fieldsJson', itemIndex, '{}');
		body = isSet(json) ? parseJsonObject('Fields (JSON)', json) : {};
	} else {
		const id = requireText(
			'Setup Guest Link ID',
			context.getNodeParameter('guestLinkId', itemIndex),
			'Use the id a Create Setup Guest Link returned.',
		);
		path =
			action === 'regenerate'
				? apiPath`/setup_guest_links/${segment('Setup Guest Link ID', id)}/regenerate`
				: apiPath`/setup_guest_links/${segment('Setup Guest Link ID', id)}`;
		if (action === 'expire') method = 'DELETE';
	}
	const response = await peachApiRequest.call(context, { method, path, body, itemIndex });
	return action === 'expire' &&
		(response === undefined ||
			(typeof response === 'object' && response !== null && Object.keys(response).length === 0))
		? { expired: true }
		: outputOf(response);
}
