import { createHash } from 'crypto';

import { PeachInputError } from './inputError';

const MB = 1024 * 1024;

/**
 * The content types Peach's media guide lists, with WhatsApp's size limit for each kind (Peach's own
 * example: 5,242,880 bytes for image/png). Checked before anything is uploaded.
 */
export const MEDIA_TYPES: Record<string, { kind: string; maxBytes: number }> = {
	'image/jpeg': { kind: 'image', maxBytes: 5 * MB },
	'image/png': { kind: 'image', maxBytes: 5 * MB },
	'video/mp4': { kind: 'video', maxBytes: 16 * MB },
	'video/3gpp': { kind: 'video', maxBytes: 16 * MB },
	'audio/mp4': { kind: 'audio', maxBytes: 16 * MB },
	'audio/mpeg': { kind: 'audio', maxBytes: 16 * MB },
	'audio/amr': { kind: 'audio', maxBytes: 16 * MB },
	'audio/ogg': { kind: 'audio', maxBytes: 16 * MB },
	'audio/aac': { kind: 'audio', maxBytes: 16 * MB },
	'application/pdf': { kind: 'document', maxBytes: 100 * MB },
	'text/plain': { kind: 'document', maxBytes: 100 * MB },
	'application/vnd.ms-excel': { kind: 'document', maxBytes: 100 * MB },
	'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': {
		kind: 'document',
		maxBytes: 100 * MB,
	},
	'application/msword': { kind: 'document', maxBytes: 100 * MB },
	'application/vnd.openxmlformats-officedocument.wordprocessingml.document': {
		kind: 'document',
		maxBytes: 100 * MB,
	},
	'application/vnd.ms-powerpoint': { kind: 'document', maxBytes: 100 * MB },
	'application/vnd.openxmlformats-officedocument.presentationml.presentation': {
		kind: 'document',
		maxBytes: 100 * MB,
	},
};

/** "an image", "a video", "a document". */
export function withArticle(kind: string): string {
	return `${/^[aeiou]/.test(kind) ? 'an' : 'a'} ${kind}`;
}

function megabytes(bytes: number): string {
	return `${(bytes / MB).toFixed(bytes % MB === 0 ? 0 : 1)} MB`;
}

/**
 * Refuses a content type Peach does not take, or a file over WhatsApp's limit for its kind (the size
 * is checked when known); answers the file's kind (image, video, audio, document).
 */
export function checkMedia(fileName: string, contentType: string, byteSize?: number): string {
	const key = contentType.split(';')[0].trim().toLowerCase();
	const type = Object.prototype.hasOwnProperty.call(MEDIA_TYPES, key)
		? MEDIA_TYPES[key]
		: undefined;
	if (!type) {
		throw new PeachInputError(
			`File "${fileName}" type`,
			contentType,
			'is not a type Peach takes',
			`Use one of: ${Object.keys(MEDIA_TYPES).join(', ')}. Set the binary's MIME type if it is wrong.`,
		);
	}
	if (byteSize === undefined) return type.kind;
	if (byteSize === 0) {
		throw new PeachInputError(
			`File "${fileName}"`,
			'0 bytes',
			'is empty',
			'Pass a file with content.',
		);
	}
	if (byteSize > type.maxBytes) {
		throw new PeachInputError(
			`File "${fileName}"`,
			megabytes(byteSize),
			`is larger than the ${megabytes(type.maxBytes)} WhatsApp allows for ${withArticle(type.kind)} (${contentType})`,
			`Make the file smaller than ${megabytes(type.maxBytes)}, e.g. compress it, before uploading.`,
		);
	}
	return type.kind;
}

/** The base64 MD5 digest of the bytes, as Peach's direct upload (ActiveStorage) expects. */
export function md5Base64(bytes: Buffer): string {
	return createHash('md5').update(bytes).digest('base64');
}
