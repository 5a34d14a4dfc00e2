import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { outputOf } from '../../helpers/payload';
import { apiPath, segment } from '../../transport/path';
import { peachApiRequest } from '../../transport/request';
import type { ItemResult, OperationOption } from '../operation/node.type';
import { templateIdOf, templateLocator } from './shared';

export const option: OperationOption = {
	name: 'Get',
	value: 'get',
	action: 'Get a template',
	description: 'Read a WhatsApp template with its components, by ID or by template name',
};

export const properties: INodeProperties[] = [templateLocator];

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<ItemResult> {
	const id = templateIdOf(this, itemIndex);
	return outputOf(
		await peachApiRequest.call(this, {
			method: 'GET',
			path: apiPath`/whats_app_templates/${segment('Template', id)}`,
			itemIndex,
			notFound: { label: 'Template', id },
		}),
	);
}
