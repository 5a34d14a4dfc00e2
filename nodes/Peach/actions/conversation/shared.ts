import type { INodePropertyOptions } from 'n8n-workflow';

/** What the Conversation operations share: the statuses a conversation can have. */

export const STATUSES = ['open', 'pending', 'awaiting_customer_response', 'closed'];
export const STATUS_OPTIONS: INodePropertyOptions[] = [
	{ name: 'Awaiting Customer Response', value: 'awaiting_customer_response' },
	{ name: 'Closed', value: 'closed' },
	{ name: 'Open', value: 'open' },
	{ name: 'Pending', value: 'pending' },
];
