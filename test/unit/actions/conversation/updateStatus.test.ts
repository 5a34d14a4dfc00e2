import { describe, expect, it } from 'vitest';

import { listSearch } from '../../../../nodes/Peach/methods/listSearch';
import { createLoadOptionsContext, locator } from '../../support/harness';
import { run } from './run';

describe('Conversation', () => {
	it('Update Status: PATCH /conversations/{id} {status}; the list shows name, number and status', async () => {
		const { requests } = await run({
			resource: 'conversation',
			operation: 'updateStatus',
			conversationId: locator('conv_1'),
			status: 'awaiting_customer_response',
		});
		expect([requests[0].options.method, requests[0].url, requests[0].body]).toEqual([
			'PATCH',
			'https://peach.test/api/v1/conversations/conv_1',
			{ status: 'awaiting_customer_response' },
		]);
		const list = createLoadOptionsContext({
			responses: [
				{
					statusCode: 200,
					body: {
						conversations: [
							{ id: 'conv_1', status: 'open', contact: { name: 'Asha', phone_number: '+91' } },
						],
					},
				},
			],
		});
		expect((await listSearch.searchConversations.call(list.context)).results).toEqual([
			{ name: 'Asha +91 (open)', value: 'conv_1' },
		]);
	});
});
