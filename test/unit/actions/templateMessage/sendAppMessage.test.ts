import { describe, expect, it } from 'vitest';

import { APP_MESSAGE } from '../../../../nodes/Peach/actions/templateMessage/sendAppMessage.operation';
import { locator } from '../../support/harness';
import { run } from './run';

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
