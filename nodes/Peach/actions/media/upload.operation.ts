import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { uploadMedia } from '../../api/media';
import { requireText } from '../../helpers/fields';
import { binaryFileOfItem, bytesOfFile } from '../item/itemParameters';
import type { ItemResult, OperationOption } from '../operation/node.type';

export const option: OperationOption = {
	name: 'Upload',
	value: 'upload',
	action: 'Upload a media file',
	description:
		"Upload a file from the input item's binary data to Peach and get its media:// URL, for a template's header media",
};

export const properties: INodeProperties[] = [
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

/**
 * The documented direct upload of the item's file, checked first (type and size), read once; the
 * finalized media, with its media:// URL.
 */
export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<ItemResult> {
	const property = requireText(
		'Input Binary Field',
		this.getNodeParameter('binaryPropertyName', itemIndex, 'data'),
		'Name the binary field that holds the file, e.g. data.',
	);
	const options = this.getNodeParameter('options', itemIndex, {}) as IDataObject;
	const file = binaryFileOfItem(this, itemIndex, property, options.fileName);
	return await uploadMedia(
		this,
		{
			fileName: file.fileName,
			contentType: file.contentType,
			bytes: await bytesOfFile(this, file),
		},
		itemIndex,
	);
}
