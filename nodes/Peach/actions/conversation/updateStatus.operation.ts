import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { locator } from '../../descriptions/locator';
import { oneOf, requireText } from '../../helpers/fields';
import { outputOf } from '../../helpers/payload';
import { apiPath, segment } from '../../transport/path';
import { peachApiRequest } from '../../transport/request';
import { locatorValueOf, recordIn } from '../item/itemParameters';
import type { ItemResult, OperationOption } from '../operation/node.type';
import { STATUS_OPTIONS, STATUSES } from './shared';

export const option: OperationOption = {
	name: 'Update Status',
	value: 'updateStatus',
	action: 'Update the status of a conversation',
	description: 'Set a conversation open, pending, awaiting customer response or closed',
};

export const properties: INodeProperties[] = [
	locator('conversation', { required: true }),
	{
		displayName: 'Status',
		name: 'status',
		type: 'options',
		options: STATUS_OPTIONS,
		default: 'closed',
		description: 'The new status of the conversation',
	},
];

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<ItemResult> {
	const id = locatorValueOf(
		this,
		itemIndex,
		'conversationId',
		'Conversation',
		"Pick a conversation From List (it shows the contact's name and number), or enter its ID.",
	);
	const status = oneOf('Status', this.getNodeParameter('status', itemIndex), STATUSES) ?? '';
	return outputOf(
		await peachApiRequest.call(this, {
			method: 'PATCH',
			path: apiPath`/conversations/${segment('Conversation', id)}`,
			body: { status: requireText('Status', status, `Use one of: ${STATUSES.join(', ')}.`) },
			itemIndex,
			notFound: { label: 'Conversation', id },
		}),
	);
}

/** Changes to one record go one after another, in input order. */
export const recordOf = recordIn('conversationId');
