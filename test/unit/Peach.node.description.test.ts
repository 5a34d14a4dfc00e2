import type { IExecuteFunctions, INodeProperties, INodeTypes } from 'n8n-workflow';
import { NodeHelpers, NodeOperationError, Workflow } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { router } from '../../nodes/Peach/actions/router';
import { requestOptionsOf } from '../../nodes/Peach/transport/requestOptions';
import { Peach } from '../../nodes/Peach/Peach.node';
import codex from '../../nodes/Peach/Peach.node.json';
import { PeachTrigger } from '../../nodes/PeachTrigger/PeachTrigger.node';
import { createExecuteContext } from './support/harness';
import { resolveParameters } from './support/parameters';

const description = new Peach().description;
const options = (property: INodeProperties) =>
	(property.options ?? []) as Array<{ name: string; value: string; action?: string }>;

/** Every resource/operation pair the editor offers. */
function offeredOperations(): Array<[string, string, { action?: string; name: string }]> {
	const resources = options(description.properties.find((p) => p.name === 'resource')!);
	return resources.flatMap((resource) => {
		const operation = description.properties.find(
			(p) => p.name === 'operation' && p.displayOptions?.show?.resource?.includes(resource.value),
		)!;
		return options(operation).map(
			(option) => [resource.value, option.value, option] as [string, string, typeof option],
		);
	});
}

