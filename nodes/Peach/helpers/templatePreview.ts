import type { IDataObject } from 'n8n-workflow';

import { isPlainObject } from './json';
import { componentsOf, fillPlaceholders } from './templateVariables';

/** One button of a template as the contact sees it: its text, and where it leads. */
export interface PreviewButton {
	type: string;
	text: string;
	url?: string;
	phoneNumber?: string;
}

/** What a contact's phone shows for a template message, each part filled with its values. */
export interface TemplatePreview {
	header?: { text: string } | { media: string; file: string };
	body: string;
	footer?: string;
	/** Only when the template has buttons (an empty list reads as a problem in n8n's output). */
	buttons?: PreviewButton[];
	/** All of it as plain text, in the order the phone shows it. */
	text: string;
}

/** The name a media header shows: the document's filename, else the URL's last part. */
function fileNameOf(headerMedia: unknown): string {
	if (isPlainObject(headerMedia)) {
		if (typeof headerMedia.filename === 'string' && headerMedia.filename)
			return headerMedia.filename;
		return fileNameOf(headerMedia.link);
	}
	if (typeof headerMedia !== 'string' || headerMedia === '') return '(no file)';
	const path = headerMedia.split(/[?#]/)[0];
	return path.slice(path.lastIndexOf('/') + 1) || headerMedia;
}

/**
 * A header component as the phone shows it (a media header as its kind and the file that fills it,
 * else its text filled with the values), and its line of the text.
 */
function previewHeader(
	component: IDataObject,
	filled: string,
	values: IDataObject | undefined,
): { header: NonNullable<TemplatePreview['header']>; line: string } {
	const kind = String(component.data_type ?? 'text');
	if (['image', 'video', 'document'].includes(kind)) {
		const file = fileNameOf(values?.header_media);
		return { header: { media: kind, file }, line: `[${kind}: ${file}]` };
	}
	return { header: { text: filled }, line: filled };
}

/**
 * A button component as the contact sees it (its text, and for a URL or phone button where it leads,
 * filled with the values), and its line of the text: `[Pay → https://…]`.
 */
function previewButton(
	component: IDataObject,
	filled: string,
): { button: PreviewButton; line: string } {
	const type = String(component.sub_type ?? 'quick_reply');
	const text = typeof component.name === 'string' ? component.name : '';
	const button: PreviewButton = { type, text };
	if (type === 'url') button.url = filled;
	if (type === 'phone_number') button.phoneNumber = filled;
	const line = `[${text}${button.url ? ` → ${button.url}` : ''}${button.phoneNumber ? ` → ${button.phoneNumber}` : ''}]`;
	return { button, line };
}

/**
 * A template message as the contact's phone would show it, from the template's components (header,
 * body, footer, buttons, in their order) and the values that fill its variables (`header_media` is
 * the media header's file). Pure.
 */
export function renderTemplate(
	template: unknown,
	values: IDataObject | undefined,
): TemplatePreview {
	const preview: TemplatePreview = { body: '', text: '' };
	const buttons: PreviewButton[] = [];
	const lines: string[] = [];
	for (const component of componentsOf(template)) {
		const value = typeof component.value === 'string' ? component.value : '';
		const filled = fillPlaceholders(value, values);
		switch (component.component_type) {
			case 'header': {
				const { header, line } = previewHeader(component, filled, values);
				preview.header = header;
				lines.push(line);
				break;
			}
			case 'body':
				preview.body = filled;
				lines.push(filled);
				break;
			case 'footer':
				preview.footer = filled;
				lines.push(filled);
				break;
			case 'buttons': {
				const { button, line } = previewButton(component, filled);
				buttons.push(button);
				lines.push(line);
				break;
			}
		}
	}
	if (buttons.length) preview.buttons = buttons;
	preview.text = lines.join('\n');
	return preview;
}

/** The preview of a template read by `templateId`: its name (else that ID), then what the phone shows. Pure. */
export function previewTemplate(
	template: IDataObject,
	templateId: string,
	values: IDataObject | undefined,
): IDataObject {
	return {
		template: typeof template.name === 'string' ? template.name : templateId,
		...renderTemplate(template, values),
	};
}
