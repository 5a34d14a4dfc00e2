import type { INode } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { waitingTooltip } from '../../../../../nodes/Peach/actions/templateMessage/sendAndWait/waiting';
import { Peach } from '../../../../../nodes/Peach/Peach.node';
import { node } from '../../../support/harness';
import { peachWorkflow } from '../../../support/n8nContext';

/**
 * While Send and Wait waits, n8n's editor shows "Waiting for input" and the node's waitingNodeTooltip
 * in place of the output: evaluated by n8n's expression engine with the node's parameters, as n8n's
 * editor does (workflow.expression.getSimpleParameterValue, mode internal, with $execution).
 */
function shownWhileWaiting(parameters: INode['parameters']): string {
	const asking: INode = { ...node, id: 'n1', name: 'Ask the manager', parameters };
	const workflow = peachWorkflow(asking);
	const tooltip = new Peach().description.waitingNodeTooltip as string;
	return String(
		workflow.expression.getSimpleParameterValue(asking, tooltip, 'internal', {
			$execution: { id: '7', mode: 'test', resumeUrl: 'http://n8n.test/webhook-waiting/7' },
		} as never),
	);
}

describe('Send and Wait while it waits: who was asked what', () => {
	it('names the contact, the question and the template (its ID), as n8n evaluates the tooltip', () => {
		// Its ID: n8n gives $parameter a resource locator's value.
		expect(
			shownWhileWaiting({
				resource: 'templateMessage',
				operation: 'sendAndWait',
				phoneNumber: '+919900000001',
				message: 'Refund ₹1,200 for order A-7?',
				templateId: {
					__rl: true,
					mode: 'list',
					value: 'wat_approval',
					cachedResultName: 'approval_request',
				},
			}),
		).toBe(
			'Waiting for +919900000001 to answer "Refund ₹1,200 for order A-7?" (template wat_approval). The workflow goes on when they answer on the page their WhatsApp link opens, or when the wait time runs out.',
		);
	});

	it('a field left to an expression shows as the user wrote it; nothing known shows "the contact"', () => {
		expect(waitingTooltip({ phoneNumber: '={{ $json.manager_phone }}' })).toBe(
			'Waiting for {{ $json.manager_phone }} to answer. The workflow goes on when they answer on the page their WhatsApp link opens, or when the wait time runs out.',
		);
		expect(waitingTooltip({})).toMatch(/^Waiting for the contact to answer\. /);
		const throwing = new Proxy(
			{},
			{
				get: () => {
					throw new Error('no data');
				},
			},
		);
		expect(waitingTooltip(throwing)).toMatch(/^Waiting for the contact to answer\. /);
		expect(waitingTooltip({ message: '<b>Approve?</b>' })).toContain('"bApprove?/b"');
	});
});
