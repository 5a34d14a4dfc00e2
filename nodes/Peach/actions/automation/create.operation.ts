import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { requireText } from '../../helpers/fields';
import { outputOf } from '../../helpers/payload';
import { peachApiRequest } from '../../transport/request';
import type { ItemResult, OperationOption } from '../operation/node.type';
import { automationAttributes, automationFieldOptions } from './shared';
import { apiPath } from '../../transport/path';

export const option: OperationOption = {
	name: 'Create',
	value: 'create',
	action: 'Create an automation',
	description:
		'Create a Peach automation (stream) from a name and, optionally, a step definition or a backend URL',
};

export const properties: INodeProperties[] = [
	{
		displayName: 'Name',
		name: 'name',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. Order follow-up',
		description: 'The name of the automation',
	},
	{
		displayName: 'Additional Fields',
		name: 'additionalFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		options: automationFieldOptions,
	},
];

/** The body of `POST /api/v1/streams`: the name plus only the fields the user added. Pure. */
export function buildCreateAutomationBody(
	name: unknown,
	additionalFields: IDataObject,
): IDataObject {
	return {
		name: requireText('Name', name, 'Give the automation a name, e.g. Order follow-up.'),
		...automationAttributes(additionalFields),
	};
}

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<ItemResult> {
	const body = buildCreateAutomationBody(
		this.getNodeParameter('name', itemIndex),
		this.getNodeParameter('additionalFields', itemIndex, {}) as IDataObject,
	);
	const response = await peachApiRequest.call(this, {
		method: 'POST',
		path: apiPath`/streams`,
		body,
		itemIndex,
	});
	return outputOf(response);
}
