import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { uploadMedia } from '../../api/media';
import { templateOf } from '../../api/templates';
import { requireText } from '../../helpers/fields';
import { isPlainObject } from '../../helpers/json';
import { PeachInputError } from '../../helpers/inputError';
import { md5Base64 } from '../../helpers/media';
import { perExecution } from '../../helpers/perExecution';
import { concurrently } from '../../transport/width';
import { refuseOtherHeader } from './headerMediaCheck';
import type { BinaryFile } from '../item/itemParameters';
import { binaryFileOfItem, bytesOfFile, parameterOfItem } from '../item/itemParameters';

/**
 * Header Media from a binary field, for every operation that sends a template: the file is checked
 * against the template's header kind when the item is prepared (before anything is uploaded or
 * sent), uploaded once per distinct file after every item was prepared (Peach's direct upload), and
 * its media:// reference goes into `liquid_values.header_media`.
 */

/** A header file of one item: the file, and once uploaded its media:// URL and header value. */
export interface HeaderMedia {
	file: BinaryFile;
	mediaUrl?: string;
	/** What `liquid_values.header_media` carries: the media:// URL, or `{link, filename}` for a document. */
	value?: string | IDataObject;
}

/** Template variables with the uploaded header file as `header_media` (as they are without one). Pure. */
export function withHeaderMedia(
	liquidValues: unknown,
	media: HeaderMedia | undefined,
): IDataObject | undefined {
	const values = isPlainObject(liquidValues) ? liquidValues : undefined;
	if (media?.value === undefined) return values;
	return { ...values, header_media: media.value };
}

/**
 * A header file as it names a delivery between tries: its file name, type and kind (not the input
 * item it came from, nor the URL of its upload, which differ from try to try).
 */
export function sameHeaderFile(media: HeaderMedia | undefined): IDataObject | undefined {
	if (!media) return undefined;
	const { fileName, contentType, kind } = media.file;
	return { fileName, contentType, kind };
}

/**
 * Dry Run: a header file that is not uploaded, holding the place its upload would fill in the request
 * (`(the upload of invoice.pdf)`; a document as `{link, filename}`, as after an upload).
 */
export function notYetUploaded(media: HeaderMedia): HeaderMedia {
	const placeholder = `(the upload of ${media.file.fileName})`;
	return {
		...media,
		value:
			media.file.kind === 'document'
				? { link: placeholder, filename: media.file.fileName }
				: placeholder,
	};
}

/**
 * The item's header file when Header Media is a binary choice (undefined for None), checked against
 * the template's header (headerMediaCheck.ts): a template without a media header, or a file of
 * another kind, is refused here, before any request that uploads or sends. The template is read
 * once per execution. `given` are the variables the user gave: a header_media among them is refused
 * too.
 */
export async function headerMediaOfItem(
	context: IExecuteFunctions,
	itemIndex: number,
	templateId: string,
	given: IDataObject | undefined,
	fileItemIndex = itemIndex,
): Promise<HeaderMedia | undefined> {
	const mode = parameterOfItem(context, 'headerMedia', itemIndex, 'variables') as string;
	if (mode === 'variables') return undefined;
	if (given && Object.prototype.hasOwnProperty.call(given, 'header_media')) {
		throw new PeachInputError(
			'Variables',
			'header_media',
			'is given while Header Media is a binary field',
			'Remove the header_media variable, or set Header Media to None (or From the Variables).',
		);
	}
	const property = requireText(
		'Input Binary Field',
		parameterOfItem(context, 'headerMediaBinaryField', itemIndex, 'data'),
		'Name the binary field that holds the header file, e.g. data.',
	);
	const file = binaryFileOfItem(
		context,
		fileItemIndex,
		property,
		parameterOfItem(context, 'headerMediaFileName', itemIndex, ''),
	);
	refuseOtherHeader(file, await templateOf(context, templateId, itemIndex), templateId);
	return { file };
}

/** One upload per execution and distinct file (same bytes, same type), whatever the items. */
const uploadsOf = perExecution((): Map<string, Promise<string>> => new Map());

