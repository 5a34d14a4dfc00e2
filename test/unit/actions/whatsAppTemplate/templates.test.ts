import { NodeOperationError } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { Peach } from '../../../../nodes/Peach/Peach.node';
import { createExecuteContext, type FakeResponse, locator } from '../../support/harness';

async function run(params: Record<string, unknown>, responses: FakeResponse[] = [], extra = {}) {
	const harness = createExecuteContext({ params, responses, templates: 'responses', ...extra });
	const output = await new Peach().execute.call(harness.context).catch((e: unknown) => e);
	return { ...harness, output };
}

const created = {
	statusCode: 201,
	body: { id: 'wat_9', template_name: 'order_ready', status: 'draft' },
};
const create = {
	resource: 'whatsAppTemplate',
	operation: 'create',
	templateName: 'order_ready',
	language: 'en_US',
	category: 'UTILITY',
	componentsInput: 'fields',
	headerType: 'text',
	headerValue: "Order {{order_id | example: 'A-7'}}",
	bodyText: "Hi {{first_name | example: 'Ana'}}, your order is ready.",
	footerText: 'Peach Store',
	buttons: {
		button: [
			{ type: 'quick_reply', text: 'Thanks' },
			{ type: 'url', text: 'Track', value: 'https://example.com/t' },
			{ type: 'phone_number', text: 'Call us', value: '+14155550123' },
		],
	},
	additionalFields: { purpose: 'general', wabaId: '456', folder: 'orders' },
};

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

describe("WhatsApp Template → Create: Meta's rules for a body's variables", () => {
	const withBody = (bodyText: string) => ({ ...create, bodyText, buttons: {}, headerType: 'none' });

	it('refuses a body that starts or ends with a variable (punctuation is not words) or has two side by side, naming each rule', async () => {
		for (const [bodyText, problem] of [
			[
				"{{name | example: 'Ana'}}, your order is ready for pickup today.",
				'Body starts with the variable {{name}}; Meta rejects a body that starts with a variable: put words before it (e.g. "Hello {{name}}")',
			],
			[
				"Your order is ready for pickup, {{name | example: 'Ana'}}!",
				'Body ends with the variable {{name}}; Meta rejects a body that ends with a variable: put words after it (e.g. "{{name}} Thank you.")',
			],
			[
				"Hello {{first | example: 'Ana'}} {{last | example: 'Rao'}}, your order is ready for pickup.",
				'Body has {{first}} and {{last}} side by side; Meta rejects variables with nothing between them: put words between them',
			],
		]) {
			const { requests, output } = await run(withBody(bodyText), [created]);
			expect(requests).toHaveLength(0);
			expect((output as NodeOperationError).message).toBe(
				'Template "order_ready" cannot be created: 1 problem',
			);
			expect((output as NodeOperationError).description).toBe(`${problem}.`);
		}
	});

	it('creates a body with few words for its variables, with a hint (providers observe 2n + 1 words; Meta publishes no number)', async () => {
		const { requests, hints } = await run(
			withBody("Dear {{name | example: 'Ana'}}, order {{id | example: 'A-7'}} shipped today."),
			[created],
		);
		expect(requests).toHaveLength(1);
		expect(hints).toEqual([
			{
				message:
					'Template "order_ready": The body has 2 variables and 4 other words. Meta\'s review often rejects a template with too many variables for its length (providers observe at least 5 words for 2): add words, or use fewer variables.',
				location: 'outputPane',
			},
		]);
		const enough = await run(
			withBody("Dear {{name | example: 'Ana'}}, your order {{id | example: 'A-7'}} shipped today."),
			[created],
		);
		expect(enough.hints).toEqual([]);
	});

	it('one hint per run of the node, however many items have it', async () => {
		const { requests, hints } = await run(
			withBody("Dear {{name | example: 'Ana'}}, order {{id | example: 'A-7'}} shipped today."),
			[created, created, created],
			{ items: 3 },
		);
		expect(requests).toHaveLength(3);
		expect(hints).toHaveLength(1);
	});

	for (const [placement, bodyText] of [
		[
			'variable',
			"Approval needed: {{message | example: 'Approve the refund of ₹1,200 for order A-7?'}} Please answer here: {{approval_link | example: 'https://n8n.test/webhook-waiting/1234/node-id?peachWait=k3J9xQ&signature=0123abcd'}} Thank you.",
		],
		[
			'urlButton',
			"Approval needed: {{message | example: 'Approve the refund of ₹1,200 for order A-7?'}} Tap the button below to answer.",
		],
	] as const) {
		it(`Approval Request (${placement}): a body with words before, between and after its variables, and enough of them; created without a hint`, async () => {
			const { requests, hints } = await run(
				{ ...create, componentsInput: 'approval', approvalLinkPlacement: placement },
				[created],
			);
			const template = (
				requests[0].body as {
					whats_app_template: { components_attributes: Array<Record<string, unknown>> };
				}
			).whats_app_template;
			expect(template.components_attributes[0]).toEqual({
				component_type: 'body',
				data_type: 'text',
				value: bodyText,
				index: 0,
			});
			expect(hints).toEqual([]);
			if (placement === 'urlButton') {
				expect(template.components_attributes[1]).toEqual({
					component_type: 'buttons',
					data_type: 'text',
					sub_type: 'url',
					name: 'Answer',
					value:
						"https://n8n.test/webhook-waiting/{{approval_link | example: '1234/node-id?peachWait=k3J9xQ&signature=0123abcd'}}",
					index: 1,
				});
			}
		});
	}
});

