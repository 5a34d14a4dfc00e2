import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

/**
 * No file: right for a template without a media header (most), and for one whose header_media
 * variable above gives a URL or a media:// reference. Its value stays `variables`.
 */
const NO_FILE: INodePropertyOptions = {
	name: 'None (or From the Variables)',
	value: 'variables',
	description:
		'No file to upload: the template has no media header, or its header_media variable above gives one as a URL or media:// reference',
};

/** One upload per input item's file: the choice of Send, Send and Wait and Connect to AI Agent. */
export const FROM_BINARY_FIELD: INodePropertyOptions = {
	name: 'From a Binary Field',
	value: 'binary',
	description:
		"Upload the input item's file to Peach and show it in the template's header. One upload per distinct file.",
};

/** Where the header image, video or document of a template comes from: the variables or a file. */
export function headerMediaModeField(
	choices: INodePropertyOptions[] = [FROM_BINARY_FIELD],
	displayOptions?: INodeProperties['displayOptions'],
): INodeProperties {
	return {
		displayName: 'Header Media',
		name: 'headerMedia',
		type: 'options',
		noDataExpression: true,
		options: [NO_FILE, ...choices],
		default: 'variables',
		description:
			"Where the template's header image, video or document comes from. A file's kind must match the template's header.",
		...(displayOptions ? { displayOptions } : {}),
	};
}

/** The binary field and the file name, shown for every file choice. */
export function headerMediaFileFields(): INodeProperties[] {
	const displayOptions = { show: { headerMedia: ['binary', 'binaryPerContact'] } };
	return [
		{
			displayName: 'Input Binary Field',
			name: 'headerMediaBinaryField',
			type: 'string',
			required: true,
			default: 'data',
			placeholder: 'e.g. data',
			hint: 'The name of the input binary field containing the header file',
			displayOptions,
		},
		{
			displayName: 'Header File Name',
			name: 'headerMediaFileName',
			type: 'string',
			default: '',
			placeholder: 'e.g. invoice-1001.pdf',
			description:
				"The file name a document header shows the contact; by default the binary's own file name",
			displayOptions,
		},
	];
}

/** Header Media with its file fields, for an operation that sends one template per item. */
export function headerMediaFields(): INodeProperties[] {
	return [headerMediaModeField(), ...headerMediaFileFields()];
}
