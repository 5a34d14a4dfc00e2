import type { INodeProperties } from 'n8n-workflow';

import type { PeachOperation } from '../router';
import * as send from './send.operation';

export const operations: Record<string, PeachOperation> = { send };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['templateMessage'] } },
		options: [
			{
				name: 'Send',
				value: 'send',
				action: 'Send a template message',
				description:
					'Send an approved WhatsApp template to one contact by phone number; Peach queues it and returns an event ID',
			},
		],
		default: 'send',
	},
	...send.description,
];
