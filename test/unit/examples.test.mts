import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { describe, expect, it } from 'vitest';

import { Peach } from '../../nodes/Peach/Peach.node.ts';
import { PeachTrigger } from '../../nodes/PeachTrigger/PeachTrigger.node.ts';
import { resolveParameters } from './support/parameters.ts';

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

describe('examples/*.json', () => {
	it('covers what users asked for', () => {
		expect(files.sort()).toEqual([
			'ai-agent-with-the-peach-tool.json',
			'approve-a-refund-on-whatsapp.json',
			'broadcast-from-a-list.json',
			'create-contacts-in-bulk.json',
			'preview-a-broadcast-before-sending.json',
			'react-to-failed-deliveries.json',
			'refund-the-amount-a-manager-types.json',
			'send-an-invoice-pdf-from-a-url.json',
			'send-and-wait-for-delivery.json',
			'send-template-message-from-webhook.json',
			'what-was-sent-before-a-crash.json',
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
				// n8n keeps exactly the parameters its description shows for these values.
				const resolved = resolveParameters(description, node.parameters, node.typeVersion);
				for (const name of Object.keys(node.parameters)) {
					expect(Object.keys(resolved), `${node.name}: parameter ${name}`).toContain(name);
				}
				for (const credential of Object.keys(node.credentials ?? {})) {
					expect(description.credentials?.map((c) => c.name)).toContain(credential);
				}
				if (isAction) {
					const operation = description.properties.find(
						(property) =>
							property.name === 'operation' &&
							property.displayOptions?.show?.resource?.includes(node.parameters.resource as string),
					);
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

/** How an example says it runs (meta.peachExample): what the real-n8n suite does with it. */
interface ExampleRun {
	run: 'webhook' | 'manual' | 'trigger' | 'none';
	path?: string;
	body?: Record<string, unknown>;
	answer?: { phone: string; choice?: string; fields?: Record<string, string | string[]> };
	event?: string;
	why?: string;
}

const readme = readFileSync(fileURLToPath(new URL('../../README.md', import.meta.url)), 'utf8');
/** README's row of an example in the Usage table: | `file` | what | how to try it |. */
const rowOf = (file: string) =>
	readme.split('\n').find((line) => line.startsWith(`| \`${file}\` |`)) ?? '';

/** A JSON body as README writes it: `{"a": 1, "b": "x"}`. */
const asWritten = (body: Record<string, unknown>) =>
	`\`${JSON.stringify(body).replace(/":/g, '": ').replace(/,"/g, ', "')}\``;

describe("examples run from README's words alone", () => {
	it.each(files)(
		'%s: its README row says what the suite does with it; a sticky note, how to try it',
		(file) => {
			// The README row says exactly what the suite does with the example.
			const parsed = JSON.parse(readFileSync(join(folder, file), 'utf8')) as {
				meta: { peachExample: ExampleRun };
				nodes: Array<{ type: string; parameters: Record<string, unknown> }>;
			};
			const how = parsed.meta.peachExample;
			const row = rowOf(file);
			expect(row, `${file} has no row in README's examples table`).not.toBe('');
			if (how.run === 'webhook') {
				expect(row).toContain(`/webhook/${String(how.path)}`);
				expect(row).toContain(asWritten(how.body ?? {}));
				if (how.answer) {
					expect(row).toContain(how.answer.phone);
					if (how.answer.choice) expect(row).toContain(`tap *${how.answer.choice}*`);
					for (const [label, value] of Object.entries(how.answer.fields ?? {}))
						expect(row).toContain(`*${label}* \`${String(value)}\``);
				}
			}
			if (how.run === 'manual') expect(row).toContain('*Execute workflow*');
			if (how.run === 'trigger') expect(row).toContain(`"type": "${String(how.event)}"`);
			if (how.run === 'none') expect(row).toContain(String(how.why));
			const notes = parsed.nodes
				.filter((node) => node.type === 'n8n-nodes-base.stickyNote')
				.map((node) => String(node.parameters.content));
			expect(notes.length, `${file} has no sticky note`).toBeGreaterThan(0);
			if (how.run === 'webhook' && how.body) {
				expect(notes.join('\n')).toContain(asWritten(how.body));
			}
		},
	);
});

/**
 * The height a sticky note's text needs in n8n's editor (its Markdown at 14 px, lines of 20 px; a
 * `##` heading 34 px; 12 px between paragraphs; 16 px padding above and below), with about 7.4 px
 * per character of the note's width less its padding: a note shorter than this cuts its text.
 */
function heightNeeded(content: string, width: number): number {
	const perLine = Math.floor((width - 32) / 7.4);
	const paragraphs = content.split(/\n\s*\n|\n(?=##)/).filter((part) => part.trim() !== '');
	let height = 32;
	for (const paragraph of paragraphs) {
		for (const line of paragraph.split('\n')) {
			if (line.startsWith('## ')) height += 34 * Math.ceil((line.length - 3) / (perLine * 0.7));
			else height += 20 * Math.max(1, Math.ceil(line.replace(/[*`]/g, '').length / perLine));
		}
		height += 12;
	}
	return height;
}

describe('sticky notes', () => {
	it.each(files)('%s: every sticky note is tall enough for its text', (file) => {
		const parsed = JSON.parse(readFileSync(join(folder, file), 'utf8')) as {
			nodes: Array<{ type: string; name: string; parameters: Record<string, unknown> }>;
		};
		for (const note of parsed.nodes.filter((node) => node.type === 'n8n-nodes-base.stickyNote')) {
			const width = Number(note.parameters.width ?? 240);
			const height = Number(note.parameters.height ?? 160);
			const needed = heightNeeded(String(note.parameters.content), width);
			expect(
				height,
				`${note.name}: ${height} px high, its text needs about ${needed}`,
			).toBeGreaterThanOrEqual(needed);
		}
	});
});
