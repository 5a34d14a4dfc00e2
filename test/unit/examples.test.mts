import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import type { INodeProperties } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { Peach } from '../../nodes/Peach/Peach.node.ts';
import { PeachTrigger } from '../../nodes/PeachTrigger/PeachTrigger.node.ts';

interface WorkflowNode {
	name: string;
	type: string;
	typeVersion: number;
	parameters: Record<string, unknown>;
	credentials?: Record<string, unknown>;
}

interface WorkflowFile {
	name: string;
	nodes: WorkflowNode[];
	connections: Record<string, Record<string, Array<Array<{ node: string }>>>>;
}

const folder = fileURLToPath(new URL('../../examples', import.meta.url));
const files = readdirSync(folder).filter((name) => name.endsWith('.json'));
const examples = files.map(
	(file) => [file, JSON.parse(readFileSync(join(folder, file), 'utf8')) as WorkflowFile] as const,
);

/** Whether a property is shown for these parameters (only the `show` conditions on resource/operation/@version). */
function shown(property: INodeProperties, parameters: Record<string, unknown>, version: number) {
	const show = property.displayOptions?.show ?? {};
	return Object.entries(show).every(([key, allowed]) => {
		const values = allowed as unknown[];
		if (key === '@version') {
			return values.some((value) =>
				typeof value === 'object' && value !== null
					? version >= ((value as { _cnd: { gte: number } })._cnd?.gte ?? Infinity)
					: value === version,
			);
		}
		if (!(key in parameters)) return true;
		return values.includes(parameters[key]);
	});
}

describe('examples/*.json', () => {
	it('covers what users asked for', () => {
		expect(files.sort()).toEqual([
			'ai-agent-with-the-peach-tool.json',
			'broadcast-from-a-list.json',
			'create-contacts-in-bulk.json',
			'react-to-failed-deliveries.json',
			'send-and-wait-for-delivery.json',
			'send-template-message-from-webhook.json',
			'upload-a-pdf-and-send-it.json',
		]);
	});

	it.each(examples)('%s: connections name existing nodes; names are unique', (_file, workflow) => {
		const names = workflow.nodes.map((node) => node.name);
		expect(new Set(names).size).toBe(names.length);
		for (const [from, outputs] of Object.entries(workflow.connections)) {
			expect(names).toContain(from);
			for (const output of Object.values(outputs))
				for (const targets of output)
					for (const target of targets) expect(names).toContain(target.node);
		}
	});

	it.each(examples)(
		'%s: every Peach parameter is a field of the chosen operation and version',
		(_file, workflow) => {
			const peach = new Peach().description;
			const trigger = new PeachTrigger().description;
			const versions = (description: { version: number | number[] }) =>
				Array.isArray(description.version) ? description.version : [description.version];
			let checked = 0;
			for (const node of workflow.nodes) {
				const isAction =
					node.type === 'n8n-nodes-peach.peach' || node.type === 'n8n-nodes-peach.peachTool';
				const isTrigger = node.type === 'n8n-nodes-peach.peachTrigger';
				if (!isAction && !isTrigger) continue;
				const description = isAction ? peach : trigger;
				expect(versions(description)).toContain(node.typeVersion);
				const visible = description.properties.filter((property) =>
					shown(property, node.parameters, node.typeVersion),
				);
				for (const name of Object.keys(node.parameters)) {
					expect(
						visible.map((property) => property.name),
						`${node.name}: parameter ${name}`,
					).toContain(name);
				}
				for (const credential of Object.keys(node.credentials ?? {})) {
					expect(description.credentials?.map((c) => c.name)).toContain(credential);
				}
				if (isAction) {
					const operation = visible.find((property) => property.name === 'operation');
					expect(
						operation?.options?.map((option) => (option as { value: string }).value),
					).toContain(node.parameters.operation);
				}
				checked++;
			}
			expect(checked).toBeGreaterThan(0);
		},
	);
});
