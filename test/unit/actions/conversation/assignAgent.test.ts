import { describe, expect, it } from 'vitest';

import { run } from './run';

describe('Conversation', () => {
	it('Assign Agent: the documented schema by default, the documented example as an option', async () => {
		const base = {
			resource: 'conversation',
			operation: 'assignAgent',
			phoneNumber: '+919988776655',
			contactName: 'Asha',
			agentEmail: 'agent@example.com',
			openChat: true,
			bodyFormat: 'schema',
		};
		const schema = await run(base);
		expect(schema.requests[0].body).toEqual({
			event_type: 'assign_agent',
			contact: { name: 'Asha', phone_number: '+919988776655' },
			assign_agent: { agent_email: 'agent@example.com', open_chat_on_assignment: true },
		});
		const example = await run({ ...base, bodyFormat: 'example', openChat: false });
		expect(example.requests[0].body).toEqual({
			event_type: 'assign_agent',
			contact: { name: 'Asha', phone_number: '+919988776655' },
			agent: { email: 'agent@example.com' },
			open_chat_on_assignment: false,
		});
		const bad = await run({ ...base, agentEmail: 'nope' });
		expect((bad.output as Error).message).toBe('Agent Email "nope" is not an email address');
	});
});
