/**
 * Header Media: an item's file checked against the template's header when the item is prepared
 * (headerMedia.ts), before anything is uploaded or sent.
 */
import type { IDataObject } from 'n8n-workflow';

import { PeachInputError } from '../../helpers/inputError';
import { MEDIA_TYPES, withArticle } from '../../helpers/media';
import { headerMediaKind } from '../../helpers/templateVariables';
import type { BinaryFile } from '../item/itemParameters';

/** The content types of a kind, for messages. */
function typesOf(kind: string): string {
	return Object.entries(MEDIA_TYPES)
		.filter(([, type]) => type.kind === kind)
		.map(([contentType]) => contentType)
		.join(', ');
}

/** Refuses a header file the template cannot carry: it has no media header, or one of another kind. */
export function refuseOtherHeader(
	file: BinaryFile,
	template: IDataObject,
	templateId: string,
): void {
	const kind = headerMediaKind(template);
	const name = typeof template.name === 'string' ? `"${template.name}"` : templateId;
	if (!kind) {
		throw new PeachInputError(
			'Header Media',
			file.fileName,
			`cannot be sent: template ${name} has no image, video or document header`,
			'Pick a template with a media header, or set Header Media to None (or From the Variables).',
		);
	}
	if (file.kind !== kind) {
		throw new PeachInputError(
			`Header Media file "${file.fileName}"`,
			file.contentType,
			`is ${withArticle(file.kind)}, but template ${name} has ${withArticle(kind)} header`,
			`Pass ${withArticle(kind)} file (${typesOf(kind)}), or pick a template with ${withArticle(file.kind)} header.`,
		);
	}
}
