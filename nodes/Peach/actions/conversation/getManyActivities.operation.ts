import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { keyValueCollection } from '../../descriptions/fields';
import { PeachInputError } from '../../helpers/inputError';
import { pairsToStringMap, rowsOf } from '../../helpers/payload';
import { listFields, readList } from '../operation/list';
import type { ItemResult, OperationOption } from '../operation/node.type';
import { apiPath } from '../../transport/path';

export const option: OperationOption = {
	name: 'Get Many Activities',
	value: 'getManyActivities',
	action: 'Get many conversation activities',
	description:
		"List the activity log of Peach's conversations (assignments, status changes, messages), page by page",
};

export const properties: INodeProperties[] = [
	...listFields(),
	{
		...keyValueCollection('query', 'Query Parameters', {
			description:
				"Filters sent to Peach as they are. Peach's API reference lists this endpoint without its filters, so none is offered by name.",
			keyName: 'Name',
			keyPlaceholder: 'e.g. conversation_id',
			valuePlaceholder: 'e.g. conv_1234abcd',
		}),
	},
];

/** The node pages the list itself: these names are its own. */
const PAGING = ['page', 'per'];

/** The query of GET /activities from the rows: each name once, never the node's paging. Pure. */
export function activitiesQuery(rows: unknown): IDataObject {
	const qs = pairsToStringMap('Query Parameters', rowsOf(rows));
	for (const name of Object.keys(qs)) {
		if (PAGING.includes(name)) {
			throw new PeachInputError(
				'Query Parameters',
				name,
				'is set by the node, which reads every page itself',
				'Remove the row; use Return All or Limit to choose how many activities come back.',
			);
		}
	}
	return qs;
}

/**
 * `GET /api/v1/activities`, from Peach's own API skill (`http-api.md`) and its hosted MCP server's
 * `peach_list_activities`. The answer is not documented: the list is read from `activities` or the
 * one array of the answer, paged with `page` like Peach's other lists.
 */
export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<ItemResult> {
	return await readList(
		this,
		itemIndex,
		{
			path: apiPath`/activities`,
			qs: activitiesQuery(this.getNodeParameter('query', itemIndex, {})),
		},
		{ itemsKey: ['activities'] },
	);
}