/** The error of an item whose header file could not be uploaded: nothing was sent for it. */
function uploadError(
	context: IExecuteFunctions,
	cause: unknown,
	media: HeaderMedia,
	itemIndex: number,
): Error {
	if (cause instanceof PeachInputError) return cause;
	const message = cause instanceof Error ? cause.message : String(cause);
	const description =
		cause instanceof NodeApiError || cause instanceof NodeOperationError
			? cause.description
			: undefined;
	return new NodeOperationError(
		context.getNode(),
		`The header file "${media.file.fileName}" could not be uploaded: ${message}`,
		{
			description: [description, 'This item was not sent.'].filter(Boolean).join(' '),
			itemIndex,
		},
	);
}

type HeaderMediaEntry = { itemIndex: number; media: HeaderMedia };

/**
 * The items grouped by their file (its fileKey), each file read once to recognise it; an item whose
 * file could not be read gets its error in `failures`.
 */
async function itemsByFile(
	context: IExecuteFunctions,
	entries: HeaderMediaEntry[],
	failures: Map<number, Error>,
): Promise<Map<string, HeaderMediaEntry[]>> {
	const byFile = new Map<string, HeaderMediaEntry[]>();
	for (const entry of entries) {
		try {
			const key = fileKey(entry.media, await bytesOfFile(context, entry.media.file));
			byFile.set(key, [...(byFile.get(key) ?? []), entry]);
		} catch (error) {
			failures.set(entry.itemIndex, uploadError(context, error, entry.media, entry.itemIndex));
		}
	}
	return byFile;
}

/**
 * One file's upload: read again right before it, refused if it is no longer the file recognised by
 * `key`; its media URL.
 */
async function uploadFile(
	context: IExecuteFunctions,
	first: HeaderMediaEntry,
	key: string,
): Promise<string> {
	const bytes = await bytesOfFile(context, first.media.file);
	if (fileKey(first.media, bytes) !== key) {
		throw new Error('the file changed after it was checked');
	}
	const media = await uploadMedia(
		context,
		{
			fileName: first.media.file.fileName,
			contentType: first.media.file.contentType,
			bytes,
		},
		first.itemIndex,
	);
	if (typeof media.media_url !== 'string' || media.media_url === '') {
		throw new Error('Peach finalized the upload without a media_url');
	}
	return media.media_url;
}

/**
 * Uploads the header files of the prepared items, once per distinct file (recognised by its MD5 and
 * type), as many at a time as the execution's width allows, and fills each item's media URL and
 * header value. A file is read twice: to recognise it, then right before its upload; in between only
 * its checksum is kept, so at most the files being uploaded are held in memory. An item whose file
 * could not be read or uploaded gets its error (and must not be sent).
 */
export async function uploadHeaderMedia(
	context: IExecuteFunctions,
	entries: HeaderMediaEntry[],
): Promise<Map<number, Error>> {
	const failures = new Map<number, Error>();
	const known = uploadsOf(context);
	const byFile = await itemsByFile(context, entries, failures);
	await concurrently(
		context,
		[...byFile.entries()],
		() => undefined,
		async ([key, users]) => {
			const [first] = users;
			let upload = known.get(key);
			if (!upload) {
				upload = uploadFile(context, first, key);
				known.set(key, upload);
			}
			try {
				const mediaUrl = await upload;
				for (const { media } of users) {
					media.mediaUrl = mediaUrl;
					media.value =
						media.file.kind === 'document'
							? { link: mediaUrl, filename: media.file.fileName }
							: mediaUrl;
				}
			} catch (error) {
				for (const { itemIndex, media } of users)
					failures.set(itemIndex, uploadError(context, error, media, itemIndex));
			}
		},
	);
	return failures;
}

/** What recognises one file: its type and the MD5 of its bytes. */
function fileKey(media: HeaderMedia, bytes: Buffer): string {
	return `${media.file.contentType}:${md5Base64(bytes)}`;
}
