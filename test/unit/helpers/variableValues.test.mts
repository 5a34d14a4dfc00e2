import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

import type { IDataObject } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import {
	emptyVariableText,
	givenVariables,
	isEmptyValue,
} from '../../../nodes/Peach/helpers/variableValues';
import { locator, runOverInputs } from '../support/harness';
import { approvalWith, welcome } from '../support/templates';

/**
 * What a template variable's value is and when it counts as empty has one home,
 * helpers/variableValues.ts (issue 45, point 1): every way of giving variables and every operation
 * that sends them follow it, and say so with one message.
 */

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));

/** Every TypeScript file of the shipped node, relative to the repository. */
function sources(folder = join(ROOT, 'nodes')): string[] {
	return readdirSync(folder).flatMap((name) => {
		const path = join(folder, name);
		if (statSync(path).isDirectory()) return sources(path);
		return path.endsWith('.ts') ? [relative(ROOT, path)] : [];
	});
}

/** The three ways a user gives one variable `name` the value `value`. */
const ways = (name: string, value: unknown) => ({
	rows: givenVariables('fields', { rows: { values: [{ key: name, value }] } }),
	json: givenVariables('json', { json: { [name]: value } as IDataObject }),
	mapper: givenVariables('template', {
		mapped: { mappingMode: 'defineBelow', value: { [name]: value } },
	}),
});

describe('one rule for what a variable value is, whichever way it is given', () => {
	it.each([
		['missing', undefined],
		['null', null],
		['empty text', ''],
		['spaces', '   '],
		['a new line and a tab', '\n\t'],
	])('%s is empty in rows, JSON and the mapper alike: set aside, never sent', (_what, value) => {
		expect(isEmptyValue(value)).toBe(true);
		for (const given of Object.values(ways('first_name', value)))
			expect(given).toEqual({ values: {}, empty: ['first_name'] });
	});

	it.each([
		['text', 'Asha'],
		['a number, 0 included', 0],
		['text "0"', '0'],
		['text with spaces around', ' Asha '],
	])('%s fills the variable as it is, in rows, JSON and the mapper alike', (_what, value) => {
		expect(isEmptyValue(value)).toBe(false);
		for (const given of Object.values(ways('first_name', value)))
			expect(given).toEqual({ values: { first_name: value }, empty: [] });
	});

	it('header_media may be {link, filename}; any other object is refused naming the variable, in every way', () => {
		const header = { link: 'https://x.test/a.pdf', filename: 'a.pdf' };
		for (const given of Object.values(ways('header_media', header)))
			expect(given.values).toEqual({ header_media: header });
		const { rows } = ways('first_name', 'x');
		expect(rows.values).toEqual({ first_name: 'x' });
		expect(() => ways('first_name', { link: 'x' })).toThrow(
			'"first_name" {"link":"x"} is neither text nor a number',
		);
		expect(() =>
			givenVariables('fields', { rows: { values: [{ key: 'h', value: true }] } }),
		).toThrow('Variables "h" true is neither text nor a number');
	});

	it('a name like an Object.prototype member is an ordinary variable', () => {
		const rows = ['constructor', 'toString', '__proto__'].map((key) => ({ key, value: 'x' }));
		const given = givenVariables('fields', { rows: { values: rows } });
		expect(Object.keys(given.values)).toEqual(['constructor', 'toString', '__proto__']);
		expect(Object.getPrototypeOf(given.values)).toBe(Object.prototype);
	});

	it("the one message: n8n's item number, the contact, the user's own expression in the fix", () => {
		expect(
			emptyVariableText({
				name: 'first_name',
				others: ['order_id'],
				itemIndex: 1,
				recipient: '+919988776655',
				field: 'Variables',
				expression: '{{ $json.nickname }}',
				value: '',
				given: true,
				shownIn: 'Template "welcome" shows {{first_name}} in its body',
			}),
		).toEqual({
			message: 'Variable first_name (and order_id) is empty for +919988776655 (item 1)',
			description:
				'Variables → first_name is {{ $json.nickname }}, which gave empty text for this item. ' +
				'Template "welcome" shows {{first_name}} in its body: sent without a value, the contact would see the placeholder. ' +
				"Give every item a value (e.g. {{ $json.nickname || 'there' }}), or leave out the items without one (e.g. with a Filter node before this one).",
		});
		// An expression that is more than one path keeps its own shape in the fix.
		expect(
			emptyVariableText({
				name: 'first_name',
				others: [],
				itemIndex: 0,
				field: 'Variables',
				expression: '{{ $json.first + $json.last }}',
				given: true,
			}).description,
		).toContain("(e.g. {{ ($json.first + $json.last) || 'there' }})");
	});
});

