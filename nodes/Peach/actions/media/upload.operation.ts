import type { IDataObject, IExecuteFunctions, INodeProperties, JsonObject } from 'n8n-workflow';
import { NodeApiError, updateDisplayOptions } from 'n8n-workflow';

import { requireText } from '../../helpers/fields';
import { isPlainObject } from '../../helpers/json';
import { checkMedia, md5Base64 } from '../../helpers/media';
import { peachApiRequest } from '../../transport/request';
import { putToStorage } from '../../transport/storage';
import type { ItemResult, OperationOption } from '../node.type';

export const option: OperationOption = {
	name: 'Upload',
	value: 'upload',
	action: 'Upload a media file',
	description:
		"Upload a file from the input item's binary data to Peach and get its media:// URL, for a template's header media",
};

/**
 * The direct-upload request. Peach documents the answer, not the request: its fields (filename,
 * content type, byte size, base64 MD5) are echoed in the answer, and Peach's validation errors name
 * them under `blob`, the Rails ActiveStorage form. Kept here, in one place.
 */
export function directUploadBody(blob: {
	filename: string;
	contentType: string;
	byteSize: number;
	checksum: string;
}): IDataObject {
	return {
		blob: {
			filename: blob.filename,
			content_type: blob.contentType,
			byte_size: blob.byteSize,
			checksum: blob.checksum,
		},
	};
}

const properties: INodeProperties[] = [
	{
		displayName: 'Input Binary Field',
		name: 'binaryPropertyName',
		type: 'string',
		required: true,
		default: 'data',
		placeholder: 'e.g. data',
		hint: 'The name of the input binary field containing the file to upload',
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [
			{
				displayName: 'File Name',
				name: 'fileName',
				type: 'string',
				default: '',
				placeholder: 'e.g. brochure.pdf',
				description: "The name Peach stores; by default the binary's own file name",
			},
		],
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['media'], operation: ['upload'] } },
	properties,
);

/**
 * The documented direct upload: checked first (type and size), then `POST /medias/direct_uploads`,
 * the bytes to the storage URL with exactly the headers given (no API key), and
 * `POST /medias/finalize` with the signed ID. The file is read once.
 */
export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<ItemResult> {
	const property = requireText(
		'Input Binary Field',
		this.getNodeParameter('binaryPropertyName', itemIndex, 'data'),
		'Name the binary field that holds the file, e.g. data.',
	);
	const binary = this.helpers.assertBinaryData(itemIndex, property);
	const options = this.getNodeParameter('options', itemIndex, {}) as IDataObject;
	const filename =
		(typeof options.fileName === 'string' && options.fileName.trim()) || binary.fileName || 'file';
	const contentType = binary.mimeType;
	const declaredSize = typeof binary.bytes === 'number' ? binary.bytes : undefined;
	if (declaredSize !== undefined) checkMedia(filename, contentType, declaredSize);
	const bytes = await this.helpers.getBinaryDataBuffer(itemIndex, property);
	checkMedia(filename, contentType, bytes.length);

	const created = await peachApiRequest.call(this, {
		method: 'POST',
		path: '/medias/direct_uploads',
		body: directUploadBody({
			filename,
			contentType,
			byteSize: bytes.length,
			checksum: md5Base64(bytes),
		}),
		itemIndex,
	});
	const upload =
		isPlainObject(created) && isPlainObject(created.direct_upload)
			? created.direct_upload
			: undefined;
	const signedId = isPlainObject(created) ? created.signed_id : undefined;
	if (!upload || typeof upload.url !== 'string' || typeof signedId !== 'string') {
		throw new NodeApiError(this.getNode(), { message: 'no direct upload' } as JsonObject, {
			message: 'Peach answered the direct upload without direct_upload.url and signed_id',
			description:
				'Check the Base URL of the credential: this answer is not a Peach direct upload.',
			itemIndex,
		});
	}
	const headers: Record<string, string> = {};
	if (isPlainObject(upload.headers)) {
		for (const [name, value] of Object.entries(upload.headers)) headers[name] = String(value);
	}
	await putToStorage(
		this,
		{
			url: upload.url,
			headers,
			method: typeof upload.method === 'string' ? upload.method : undefined,
		},
		bytes,
		itemIndex,
	);
	const finalized = await peachApiRequest.call(this, {
		method: 'POST',
		path: '/medias/finalize',
		body: { signed_id: signedId },
		itemIndex,
	});
	return isPlainObject(finalized)
		? finalized
		: { signed_id: signedId, response: finalized as string };
}