describe('WhatsApp Template → Update', () => {
	const update = {
		resource: 'whatsAppTemplate',
		operation: 'update',
		templateId: locator('wat_9'),
		components: {
			component: [
				{ id: 'wat_9_c1', change: 'update', value: "Hi {{first_name | example: 'Ana'}}!" },
				{ id: 'wat_9_c2', change: 'remove' },
			],
		},
		updateFields: { category: 'MARKETING', folder: 'promo' },
	};

	it('patches the changed fields and components (_destroy to remove)', async () => {
		const { requests } = await run(update, [{ statusCode: 200, body: {} }]);
		expect([requests[0].options.method, requests[0].url]).toEqual([
			'PATCH',
			'https://peach.test/api/v1/whats_app_templates/wat_9',
		]);
		expect(requests[0].body).toEqual({
			whats_app_template: {
				category: 'MARKETING',
				folder: 'promo',
				components_attributes: [
					{ id: 'wat_9_c1', value: "Hi {{first_name | example: 'Ana'}}!" },
					{ id: 'wat_9_c2', _destroy: true },
				],
			},
		});
	});

	it("points out, as a hint, a changed text that would break Meta's body rules if it is the body; a URL is not looked at; the change is sent", async () => {
		const { requests, hints } = await run(
			{
				...update,
				components: {
					component: [
						{
							id: 'c1',
							change: 'update',
							value: "{{name | example: 'Ana'}}, your order is ready for pickup.",
						},
						{
							id: 'c2',
							change: 'update',
							value: "https://example.com/track/{{id | example: 'A-7'}}",
						},
					],
				},
			},
			[{ statusCode: 200, body: {} }],
		);
		expect(requests).toHaveLength(1);
		expect(hints.map((hint) => hint.message)).toEqual([
			'Template wat_9, Components row 1 → Value: if this is the body: Body starts with the variable {{name}}; Meta rejects a body that starts with a variable: put words before it (e.g. "Hello {{name}}").',
		]);
	});

	it('refuses an update that changes nothing and a value whose variable has no example', async () => {
		const nothing = await run({ ...update, components: {}, updateFields: {} });
		expect((nothing.output as Error).message).toBe(
			'Update Template "(no changes)" would change nothing',
		);
		const noExample = await run({
			...update,
			components: { component: [{ id: 'c', change: 'update', value: '{{x}}' }] },
		});
		expect((noExample.output as Error).message).toBe(
			'Components row 1 → Value "{{x}}" has variables without an example (x)',
		);
		expect(noExample.requests).toHaveLength(0);
	});
});

