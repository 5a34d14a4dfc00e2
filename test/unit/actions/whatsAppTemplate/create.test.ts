import { NodeOperationError } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { create, created, run } from './run';

describe('WhatsApp Template → Create', () => {
	it('posts the wrapped template with components in order, WABA ID as a number', async () => {
		const { requests, output } = await run(create, [created]);
		expect([requests[0].options.method, requests[0].url]).toEqual([
			'POST',
			'https://peach.test/api/v1/whats_app_templates',
		]);
		expect(requests[0].body).toEqual({
			whats_app_template: {
				template_name: 'order_ready',
				language: 'en_US',
				category: 'UTILITY',
				components_attributes: [
					{
						component_type: 'header',
						data_type: 'text',
						value: "Order {{order_id | example: 'A-7'}}",
						index: 0,
					},
					{
						component_type: 'body',
						data_type: 'text',
						value: "Hi {{first_name | example: 'Ana'}}, your order is ready.",
						index: 1,
					},
					{ component_type: 'footer', data_type: 'text', value: 'Peach Store', index: 2 },
					{
						component_type: 'buttons',
						data_type: 'text',
						sub_type: 'quick_reply',
						name: 'Thanks',
						value: 'Thanks',
						index: 3,
					},
					{
						component_type: 'buttons',
						data_type: 'text',
						sub_type: 'url',
						name: 'Track',
						value: 'https://example.com/t',
						index: 4,
					},
					{
						component_type: 'buttons',
						data_type: 'text',
						sub_type: 'phone_number',
						name: 'Call us',
						value: '+14155550123',
						index: 5,
					},
				],
				purpose: 'general',
				folder: 'orders',
				whats_app_business_account_id: 456,
			},
		});
		expect((output as Array<Array<{ json: unknown }>>)[0][0].json).toEqual(created.body);
	});

	it('names every problem Meta or Peach would refuse, before any request', async () => {
		const { requests, output } = await run({
			...create,
			templateName: 'Order Ready!',
			language: 'english',
			headerValue: 'Order {{a}} {{b}}',
			bodyText: 'Hi {{first_name}}',
			footerText: 'x'.repeat(61),
			buttons: {
				button: [
					{ type: 'url', text: 'A', value: 'ftp://x' },
					{ type: 'url', text: 'B', value: 'https://b' },
					{ type: 'url', text: 'C', value: 'https://c' },
					{ type: 'quick_reply', text: 'A label that is far too long' },
				],
			},
		});
		expect(requests).toHaveLength(0);
		const error = output as NodeOperationError;
		expect(error).toBeInstanceOf(NodeOperationError);
		expect(error.message).toBe('Template "Order Ready!" cannot be created: 11 problems');
		for (const problem of [
			'Name "Order Ready!" may only have lowercase letters, digits and underscores (e.g. order_ready)',
			'Language "english" is not a language code such as en, en_US or pt_BR',
			'Body variable "first_name" has no example',
			'Body ends with the variable {{first_name}}; Meta rejects a body that ends with a variable: put words after it',
			'Header variable "a" has no example',
			'Header text has more than one variable',
			'Footer has 61 characters; at most 60',
			'3 URL buttons; at most 2',
			'Button 1 URL "ftp://x" is not an http(s) URL',
			'Button 4 text "A label that is far too long" is longer than 25 characters',
		]) {
			expect(error.description).toContain(problem);
		}
	});

	it('takes components as JSON, WABA ID as text when it is not digits; a body is required', async () => {
		const json = await run(
			{
				...create,
				componentsInput: 'json',
				componentsJson: '[{"component_type": "body", "data_type": "text", "value": "Hello"}]',
				additionalFields: { wabaId: 'waba-ext-1' },
			},
			[created],
		);
		expect(json.requests[0].body).toEqual({
			whats_app_template: {
				template_name: 'order_ready',
				language: 'en_US',
				category: 'UTILITY',
				components_attributes: [{ component_type: 'body', data_type: 'text', value: 'Hello' }],
				whats_app_business_account_id: 'waba-ext-1',
			},
		});
		const noBody = await run({ ...create, componentsInput: 'json', componentsJson: '[]' });
		expect((noBody.output as Error).message).toBe(
			'Template "order_ready" cannot be created: 1 problem',
		);
		const broken = await run({ ...create, componentsInput: 'json', componentsJson: '[{' });
		expect((broken.output as Error).message).toContain('Components (JSON) "[{" is not valid JSON');
	});
});
