/**
 * Media: GET /medias (`{count, next, previous, medias}`), DELETE /medias/{id} (204), the documented
 * direct upload (`POST /medias/direct_uploads` → the bytes to storage → `POST /medias/finalize`),
 * with WhatsApp's size limits per type. The storage itself is served outside /api/v1 (see storage.mts).
 */
import { createHash } from 'node:crypto';

import { isObject, notFound, Reasons, type Route, validationFailed } from '../http.mts';
import { newId } from '../state/index.mts';

const MB = 1024 * 1024;
/** Peach's media guide: the types it takes (limits per kind from WhatsApp; 5 MB for image/png in Peach's own example). */
export const MEDIA_LIMITS: Record<string, number> = {
	'image/jpeg': 5 * MB,
	'image/png': 5 * MB,
	'video/mp4': 16 * MB,
	'video/3gpp': 16 * MB,
	'audio/mp4': 16 * MB,
	'audio/mpeg': 16 * MB,
	'audio/amr': 16 * MB,
	'audio/ogg': 16 * MB,
	'audio/aac': 16 * MB,
	'application/pdf': 100 * MB,
	'text/plain': 100 * MB,
	'application/vnd.ms-excel': 100 * MB,
	'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': 100 * MB,
	'application/msword': 100 * MB,
	'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 100 * MB,
	'application/vnd.ms-powerpoint': 100 * MB,
	'application/vnd.openxmlformats-officedocument.presentationml.presentation': 100 * MB,
};

export function md5(bytes: Buffer): string {
	return createHash('md5').update(bytes).digest('base64');
}

export const mediaRoutes: Route = (ctx, { method, segments, query, body }) => {
	const [, id] = segments;
	if (!id && method === 'GET') return ctx.listPage(ctx.state.medias, query, '/medias', 'medias');
	if (!id && method === 'POST')
		throw validationFailed({
			media: ['the base64 upload is deprecated in the sandbox: use direct_uploads'],
		});
	if (id === 'direct_uploads' && method === 'POST') {
		// The request is not documented; ActiveStorage wraps it in `blob` (Peach's errors say blob.*). Flat is accepted too.
		const blob = isObject(body.blob) ? body.blob : body;
		const reasons = new Reasons();
		const type = String(blob.content_type ?? '');
		const limit = Object.hasOwn(MEDIA_LIMITS, type) ? MEDIA_LIMITS[type] : undefined;
		if (typeof blob.filename !== 'string' || blob.filename === '')
			reasons.nested('blob', 'filename', "can't be blank");
		if (limit === undefined)
			reasons.nested('blob', 'content_type', `${type || '(none)'} is not supported`);
		if (
			typeof blob.byte_size !== 'number' ||
			!Number.isInteger(blob.byte_size) ||
			blob.byte_size <= 0
		)
			reasons.nested('blob', 'byte_size', 'must be a positive whole number');
		else if (limit !== undefined && blob.byte_size > limit)
			reasons.nested('blob', 'byte_size', `is too large (max ${limit} bytes for ${type})`);
		if (typeof blob.checksum !== 'string' || !/^[A-Za-z0-9+/]{22}==$/.test(blob.checksum))
			reasons.nested('blob', 'checksum', 'must be the base64 MD5 of the file');
		reasons.throwIfAny();
		const key = newId('up_');
		const signedId = newId('signed_');
		ctx.state.uploads.push({
			key,
			signedId,
			filename: blob.filename as string,
			contentType: type,
			byteSize: blob.byte_size as number,
			checksum: blob.checksum as string,
			bytes: null,
		});
		return {
			status: 200,
			body: {
				id: key,
				key,
				filename: blob.filename,
				content_type: type,
				metadata: { source: 'api', peach_media_direct_upload: true, account_id: 'acc_sandbox' },
				byte_size: blob.byte_size,
				checksum: blob.checksum,
				created_at: ctx.now(),
				signed_id: signedId,
				direct_upload: {
					url: `${ctx.baseUrl}/storage/uploads/${key}`,
					headers: { 'Content-Type': type, 'Content-MD5': blob.checksum },
				},
			},
		};
	}
	if (id === 'finalize' && method === 'POST') {
		const upload = ctx.state.uploads.find((entry) => entry.signedId === body.signed_id);
		if (!upload) throw validationFailed({ signed_id: ['is not a direct upload'] });
		if (!upload.bytes)
			throw validationFailed({ blob: { file: ['was never uploaded to storage'] } });
		const mediaId = Math.max(0, ...ctx.state.medias.map((entry) => entry.id)) + 1;
		// As in Peach's docs (media 55 ↔ media://101), the URL names the stored blob, not the media's ID.
		const blobNumber = 100 + ctx.state.uploads.indexOf(upload) + 1;
		const media = {
			id: mediaId,
			filename: upload.filename,
			content_type: upload.contentType,
			signed_id: upload.signedId,
			media_url: `media://${blobNumber}`,
			created_at: ctx.now(),
		};
		ctx.state.medias.push(media);
		return { status: 200, body: media };
	}
	if (id && method === 'DELETE') {
		const index = ctx.state.medias.findIndex((entry) => String(entry.id) === id);
		if (index === -1) throw notFound('Media', id);
		ctx.state.medias.splice(index, 1);
		return { status: 204, body: null };
	}
	return undefined;
};
