/**
 * Media: GET /medias (`{count, next, previous, medias}`), DELETE /medias/{id} (204), the deprecated
 * base64 add (POST /medias), the documented direct upload (`POST /medias/direct_uploads` → the bytes to storage → `POST /medias/finalize`),
 * with WhatsApp's size limits per type. The storage itself is served outside /api/v1 (see storage.mts).
 */
import { createHash } from 'node:crypto';

import {
	isObject,
	notFound,
	Reasons,
	type Route,
	type RouteContext,
	type RouteResult,
	validationFailed,
} from '../http.mts';
import { type JsonObject, newId } from '../state/index.mts';

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

/** What a file name's extension says its type is (Peach's MCP makes content_type optional). */
const BY_EXTENSION: Record<string, string> = {
	jpg: 'image/jpeg',
	jpeg: 'image/jpeg',
	png: 'image/png',
	mp4: 'video/mp4',
	'3gp': 'video/3gpp',
	mp3: 'audio/mpeg',
	ogg: 'audio/ogg',
	aac: 'audio/aac',
	amr: 'audio/amr',
	pdf: 'application/pdf',
	txt: 'text/plain',
	xls: 'application/vnd.ms-excel',
	xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
	doc: 'application/msword',
	docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
	ppt: 'application/vnd.ms-powerpoint',
	pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
};

/**
 * "Add a media (Deprecated)": `POST /medias {media: {data: <base64>, filename, content_type?}}`. Still
 * in Peach's docs and used by Peach's own tools, so taken, with the direct upload's type and size rules;
 * an empty file is refused. Its answer is not documented: the media, as finalize answers.
 */
function addMedia(ctx: RouteContext, body: JsonObject): RouteResult {
	const media = isObject(body.media) ? body.media : undefined;
	if (!media) throw validationFailed({ media: ["can't be blank"] });
	const reasons = new Reasons();
	const filename = typeof media.filename === 'string' ? media.filename : '';
	if (filename === '') reasons.nested('media', 'filename', "can't be blank");
	const type =
		typeof media.content_type === 'string' && media.content_type !== ''
			? media.content_type
			: (BY_EXTENSION[filename.split('.').pop()?.toLowerCase() ?? ''] ?? '');
	const limit = Object.hasOwn(MEDIA_LIMITS, type) ? MEDIA_LIMITS[type] : undefined;
	if (limit === undefined)
		reasons.nested('media', 'content_type', `${type || '(none)'} is not supported`);
	const data = typeof media.data === 'string' ? media.data.replace(/^data:[^,]*,/, '') : '';
	const bytes = /^[A-Za-z0-9+/\s]*={0,2}$/.test(data) ? Buffer.from(data, 'base64') : undefined;
	if (!bytes) reasons.nested('media', 'data', 'must be base64');
	else if (bytes.length === 0) reasons.nested('media', 'data', "can't be blank (an empty file)");
	else if (limit !== undefined && bytes.length > limit)
		reasons.nested('media', 'data', `is too large (max ${limit} bytes for ${type})`);
	reasons.throwIfAny();
	const upload = {
		key: newId('up_'),
		signedId: newId('signed_'),
		filename,
		contentType: type,
		byteSize: (bytes as Buffer).length,
		checksum: md5(bytes as Buffer),
		bytes: bytes as Buffer,
	};
	ctx.state.uploads.push(upload);
	const entry = {
		id: Math.max(0, ...ctx.state.medias.map((existing) => existing.id)) + 1,
		filename,
		content_type: type,
		signed_id: upload.signedId,
		media_url: `media://${100 + ctx.state.uploads.indexOf(upload) + 1}`,
		created_at: ctx.now(),
	};
	ctx.state.medias.push(entry);
	return { status: 200, body: entry };
}

export function md5(bytes: Buffer): string {
	return createHash('md5').update(bytes).digest('base64');
}

export const mediaRoutes: Route = (ctx, { method, segments, query, body }) => {
	const [, id] = segments;
	if (!id && method === 'GET') return ctx.listPage(ctx.state.medias, query, '/medias', 'medias');
	if (!id && method === 'POST') return addMedia(ctx, body);
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