describe('Peach node description', () => {
	it('every operation the editor offers is one the node runs', async () => {
		const offered = offeredOperations();
		expect(offered.length).toBeGreaterThan(0);
		for (const [resource, operation] of offered) {
			const { context } = createExecuteContext({ params: { resource, operation }, items: 0 });
			await expect(router.call(context, false)).resolves.toEqual([[]]);
		}
		const { context } = createExecuteContext({
			params: { resource: 'templateMessage', operation: 'toString' },
			items: 0,
		});
		await expect(router.call(context as IExecuteFunctions, false)).rejects.toBeInstanceOf(
			NodeOperationError,
		);
	});

	it('gives an AI agent an action sentence and a description for every operation', () => {
		expect(description.usableAsTool).toBe(true);
		for (const [, , option] of offeredOperations()) {
			// Sentence case, starting with a verb, no closing period (n8n's UX rules).
			expect(option.action).toMatch(/^[A-Z][a-z]+ [a-z]/);
			expect(option.action).not.toMatch(/\.$/);
		}
	});

	it('leads with Template Message → Send, then Send and Wait; every other list sorted by name', () => {
		// n8n lists a node's actions in Resource, then Operation order, with no search for a community node;
		// each operation is shown for its resource only.
		const resources = options(description.properties.find((p) => p.name === 'resource')!);
		const sorted = (names: string[]) => [...names].sort((a, b) => a.localeCompare(b));
		const [main, ...rest] = resources.map((r) => r.name);
		expect(main).toBe('Template Message');
		expect(rest).toEqual(sorted(rest));
		for (const property of description.properties.filter((p) => p.name === 'operation')) {
			const names = options(property).map((o) => o.name);
			if (property.displayOptions?.show?.resource?.[0] === 'templateMessage') {
				expect(names.slice(0, 2)).toEqual(['Send', 'Send and Wait for Response']);
				expect(names.slice(2)).toEqual(sorted(names.slice(2)));
			} else expect(names).toEqual(sorted(names));
			expect(property.displayOptions?.show?.resource).toHaveLength(1);
		}
	});

	it('uses resource locators with From List as the default mode, plus By ID', () => {
		const locators = description.properties.filter((p) => p.type === 'resourceLocator');
		expect(locators.length).toBeGreaterThan(0);
		for (const locator of locators) {
			expect(locator.default).toEqual({ mode: 'list', value: '' });
			expect(locator.modes?.map((mode) => mode.name)).toEqual(['list', 'id']);
		}
	});

	it('a condition By ID may be its name (spaces), other IDs may not have spaces', () => {
		const byId = (name: string) =>
			description.properties
				.find((p) => p.name === name)
				?.modes?.find((mode) => mode.name === 'id');
		expect(byId('conditionId')?.validation).toEqual([]);
		expect(byId('templateId')?.validation).toEqual([
			{
				type: 'regex',
				properties: { regex: '^\\S+$', errorMessage: 'A template ID has no spaces' },
			},
		]);
	});

	it('reads its subtitle as "Operation: Resource" in n8n\'s expression language, a short expression', () => {
		const subtitleOf = (resource: string, operation: string) => {
			const node = {
				id: '1',
				name: 'Peach',
				type: 'n8n-nodes-peach.peach',
				typeVersion: 1,
				position: [0, 0] as [number, number],
				parameters: { resource, operation },
			};
			const peach = new Peach();
			const workflow = new Workflow({
				nodes: [node],
				connections: {},
				active: false,
				nodeTypes: {
					getByName: () => peach,
					getByNameAndVersion: () => peach,
					getKnownTypes: () => ({}),
				} as unknown as INodeTypes,
			});
			return workflow.expression.getSimpleParameterValue(
				node,
				String(description.subtitle),
				'internal',
				{},
			);
		};
		expect(subtitleOf('templateMessage', 'send')).toBe('Send: Template Message');
		expect(subtitleOf('whatsAppTemplate', 'getMany')).toBe('Get Many: WhatsApp Template');
		expect(subtitleOf('automationTrigger', 'update')).toBe('Update: Automation Trigger');
		for (const [resource, operation] of offeredOperations()) {
			expect(subtitleOf(resource, operation)).toMatch(/^[A-Z][\w ]*: [A-Z][\w ]*$/);
		}
		expect(String(description.subtitle).length).toBeLessThan(250);
	});

	it('shows one Request Options per operation, with only the options that operation uses', () => {
		// Max Concurrent Requests where items go one request each (or one per delivery); Send Again If Outcome
		// Unknown and Delivery Key where they deliver.
		const shown = (resource: string, operation: string) => {
			const values = resolveParameters(description, { resource, operation });
			const visible = description.properties.filter(
				(property) =>
					property.name === 'requestOptions' &&
					NodeHelpers.displayParameter(values, property, null, description),
			);
			expect(visible, `${resource}.${operation}`).toHaveLength(1);
			return (visible[0].options as INodeProperties[]).map((option) => option.name);
		};
		for (const [resource, operation] of offeredOperations()) shown(resource, operation);
		const delivering = ['concurrency', 'timeout', 'resendUnknown', 'deliveryKey'];
		expect(shown('templateMessage', 'send')).toEqual(delivering);
		expect(shown('templateMessage', 'sendAndWait')).toEqual(delivering);
		expect(shown('templateMessage', 'connectToAiAgent')).toEqual(delivering);
		expect(shown('templateMessage', 'sendAppMessage')).toEqual(delivering);
		expect(shown('broadcast', 'launch')).toEqual(delivering);
		expect(shown('order', 'refund')).toEqual(delivering);
		expect(shown('order', 'create')).toEqual(delivering);
		expect(shown('automation', 'trigger')).toEqual(delivering);
		expect(shown('contact', 'get')).toEqual(['concurrency', 'timeout']);
		expect(shown('contact', 'upsert')).toEqual(['concurrency', 'timeout']);
		expect(shown('contact', 'createMany')).toEqual(['timeout']);
		expect(shown('contact', 'updateCommunicationPreferences')).toEqual(['timeout']);
	});

	it('Dry Run is a switch of its own, off, just above Request Options, on all eight delivering operations (and only there)', () => {
		const visibleNames = (resource: string, operation: string) => {
			const values = resolveParameters(description, { resource, operation });
			return description.properties
				.filter((property) => NodeHelpers.displayParameter(values, property, null, description))
				.map((property) => property.name);
		};
		const delivering = [
			['templateMessage', 'send'],
			['templateMessage', 'sendAndWait'],
			['templateMessage', 'connectToAiAgent'],
			['templateMessage', 'sendAppMessage'],
			['broadcast', 'launch'],
			['order', 'create'],
			['order', 'refund'],
			['automation', 'trigger'],
		];
		for (const [resource, operation] of offeredOperations()) {
			const names = visibleNames(resource, operation);
			const sends = delivering.some(([r, o]) => r === resource && o === operation);
			expect(names.includes('dryRun'), `${resource}.${operation}`).toBe(sends);
			if (sends)
				expect(names.slice(-2), `${resource}.${operation}`).toEqual(['dryRun', 'requestOptions']);
		}
		const switches = description.properties.filter((property) => property.name === 'dryRun');
		for (const field of switches) {
			expect(field.type).toBe('boolean');
			expect(field.default).toBe(false);
			expect(field.displayName).toBe('Dry Run');
		}
		expect(switches.flatMap((field) => field.displayOptions?.show?.operation ?? [])).toHaveLength(
			delivering.length,
		);
	});

	it('has a codex file for the node n8n loads (package name + node name)', () => {
		expect(codex.node).toBe(`n8n-nodes-peach.${description.name}`);
	});

	it('every boolean inside a collection defaults to false: adding an option never turns something on', () => {
		const offending: string[] = [];
		const walk = (properties: INodeProperties[], inCollection: boolean, path: string) => {
			for (const property of properties) {
				const here = `${path}${property.name}`;
				if (inCollection && property.type === 'boolean' && property.default !== false)
					offending.push(here);
				const children = (property.options ?? []) as unknown[];
				if (property.type === 'collection') walk(children as INodeProperties[], true, `${here}.`);
				if (property.type === 'fixedCollection') {
					for (const group of children as Array<{ values?: INodeProperties[] }>)
						walk(group.values ?? [], false, `${here}.`);
				}
			}
		};
		walk(description.properties, false, '');
		walk(new PeachTrigger().description.properties, false, 'trigger:');
		expect(offending).toEqual([]);
	});

	// Additional Fields are built by one function (descriptions/fields.ts), which n8n's lint does not
	// look into; this keeps its rule. Request Options (also built) keeps its order since its first
	// version: the width, the time limit, then what only delivering operations have.
	it("every Additional Fields (and other collection) lists its options sorted by name, as n8n's lint asks of a literal list", () => {
		const unsorted: string[] = [];
		const walk = (properties: INodeProperties[], path: string) => {
			for (const property of properties) {
				const here = `${path}${property.name}`;
				const children = (property.options ?? []) as INodeProperties[];
				if (property.type === 'collection' && property.name !== 'requestOptions') {
					const names = children.map((child) => child.displayName);
					const sorted = [...names].sort((a, b) => a.localeCompare(b));
					if (names.join('|') !== sorted.join('|')) unsorted.push(`${here}: ${names.join(', ')}`);
					walk(children, `${here}.`);
				}
			}
		};
		walk(description.properties, '');
		walk(new PeachTrigger().description.properties, 'trigger:');
		expect(unsorted).toEqual([]);
	});

	it('Request Options: an option added at its editor default acts as the option left out', async () => {
		const options = description.properties
			.filter((p) => p.name === 'requestOptions')
			.flatMap((p) => p.options as INodeProperties[]);
		const defaults = Object.fromEntries(options.map((option) => [option.name, option.default]));
		expect(Object.keys(defaults).sort()).toEqual([
			'concurrency',
			'deliveryKey',
			'resendUnknown',
			'timeout',
		]);
		const read = (requestOptions: Record<string, unknown>) => {
			const { context } = createExecuteContext({ params: { requestOptions } });
			return requestOptionsOf(context);
		};
		expect(read(defaults)).toEqual(read({}));
	});
});
