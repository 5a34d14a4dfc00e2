import { describe, expect, it } from 'vitest';

import { locator } from '../../support/harness';
import { accepted, run } from './run';

describe('Template Message → Connect to AI Agent', () => {
	const base = {
		resource: 'templateMessage',
		operation: 'connectToAiAgent',
		phoneNumber: '+919988776655',
		templateId: locator('wat_welcome'),
		variablesInput: 'template',
		variablesMapped: { mappingMode: 'defineBelow', value: { first_name: 'Asha' } },
		aiAgentId: 'aiflw_1',
		contactFields: { name: 'Asha' },
		additionalFields: { businessPhoneNumber: '919876543222' },
	};

	it('posts connect_to_ai_agent with the template, variables from the template and ai_agent.id; a 503 is never sent again', async () => {
		const { requests, output } = await run(base);
		expect([requests[0].options.method, requests[0].url]).toEqual([
			'POST',
			'https://peach.test/api/v1/events',
		]);
		expect(requests[0].body).toEqual({
			event_type: 'connect_to_ai_agent',
			contact: { phone_number: '+919988776655', name: 'Asha' },
			template_message: {
				whats_app_template_id: 'wat_welcome',
				liquid_values: { first_name: 'Asha' },
				business_phone_number: '919876543222',
			},
			ai_agent: { id: 'aiflw_1' },
		});
		expect(output).toEqual([
			[
				{
					json: { to: '+919988776655', outcome: 'queued', peachId: 'evt_9', ...accepted.body },
					pairedItem: { item: 0 },
				},
			],
		]);
		const failed = await run(base, [{ statusCode: 503, body: {} }, accepted] as never, {
			continueOnFail: true,
		});
		expect(failed.requests).toHaveLength(1);
	});

	it('sends liquid_values {} when the template has none (Peach requires the field), refuses a spaced agent ID', async () => {
		const none = await run({ ...base, variablesMapped: { value: null } });
		expect((none.requests[0].body as { template_message: object }).template_message).toMatchObject({
			liquid_values: {},
		});
		const bad = await run({ ...base, aiAgentId: 'aiflw 1' });
		expect((bad.output as Error).message).toBe('AI Agent ID "aiflw 1" has spaces');
		expect(bad.requests).toHaveLength(0);
	});
});
