import type { IDataObject } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { locator, runOverInputs } from '../../support/harness';

/**
 * No message goes out half-filled: a template variable that comes out missing or empty is refused
 * for every operation that sends a template, before the first request that sends, naming the item,
 * the variable and the expression that gave nothing.
 */

const welcome: IDataObject = {
	id: 'wat_welcome',
	name: 'welcome',
	status: 'approved',
	components: [
		{ index: 0, component_type: 'header', data_type: 'text', value: 'Order {{order_id}}' },
		{
			index: 1,
			component_type: 'body',
			data_type: 'text',
			value: "Hi {{first_name | example: 'Asha'}}, welcome!",
		},
		{
			index: 2,
			component_type: 'buttons',
			sub_type: 'url',
			value: 'https://shop.test/track/{{tracking_code}}',
		},
	],
};
const templates = { wat_welcome: welcome };
const accepted = { statusCode: 200, body: { status: 'success', event_id: 'evt_1' } };

/** Three people; the second has no nickname. */
const people: IDataObject[] = [
	{ phone: '+919900000001', nickname: 'Asha', order: 'A-1', code: 't1' },
	{ phone: '+919900000002', order: 'A-2', code: 't2' },
	{ phone: '+919900000003', nickname: 'Ravi', order: 'A-3', code: 't3' },
];

const run = async (params: Record<string, unknown>, inputs = people, extra = {}) =>
	await runOverInputs(params, inputs, accepted, { templates, ...extra });

const rows = {
	variablesInput: 'fields',
	variables: {
		values: [
			{ key: 'first_name', value: '={{ $json.nickname }}' },
			{ key: 'order_id', value: '={{ $json.order }}' },
			{ key: 'tracking_code', value: '={{ $json.code }}' },
		],
	},
};
const mapped = {
	variablesInput: 'template',
	variablesMapped: {
		mappingMode: 'defineBelow',
		value: {
			first_name: '={{ $json.nickname }}',
			order_id: '={{ $json.order }}',
			tracking_code: '={{ $json.code }}',
		},
	},
};

const send = {
	resource: 'templateMessage',
	operation: 'send',
	phoneNumber: '={{ $json.phone }}',
	templateId: locator('wat_welcome'),
};