describe('one source: the rule is decided in helpers/variableValues.ts only', () => {
	const files = sources();
	const read = (file: string) => readFileSync(join(ROOT, file), 'utf8');

	it('one function decides whether a variable value is empty, and the mode is read in one place', () => {
		expect(files.filter((file) => /function isEmptyValue\b/.test(read(file)))).toEqual([
			'nodes/Peach/helpers/variableValues.ts',
		]);
		expect(
			files.filter((file) =>
				/(getNodeParameter\(|parameterOfItem\(\s*\w+,)\s*'variablesInput'/.test(read(file)),
			),
		).toEqual(['nodes/Peach/actions/item/itemParameters.ts']);
		// Every way of giving values (rows, JSON, mapper, a contact's rows) goes through givenVariables.
		expect(files.filter((file) => /givenVariables\(/.test(read(file))).sort()).toEqual([
			'nodes/Peach/actions/broadcast/launchFromItems.ts',
			'nodes/Peach/actions/item/itemParameters.ts',
			'nodes/Peach/helpers/variableValues.ts',
		]);
	});

	it('one message: the words "is empty in item" are written in helpers/variableValues.ts only', () => {
		expect(files.filter((file) => read(file).includes('is empty in item'))).toEqual([
			'nodes/Peach/helpers/variableValues.ts',
		]);
	});
});

describe('every operation that sends variables refuses an empty one the same way, before anything is sent', () => {
	const approval = approvalWith('Hi {{first_name}}: {{message}} Answer: {{approval_link}} Thanks.');
	const person = { phone: '+919900000001', nickname: '' };
	const rows = {
		variablesInput: 'fields',
		variables: { values: [{ key: 'first_name', value: '={{ $json.nickname }}' }] },
	};
	const contact = { phoneNumber: '={{ $json.phone }}' };
	const operations: Array<[string, Record<string, unknown>]> = [
		['Send', { operation: 'send', templateId: locator('wat_welcome'), ...contact }],
		[
			'Send and Wait',
			{
				operation: 'sendAndWait',
				templateId: locator('wat_approval'),
				message: 'Refund?',
				...contact,
			},
		],
		[
			'Connect to AI Agent',
			{
				operation: 'connectToAiAgent',
				templateId: locator('wat_welcome'),
				aiAgentId: 'aiflw_1',
				...contact,
			},
		],
		[
			'Send App Message with a Fallback Template',
			{
				operation: 'sendAppMessage',
				appId: 'flw_1',
				useFallbackTemplate: true,
				templateId: locator('wat_welcome'),
				...contact,
			},
		],
		[
			'Send App Message (its app variables)',
			{ operation: 'sendAppMessage', appId: 'flw_1', useFallbackTemplate: false, ...contact },
		],
	];
	it.each(operations)('%s refuses an empty variable', async (_name, params) => {
		const { requests, error } = await runOverInputs(
			{ resource: 'templateMessage', ...params, ...rows },
			[person],
			{ statusCode: 200, body: { status: 'success', event_id: 'evt_1' } },
			{ templates: { wat_welcome: welcome, wat_approval: approval } },
		);
		expect(requests).toEqual([]);
		expect(error?.message).toBe('Variable first_name is empty for +919900000001 (item 0)');
		expect(error?.description).toContain(
			'first_name is {{ $json.nickname }}, which gave empty text for this item.',
		);
		expect(error?.description).toContain("(e.g. {{ $json.nickname || 'there' }})");
	});

	it.each([
		['from input items (a contact variable)', 'items', 'Contact Variables'],
		['to an audience (a global variable)', 'audience', 'Global Variables'],
	])('Broadcast → Launch %s', async (_name, recipients, field) => {
		const variable = [{ key: 'first_name', value: '={{ $json.nickname }}' }];
		const { requests, error } = await runOverInputs(
			{
				resource: 'broadcast',
				operation: 'launch',
				name: 'Welcome',
				templateId: locator('wat_welcome'),
				recipients,
				audienceId: 'aud_1',
				contactPhoneNumber: '={{ $json.phone }}',
				deliveryMode: 'instant',
				variablesInput: 'fields',
				...(recipients === 'items'
					? { contactVariables: { values: variable } }
					: { variables: { values: variable } }),
			},
			[person],
			{ statusCode: 200, body: { status: 'success', event_id: 'evt_1' } },
			{ templates: { wat_welcome: welcome } },
		);
		expect(requests).toEqual([]);
		expect(error?.message).toMatch(
			/^Variable first_name is empty (for \+\d+ \(item 0\)|in item 0)$/,
		);
		expect(error?.description).toMatch(
			new RegExp(
				`^${field} → first_name is \\{\\{ \\$json\\.nickname \\}\\}, which gave empty text`,
			),
		);
	});
});
