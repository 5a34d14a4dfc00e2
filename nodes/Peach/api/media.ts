import type { IDataObject, IExecuteFunctions, JsonObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { isPlainObject } from '../helpers/json';
import { md5Base64 } from '../helpers/media';
import { peachApiRequest } from '../transport/request';
import { putToStorage } from '../transport/storage';
import { apiPath } from '../transport/path';

/** A file to upload, already checked (type and size) by the caller. */
export interface MediaFile {
	fileName: string;
	contentType: string;
	bytes: Buffer;
}

/**
 * The direct-upload request. Peach documents the answer, not the request: its fields (filename,
 * content type, byte size, base64 MD5) are echoed in the answer, and Peach's validation errors name
 * them under `blob`, the Rails ActiveStorage form. Kept here, in one place.
 */
export function directUploadBody(file: MediaFile): IDataObject {
	return {
		blob: {
			filename: file.fileName,
			content_type: file.contentType,
			byte_size: file.bytes.length,
			checksum: md5Base64(file.bytes),
		},
	};
}

/** Where Peach's direct upload says the bytes go (putToStorage checks that place before it sends). */
type StorageTarget = Parameters<typeof putToStorage>[1];

/**
 * `POST /medias/direct_uploads`: Peach's answer names where the bytes go (`direct_upload`: its URL,
 * the headers to send exactly, the method) and the signed ID that finalizes them.
 */
async function startDirectUpload(
	context: IExecuteFunctions,
	file: MediaFile,
	itemIndex: number,
): Promise<{ target: StorageTarget; signedId: string }> {
	const created = await peachApiRequest.call(context, {
		method: 'POST',
		path: apiPath`/medias/direct_uploads`,
		body: directUploadBody(file),
		itemIndex,
	});
	const upload =
		isPlainObject(created) && isPlainObject(created.direct_upload)
			? created.direct_upload
			: undefined;
	const signedId = isPlainObject(created) ? created.signed_id : undefined;
	if (!upload || typeof upload.url !== 'string' || typeof signedId !== 'string') {
		throw new NodeApiError(context.getNode(), { message: 'no direct upload' } as JsonObject, {
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
	const method = typeof upload.method === 'string' ? upload.method : undefined;
	return { target: { url: upload.url, headers, method }, signedId };
}

/**
 * Peach's documented direct upload: `POST /medias/direct_uploads`, the bytes to the storage URL
 * with exactly the headers given (no API key), and `POST /medias/finalize` with the signed ID.
 * Answers with the finalized media (its `media_url`, `media://…`).
 */
export async function uploadMedia(
	context: IExecuteFunctions,
	file: MediaFile,
	itemIndex: number,
): Promise<IDataObject> {
	const { target, signedId } = await startDirectUpload(context, file, itemIndex);
	await putToStorage(context, target, file.bytes, itemIndex);
	const finalized = await peachApiRequest.call(context, {
		method: 'POST',
		path: apiPath`/medias/finalize`,
		body: { signed_id: signedId },
		itemIndex,
	});
	return isPlainObject(finalized)
		? finalized
		: { signed_id: signedId, response: finalized as string };
}
