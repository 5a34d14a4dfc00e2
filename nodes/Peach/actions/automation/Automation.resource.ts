import type { INodeProperties } from 'n8n-workflow';

import type { PeachOperation } from '../router';
import * as create from './create.operation';

export const operations: Record<string, PeachOperation> = { create };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['automation'] } },
		options: [
			{
				name: 'Create',
				value: 'create',
				action: 'Create an automation',
				description:
					'Create a Peach automation (stream) from a name and, optionally, a step definition or a backend URL',
			},
		],
		default: 'create',
	},
	...create.description,
];
