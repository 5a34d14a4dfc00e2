import { describe, expect, it } from 'vitest';

import { APP_MESSAGE } from '../../../../nodes/Peach/actions/templateMessage/sendAppMessage.operation';
import { Peach } from '../../../../nodes/Peach/Peach.node';
import { createExecuteContext, locator } from '../../support/harness';

const accepted = { statusCode: 200, body: { status: 'success', event_id: 'evt_9' } };

async function run(params: Record<string, unknown>, responses = [accepted], extra = {}) {
	const harness = createExecuteContext({ params, responses, ...extra });
	const output = await new Peach().execute.call(harness.context).catch((e: unknown) => e);
	return { ...harness, output };
}

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

describe('Template Message → Send App Message', () => {
	const base = {
		resource: 'templateMessage',
		operation: 'sendAppMessage',
		phoneNumber: '+14155550123',
		appId: 'flw_1',
		useFallbackTemplate: true,
		templateId: locator('wat_welcome'),
		variablesInput: 'json',
		variablesJson: '{"order_id": "A-7"}',
		contactFields: { metadata: { values: [{ key: 'tier', value: 'gold' }] } },
	};

	it("posts send_app_message with the app block named as in Peach's code", async () => {
		const { requests } = await run(base);
		expect(APP_MESSAGE.block).toBe('flow');
		expect(requests[0].body).toEqual({
			event_type: 'send_app_message',
			contact: { phone_number: '+14155550123', metadata: { tier: 'gold' } },
			flow: {
				id: 'flw_1',
				liquid_values: { order_id: 'A-7' },
				whats_app_template_id: 'wat_welcome',
			},
		});
	});

	it('leaves the fallback template out when it is off, and needs an app ID', async () => {
		const { requests } = await run({
			...base,
			useFallbackTemplate: false,
			variablesInput: 'fields',
			variables: {},
		});
		expect(requests[0].body).toEqual({
			event_type: 'send_app_message',
			contact: { phone_number: '+14155550123', metadata: { tier: 'gold' } },
			flow: { id: 'flw_1' },
		});
		const missing = await run({ ...base, appId: ' ' });
		expect((missing.output as Error).message).toBe('App ID " " is empty');
	});
});
