import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { locator } from '../../descriptions/locator';
import { isSet, requireText } from '../../helpers/fields';
import { PeachInputError } from '../../helpers/inputError';
import { outputOf } from '../../helpers/payload';
import { apiPath, segment } from '../../transport/path';
import { peachApiRequest } from '../../transport/request';
import type { ItemResult, OperationOption } from '../operation/node.type';
import { automationAttributes, automationFieldOptions, automationIdOf } from './shared';
import { recordIn } from '../item/itemParameters';

export const option: OperationOption = {
	name: 'Update',
	value: 'update',
	action: 'Update an automation',
	description:
		"Change an automation's name, description, status (publishing makes Peach check the definition), execution mode, number, backend URL or definition",
};

const nameField: INodeProperties = {
	displayName: 'Name',
	name: 'name',
	type: 'string',
	default: '',
	placeholder: 'e.g. Order follow-up',
};

export const properties: INodeProperties[] = [
	locator('automation', { required: true }),
	{
		displayName: 'Update Fields',
		name: 'updateFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		options: [...automationFieldOptions, nameField].sort((a, b) =>
			a.displayName.localeCompare(b.displayName),
		),
	},
];

/** The PATCH body: only what the user changed; an update that would change nothing is refused. Pure. */
export function buildUpdateAutomationBody(fields: IDataObject): IDataObject {
	const body: IDataObject = {};
	if (isSet(fields.name))
		body.name = requireText('Name', fields.name, 'Give the automation a name.');
	Object.assign(body, automationAttributes(fields));
	if (Object.keys(body).length === 0) {
		throw new PeachInputError(
			'Update Automation',
			'(no changes)',
			'would change nothing',
			'Add an Update Field, e.g. Status = Published or a new Definition.',
		);
	}
	return body;
}

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<ItemResult> {
	const id = automationIdOf(this, itemIndex);
	const body = buildUpdateAutomationBody(
		this.getNodeParameter('updateFields', itemIndex, {}) as IDataObject,
	);
	return outputOf(
		await peachApiRequest.call(this, {
			method: 'PATCH',
			path: apiPath`/streams/${segment('Automation', id)}`,
			body,
			itemIndex,
			notFound: { label: 'Automation', id },
		}),
	);
}

/** Changes to one record go one after another, in input order. */
export const recordOf = recordIn('automationId');
