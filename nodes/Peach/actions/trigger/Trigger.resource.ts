import type { INodeProperties } from 'n8n-workflow';

import type { PeachOperation } from '../router';
import * as update from './update.operation';

export const operations: Record<string, PeachOperation> = { update };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['trigger'] } },
		options: [
			{
				name: 'Update',
				value: 'update',
				action: 'Update a trigger',
				description:
					"Change a trigger's description, variables or data mappings, or activate or pause it",
			},
		],
		default: 'update',
	},
	...update.description,
];
