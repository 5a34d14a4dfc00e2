/**
 * examples/what-was-sent-before-a-crash.json: its two Code nodes decide, by contact and by order, what
 * a crash left. Their code runs here as n8n's Code node runs it (`$` and `$input` of one run), over
 * the shapes Peach's list and order may have: the sandbox's, the documented one (id and status only),
 * and the nested ones the node's witness reads. The queue suite runs the whole workflow after a real
 * stalled crash.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

import { describe, expect, it } from 'vitest';

interface Item {
	json: Record<string, unknown>;
}
interface CodeNode {
	name: string;
	parameters: { jsCode?: string };
}

const workflow = JSON.parse(
	readFileSync(
		fileURLToPath(new URL('../../examples/what-was-sent-before-a-crash.json', import.meta.url)),
		'utf8',
	),
) as { nodes: CodeNode[] };

function codeOf(name: string): string {
	const node = workflow.nodes.find((candidate) => candidate.name === name);
	if (!node?.parameters.jsCode) throw new Error(`no Code node "${name}" in the example`);
	return node.parameters.jsCode;
}

/** Runs a Code node's code with other nodes' items (`$('name').all()`, `.first()`) and its input. */
function runCode(name: string, nodes: Record<string, Item[]>, input: Item[] = []): Item[] {
	const $ = (node: string) => {
		const items = nodes[node];
		if (!items) throw new Error(`the code read node "${node}", which this test did not give`);
		return { all: () => items, first: () => items[0] };
	};
	// n8n's Code node runs the text as the body of a function with these names in scope.
	const body = new Function('$', '$input', codeOf(name)) as (
		select: typeof $,
		given: { all: () => Item[] },
	) => Item[];
	return body($, { all: () => input });
}

const since = '2026-12-03T10:00:00.000Z';
const byContact = (listed: Array<Record<string, unknown>>, template = '') =>
	runCode('Made, never made or unknown, by contact', {
		'When the failed execution started': [{ json: { since, template } }],
		'Template messages since then': listed.map((json) => ({ json })),
		'The contacts it was sending to': [
			{ json: { phone: '+91 98765 43210' } },
			{ json: { phone: '+919876543211' } },
		],
	}).map((item) => item.json);

describe('what a crash left, by contact', () => {
	it('a contact Peach lists a message to is made, one it lists none to is never made', () => {
		const listed = [
			{
				id: 'evt_1',
				status: 'sent',
				phone_number: '+919876543210',
				whats_app_template_id: 'wat_1',
			},
		];
		expect(byContact(listed, 'wat_1')).toEqual([
			{ phone: '+91 98765 43210', state: 'made', messages: [{ id: 'evt_1', status: 'sent' }] },
			{ phone: '+919876543211', state: 'neverMade' },
		]);
	});

	it('a message of another template does not make the contact made', () => {
		const listed = [
			{
				id: 'evt_1',
				status: 'sent',
				phone_number: '+919876543210',
				whats_app_template_id: 'wat_2',
			},
		];
		expect(byContact(listed, 'wat_1').map((contact) => contact.state)).toEqual([
			'neverMade',
			'neverMade',
		]);
		expect(byContact(listed).map((contact) => contact.state)).toEqual(['made', 'neverMade']);
	});

	it('reads the contact and template in the nested shapes too', () => {
		const listed = [
			{
				id: 'evt_1',
				status: 'delivered',
				contact: { phone_number: '919876543211' },
				whats_app_template: { template_name: 'welcome' },
			},
		];
		expect(byContact(listed, 'welcome').map((contact) => contact.state)).toEqual([
			'neverMade',
			'made',
		]);
	});

	it('with a message Peach lists without its contact (the documented shape), no contact is never made', () => {
		const listed = [{ id: 'evt_1', status: 'sent' }];
		const contacts = byContact(listed);
		expect(contacts.map((contact) => contact.state)).toEqual(['unknown', 'unknown']);
		expect(contacts[0].why).toBe(
			'Peach lists 1 message(s) since then without the contact or template, so it cannot say',
		);
	});

	it('with a template asked for, a listed message without a template leaves the others unknown', () => {
		const listed = [{ id: 'evt_1', status: 'sent', phone_number: '+919876543210' }];
		expect(byContact(listed, 'wat_1').map((contact) => contact.state)).toEqual([
			'unknown',
			'unknown',
		]);
	});
});

const byOrder = (orders: Array<Record<string, unknown>>) =>
	runCode(
		'Refunded, not refunded or unknown, by order',
		{ 'When the failed execution started': [{ json: { since, template: '' } }] },
		orders.map((json) => ({ json })),
	).map((item) => item.json);

describe('what a crash left, by order', () => {
	it('a refund Peach lists since the start is refunded; only older ones is not refunded', () => {
		const refund = { id: 'rfnd_1', value: 5000, created_at: '2026-12-03T10:00:05.000Z' };
		const older = { id: 'rfnd_0', value: 100, created_at: '2026-12-02T09:00:00.000Z' };
		expect(
			byOrder([
				{ id: 'wa_ord_1', status: 'completed', refunds: [older, refund] },
				{ id: 'wa_ord_2', status: 'completed', refunds: [older] },
				{ id: 'wa_ord_3', status: 'completed', payment: { refunds: [] } },
			]),
		).toEqual([
			{ order: 'wa_ord_1', status: 'completed', state: 'refunded', refunds: [refund] },
			{ order: 'wa_ord_2', status: 'completed', state: 'notRefunded' },
			{ order: 'wa_ord_3', status: 'completed', state: 'notRefunded' },
		]);
	});

	it('a refund without a date, a refunded total or only id and status leave the order unknown', () => {
		const orders = byOrder([
			{ id: 'wa_ord_1', status: 'completed', refunds: [{ id: 'rfnd_1', value: 5000 }] },
			{ id: 'wa_ord_2', status: 'completed', refunded_amount: 5000 },
			{ id: 'wa_ord_3', status: 'pending' },
			{ id: 'wa_ord_4', status: 'partially_refunded' },
		]);
		expect(orders.map((order) => order.state)).toEqual([
			'unknown',
			'unknown',
			'unknown',
			'unknown',
		]);
		expect(orders[1].why).toBe('Peach shows 5000 refunded in all, not when');
	});

	it('a refunded total of 0 is not refunded; a status refunded in full is refunded', () => {
		expect(
			byOrder([
				{ id: 'wa_ord_1', status: 'completed', amount_refunded: 0 },
				{ id: 'wa_ord_2', status: 'REFUNDED' },
			]).map((order) => order.state),
		).toEqual(['notRefunded', 'refunded']);
	});
});
