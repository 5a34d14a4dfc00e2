import { NodeOperationError } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { create, created, run } from './run';

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
		it(`Approval Request (${placement}): words around its variables, enough of them: created without a hint`, async () => {
			// Words before, between and after its variables.
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
