import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { isPlainObject } from '../../helpers/json';
import { apiPath, segment } from '../../transport/path';
import { peachApiRequest } from '../../transport/request';
import type { ItemResult, OperationOption } from '../operation/node.type';
import { templateIdOf, templateLocator } from './shared';
import { recordIn } from '../item/itemParameters';

export const option: OperationOption = {
	name: 'Delete',
	value: 'delete',
	action: 'Delete a template',
	description:
		'Delete a template from Peach for good. To stop using it but keep it, archive or pause it instead.',
};

export const properties: INodeProperties[] = [templateLocator];

/**
 * `DELETE /api/v1/whats_app_templates/{id}`, from Peach's own API skill (`http-api.md`); its answer
 * is not documented, so any answer (or none) is a success, n8n's `{deleted: true}` with Peach's
 * fields when it gives some.
 */
export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<ItemResult> {
	const id = templateIdOf(this, itemIndex);
	const response = await peachApiRequest.call(this, {
		method: 'DELETE',
		path: apiPath`/whats_app_templates/${segment('Template', id)}`,
		itemIndex,
		notFound: { label: 'Template', id },
	});
	return isPlainObject(response) && Object.keys(response).length > 0
		? { deleted: true, ...response }
		: { deleted: true, id };
}

/** Changes to one record go one after another, in input order. */
export const recordOf = recordIn('templateId');
