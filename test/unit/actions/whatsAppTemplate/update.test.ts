import { describe, expect, it } from 'vitest';

import { locator } from '../../support/harness';
import { run } from './run';

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

	it("hints at a changed text that would break Meta's body rules if it is the body; the change is sent", async () => {
		// A URL is not looked at.
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