describe('a template variable that comes out empty is refused before anything is sent', () => {
	const json = { variablesInput: 'json', variablesJson: '={{ $json.variables }}' };
	const asJson = people.map((person) => ({
		...person,
		variables: {
			first_name: person.nickname ?? null,
			order_id: person.order,
			tracking_code: person.code,
		},
	}));
	const withNickname = (nickname: string): IDataObject[] =>
		people.map((person, index) => (index === 1 ? { ...person, nickname } : person));
	it.each([
		['From the Template (the mapper), no nickname', mapped, people, 'no value', true],
		[
			'From the Template (the mapper), an empty nickname',
			mapped,
			withNickname(''),
			'empty text',
			true,
		],
		['Using Fields Below (rows), no nickname', rows, people, 'no value', true],
		['Using Fields Below (rows), an empty nickname', rows, withNickname(''), 'empty text', true],
		[
			'Using Fields Below (rows), a nickname of spaces',
			rows,
			withNickname('  '),
			'only spaces',
			true,
		],
		['Using JSON, a null nickname', json, asJson, 'no value', false],
	])(
		'Send, %s in item 1: nothing sent; one message names the item and contact',
		async (_mode, variables, inputs, gave, expression) => {
			// The message names item 1 as n8n numbers it, its contact, first_name and the expression.
			const { requests, templateReads, error } = await run({ ...send, ...variables }, inputs);
			expect(requests).toEqual([]);
			expect(templateReads).toEqual(['wat_welcome']);
			expect(error?.message).toBe('Variable first_name is empty for +919900000002 (item 1)');
			expect(error?.description).toBe(
				(expression
					? `Variables → first_name is {{ $json.nickname }}, which gave ${gave} for this item. `
					: `Variables → first_name gave ${gave} for this item. `) +
					'Template "welcome" shows {{first_name}} in its body: sent without a value, the contact would see the placeholder. ' +
					(expression
						? "Give every item a value (e.g. {{ $json.nickname || 'there' }}), or leave out the items without one (e.g. with a Filter node before this one). "
						: 'Give first_name a value, or remove it from Variables. ') +
					'Nothing was sent: every item is checked before the first one is sent.',
			);
		},
	);

	it('the same items with a nickname each are sent, every variable filled', async () => {
		const everyone = people.map((person) => ({ nickname: 'friend', ...person }));
		const { requests, error } = await run({ ...send, ...mapped }, everyone);
		expect(error).toBeUndefined();
		expect(
			requests.map(
				(request) => (request.body as { template_message: IDataObject }).template_message,
			),
		).toEqual([
			{
				whats_app_template_id: 'wat_welcome',
				liquid_values: { first_name: 'Asha', order_id: 'A-1', tracking_code: 't1' },
			},
			{
				whats_app_template_id: 'wat_welcome',
				liquid_values: { first_name: 'friend', order_id: 'A-2', tracking_code: 't2' },
			},
			{
				whats_app_template_id: 'wat_welcome',
				liquid_values: { first_name: 'Ravi', order_id: 'A-3', tracking_code: 't3' },
			},
		]);
	});

	it('a header variable, a URL button variable, text of spaces: each is empty too', async () => {
		const header = await run({ ...send, ...mapped }, [{ ...people[0], order: '' }]);
		expect(header.error?.message).toBe('Variable order_id is empty for +919900000001 (item 0)');
		expect(header.error?.description).toContain(
			'{{ $json.order }}, which gave empty text for this item. Template "welcome" shows {{order_id}} in its header',
		);
		const button = await run({ ...send, ...mapped }, [{ ...people[0], code: undefined }]);
		expect(button.error?.message).toBe(
			'Variable tracking_code is empty for +919900000001 (item 0)',
		);
		expect(button.error?.description).toContain('shows {{tracking_code}} in a URL button');
		const spaces = await run({ ...send, ...rows }, [{ ...people[0], nickname: '   ' }]);
		expect(spaces.error?.message).toBe('Variable first_name is empty for +919900000001 (item 0)');
		expect(spaces.error?.description).toContain('which gave only spaces for this item');
		expect([header.requests, button.requests, spaces.requests]).toEqual([[], [], []]);
	});

	it('Using JSON: a variable the JSON leaves out is named, with every other one missing', async () => {
		const { requests, error } = await run(
			{ ...send, variablesInput: 'json', variablesJson: '{"order_id": "A-1"}' },
			[people[0]],
		);
		expect(requests).toEqual([]);
		expect(error?.message).toBe(
			'Variable first_name (and tracking_code) is empty for +919900000001 (item 0)',
		);
		expect(error?.description).toMatch(/^Variables give no value for first_name\. /);
	});

	it('with Continue On Fail, item 1 is an error item and items 0 and 2 are sent', async () => {
		const { requests, items } = await run({ ...send, ...mapped }, people, {
			continueOnFail: true,
		});
		expect(
			requests.map((request) => (request.body as { contact: IDataObject }).contact.phone_number),
		).toEqual(['+919900000001', '+919900000003']);
		expect(items.map((item) => [item.pairedItem, item.json.error ?? item.json.event_id])).toEqual([
			[{ item: 0 }, 'evt_1'],
			[{ item: 1 }, 'Variable first_name is empty for +919900000002 (item 1)'],
			[{ item: 2 }, 'evt_1'],
		]);
	});

	it('Connect to AI Agent: refused the same way', async () => {
		const { requests, error } = await run({
			...send,
			...mapped,
			operation: 'connectToAiAgent',
			aiAgentId: 'aiflw_1',
		});
		expect(requests).toEqual([]);
		expect(error?.message).toBe('Variable first_name is empty for +919900000002 (item 1)');
	});

	it('Send App Message: a variable given empty is refused with or without a Fallback Template (one rule)', async () => {
		// With a Fallback Template, its variables need values.
		const app = {
			resource: 'templateMessage',
			operation: 'sendAppMessage',
			phoneNumber: '={{ $json.phone }}',
			appId: 'flw_1',
			...mapped,
		};
		const fallback = await run({
			...app,
			useFallbackTemplate: true,
			templateId: locator('wat_welcome'),
		});
		expect(fallback.requests).toEqual([]);
		expect(fallback.error?.message).toBe('Variable first_name is empty for +919900000002 (item 1)');
		const appOnly = await run({ ...app, ...rows, useFallbackTemplate: false });
		expect(appOnly.templateReads).toEqual([]);
		expect(appOnly.requests).toEqual([]);
		expect(appOnly.error?.message).toBe('Variable first_name is empty for +919900000002 (item 1)');
		expect(appOnly.error?.description).toMatch(
			/^Variables → first_name is \{\{ \$json\.nickname \}\}, which gave no value for this item\. An empty value is never sent\. /,
		);
		const everyone = await run(
			{ ...app, ...rows, useFallbackTemplate: false },
			people.map((person) => ({ nickname: 'friend', ...person })),
		);
		expect(everyone.error).toBeUndefined();
		expect(everyone.requests).toHaveLength(3);
	});

	it('Send and Wait: the link and message fill their variables; another one left empty is refused before the send', async () => {
		const approval: IDataObject = {
			id: 'wat_approval',
			name: 'approval_request',
			status: 'approved',
			components: [
				{
					index: 0,
					component_type: 'body',
					value:
						"{{message | example: 'Approve?'}} Answer: {{approval_link | example: 'https://x'}} Order {{order_id}}",
				},
			],
		};
		const params = {
			resource: 'templateMessage',
			operation: 'sendAndWait',
			phoneNumber: '={{ $json.phone }}',
			templateId: locator('wat_approval'),
			message: 'Approve the refund?',
			messageVariable: 'message',
			variablesInput: 'fields',
			variables: { values: [{ key: 'order_id', value: '={{ $json.order }}' }] },
		};
		const empty = await run(params, [{ phone: '+919900000001', order: '' }], {
			templates: { wat_approval: approval },
		});
		expect(empty.requests).toEqual([]);
		expect(empty.putExecutionToWait).not.toHaveBeenCalled();
		expect(empty.error?.message).toBe('Variable order_id is empty for +919900000001 (item 0)');
		expect(empty.error?.description).toMatch(
			/^Other Template Variables → order_id is \{\{ \$json\.order \}\}, which gave empty text/,
		);
		const filled = await run(params, [{ phone: '+919900000001', order: 'A-7' }], {
			templates: { wat_approval: approval },
		});
		expect(filled.error).toBeUndefined();
		expect(
			(filled.requests[0].body as { template_message: { liquid_values: IDataObject } })
				.template_message.liquid_values,
		).toMatchObject({ message: 'Approve the refund?', order_id: 'A-7' });
	});

	it("a template WhatsApp does not send is refused in the node's words before anything is sent", async () => {
		// Pending, rejected, draft, paused, disabled; a status Peach does not document is left to Peach.
		for (const status of ['pending', 'rejected', 'draft', 'paused', 'disabled']) {
			const { requests, error } = await run({ ...send, ...mapped }, [people[0]], {
				templates: { wat_welcome: { ...welcome, status } },
			});
			expect(requests).toEqual([]);
			expect(error?.message).toBe(
				`Template "welcome" (wat_welcome) is ${status}: WhatsApp sends approved templates only`,
			);
		}
		const pending = await run({ ...send, ...mapped }, [people[0]], {
			templates: { wat_welcome: { ...welcome, status: 'PENDING' } },
		});
		expect(pending.error?.description).toMatch(/^Meta is still reviewing it/);
		const other = await run({ ...send, ...mapped }, [people[0]], {
			templates: { wat_welcome: { ...welcome, status: 'in_appeal' } },
		});
		expect(other.error).toBeUndefined();
		expect(other.requests).toHaveLength(1);
	});

	it('a pending template shared by every item is said once, for no one item, the items it holds for described', async () => {
		// Named once when its name is its ID; the items it holds for are in the description.
		const spring = { ...welcome, id: 'spring_promo', name: 'spring_promo', status: 'pending' };
		const { requests, error } = await run(
			{ ...send, ...mapped, templateId: locator('spring_promo') },
			people,
			{ templates: { spring_promo: spring } },
		);
		expect(requests).toEqual([]);
		expect(error?.message).toBe(
			'Template "spring_promo" is pending: WhatsApp sends approved templates only',
		);
		expect(error?.context.itemIndex).toBeUndefined();
		expect(error?.description).toBe(
			'Meta is still reviewing it (usually minutes to a day). Pick an approved template, or run again once WhatsApp Template → Get shows it approved. This holds for items 0 to 2. Nothing was sent: every item is checked before the first one is sent.',
		);
		expect(error?.description).not.toContain('Also to fix');
		expect(error?.description?.match(/is pending/g) ?? []).toHaveLength(0);
	});

	it("an item's own problem beside a shared one is still named, contact first, item as n8n numbers it", async () => {
		const paused = { ...welcome, status: 'paused' };
		const { error } = await run(
			{ ...send, ...mapped, phoneNumber: '={{ $json.phone }}' },
			[people[0], { ...people[1], phone: '9900000002' }, people[2]],
			{ templates: { wat_welcome: paused } },
		);
		expect(error?.message).toBe(
			'Template "welcome" (wat_welcome) is paused: WhatsApp sends approved templates only',
		);
		expect(error?.description).toContain('This holds for items 0 and 2.');
		expect(error?.description).toContain(
			'Also to fix: Phone Number "9900000002" has no + and country code (item 1).',
		);
	});

	describe('Broadcast → Launch', () => {
		const launch = {
			resource: 'broadcast',
			operation: 'launch',
			name: 'Welcome',
			templateId: locator('wat_welcome'),
			recipients: 'items',
			contactPhoneNumber: '={{ $json.phone }}',
			deliveryMode: 'instant',
			variablesInput: 'fields',
			variables: {
				values: [
					{ key: 'order_id', value: 'all' },
					{ key: 'tracking_code', value: 'none' },
				],
			},
		};

		it("from input items: a global value or the contact's own fills a variable; with neither, nothing is launched", async () => {
			// A contact with neither is refused.
			const { requests, error } = await run(
				{
					...launch,
					contactVariables: {
						values: [{ key: 'first_name', value: '={{ $json.nickname }}' }],
					},
				},
				people.map((person) => ({ nickname: '', ...person })),
			);
			expect(requests).toEqual([]);
			expect(error?.message).toBe('Variable first_name is empty for +919900000002 (item 1)');
			expect(error?.description).toMatch(
				/^Contact Variables → first_name is \{\{ \$json\.nickname \}\}, which gave empty text for this item\. /,
			);
			const global = await run(
				{
					...launch,
					variables: {
						values: [...launch.variables.values, { key: 'first_name', value: 'there' }],
					},
				},
				people,
				{ responses: [accepted] },
			);
			expect(global.error).toBeUndefined();
			expect(global.requests).toHaveLength(1);
		});

		it("to an audience: the contacts are Peach's, so their values are not checked (only Peach has them)", async () => {
			const { requests, error, templateReads } = await run(
				{ ...launch, recipients: 'audience', audienceId: 'aud_1' },
				[people[0]],
				{ responses: [accepted] },
			);
			expect(error).toBeUndefined();
			// Read once after the launch, for the message the output shows (not to check contacts).
			expect(templateReads).toEqual(['wat_welcome']);
			expect(requests).toHaveLength(1);
		});
	});
});

describe('a field that comes out empty names the expression that gave nothing', () => {
	it('Phone Number {{ $json.phone }}, no phone in item 2: "Phone Number is empty", the expression described', async () => {
		// Nothing is sent.
		const inputs = people.map((person, index) => (index === 1 ? { nickname: 'Mia' } : person));
		const { requests, error } = await run({ ...send, ...mapped }, inputs);
		expect(requests).toEqual([]);
		expect(error?.message).toBe('Phone Number is empty');
		expect(error?.context.itemIndex).toBe(1);
		expect(error?.description).toBe(
			"Phone Number is {{ $json.phone }}, which gave nothing for this item. Enter the contact's number with + and the country code, e.g. +919988776655. Nothing was sent: every item is checked before the first one is sent.",
		);
	});

	it('a fixed empty value names no expression', async () => {
		const { error } = await run({ ...send, ...mapped, phoneNumber: '' }, people.slice(0, 1));
		expect(error?.message).toBe('Phone Number is empty');
		expect(error?.description).toBe(
			"Enter the contact's number with + and the country code, e.g. +919988776655. Nothing was sent: every item is checked before the first one is sent.",
		);
	});
});