describe('WhatsApp Template → Get Many, Get, Archive, Pause, Submit', () => {
	const templates = [
		{ id: 'wat_1', template_name: 'a', status: 'approved', category: 'UTILITY', language: 'en' },
		{ id: 'wat_2', template_name: 'b', status: 'pending', category: 'UTILITY', language: 'en' },
		{
			id: 'wat_3',
			template_name: 'c',
			status: 'APPROVED',
			category: 'MARKETING',
			language: 'en_US',
		},
		{ id: 'wat_4', template_name: 'd', status: 'approved', category: 'UTILITY', language: 'en' },
	];

	it('Get Many filters on the node (Peach has no filter) and Limit counts what matches', async () => {
		const { output, requests } = await run(
			{
				resource: 'whatsAppTemplate',
				operation: 'getMany',
				returnAll: false,
				limit: 2,
				filters: { status: 'approved' },
			},
			[{ statusCode: 200, body: templates }],
		);
		expect(requests[0].url).toBe('https://peach.test/api/v1/whats_app_templates/');
		expect(
			(output as Array<Array<{ json: { id: string } }>>)[0].map((item) => item.json.id),
		).toEqual(['wat_1', 'wat_3']);
		const utility = await run(
			{
				resource: 'whatsAppTemplate',
				operation: 'getMany',
				returnAll: true,
				filters: { category: 'UTILITY', language: 'EN' },
			},
			[
				{ statusCode: 200, body: templates },
				{ statusCode: 200, body: [] },
			],
		);
		expect(
			(utility.output as Array<Array<{ json: { id: string } }>>)[0].map((item) => item.json.id),
		).toEqual(['wat_1', 'wat_2', 'wat_4']);
	});

	it('Get takes an ID or a template name', async () => {
		const { requests } = await run(
			{ resource: 'whatsAppTemplate', operation: 'get', templateId: locator('order_ready', 'id') },
			[{ statusCode: 200, body: templates[0] }],
		);
		expect(requests[0].url).toBe('https://peach.test/api/v1/whats_app_templates/order_ready');
	});

	it.each(['archive', 'pause', 'submit'])(
		'%s: PATCH /whats_app_templates/{id}/<action> with {}',
		async (action) => {
			const { requests } = await run(
				{ resource: 'whatsAppTemplate', operation: action, templateId: locator('wat_1') },
				[{ statusCode: 200, body: { id: 'wat_1' } }],
			);
			expect([requests[0].options.method, requests[0].url, requests[0].body]).toEqual([
				'PATCH',
				`https://peach.test/api/v1/whats_app_templates/wat_1/${action}`,
				{},
			]);
		},
	);
});

describe('WhatsApp Template → Delete', () => {
	it('DELETE /whats_app_templates/{id}; an empty answer is {deleted: true, id}, an answer with fields keeps them', async () => {
		const empty = await run(
			{ resource: 'whatsAppTemplate', operation: 'delete', templateId: locator('wat_9', 'id') },
			[{ statusCode: 204, body: '' }],
		);
		expect([empty.requests[0].options.method, empty.requests[0].url]).toEqual([
			'DELETE',
			'https://peach.test/api/v1/whats_app_templates/wat_9',
		]);
		expect(empty.requests[0].body).toBeUndefined();
		expect((empty.output as Array<Array<{ json: unknown }>>)[0][0].json).toEqual({
			deleted: true,
			id: 'wat_9',
		});
		const answered = await run(
			{ resource: 'whatsAppTemplate', operation: 'delete', templateId: locator('wat_9') },
			[{ statusCode: 200, body: { id: 'wat_9', status: 'deleted' } }],
		);
		expect((answered.output as Array<Array<{ json: unknown }>>)[0][0].json).toEqual({
			deleted: true,
			id: 'wat_9',
			status: 'deleted',
		});
	});

	it('a template Peach does not know is a 404 naming it, and the next item is not reached', async () => {
		const { output, requests } = await run(
			{ resource: 'whatsAppTemplate', operation: 'delete', templateId: locator('wat_gone', 'id') },
			[{ statusCode: 404, body: { message: 'Not found' } }],
		);
		expect((output as Error).message).toContain('wat_gone');
		expect(requests).toHaveLength(1);
	});
});
