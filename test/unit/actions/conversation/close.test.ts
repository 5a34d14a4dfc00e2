import { describe, expect, it } from 'vitest';

import { run } from './run';

describe('Conversation', () => {
	it('Close: close_conversation with name and phone; the name is required', async () => {
		const { requests } = await run({
			resource: 'conversation',
			operation: 'close',
			phoneNumber: '+919988776655',
			contactName: 'Asha',
		});
		expect(requests[0].body).toEqual({
			event_type: 'close_conversation',
			contact: { name: 'Asha', phone_number: '+919988776655' },
		});
		const noName = await run({
			resource: 'conversation',
			operation: 'close',
			phoneNumber: '+919988776655',
			contactName: '',
		});
		expect((noName.output as Error).message).toBe('Contact Name is empty');
	});
});
