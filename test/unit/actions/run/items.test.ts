import { WorkflowExecute } from 'n8n-core';
import {
	createRunExecutionData,
	type IDataObject,
	type INode,
	type INodeExecutionData,
	type INodeTypes,
	Workflow,
} from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { Peach } from '../../../../nodes/Peach/Peach.node';
import { type FakeResponse, locator, node, runPeach } from '../../support/harness';
import { send } from '../../support/recoveryRuns';
import { approvalRequestRead as template } from '../../support/templates';

/**
 * On Error → Continue (using error output): n8n-core's own routing (`WorkflowExecute.
 * handleNodeErrorOutput`, n8n-core 2.40) takes the node's output and moves the failed items to the
 * error output. One operation of every resource (per item, batch, delivering, Send and Wait): the
 * failed items, and only they, leave there, paired to their input items.
 */

const peach: INode = { ...node, position: [200, 0], onError: 'continueErrorOutput' };

/** n8n-core routes the node's outputs as in a workflow "Input → Peach" with the error output on. */
function route(inputs: IDataObject[], outputs: INodeExecutionData[][]) {
	const input: INode = {
		...node,
		id: 'input-1',
		name: 'Input',
		type: 'n8n-nodes-base.manualTrigger',
	};
	const peachType = new Peach();
	const nodeTypes = {
		getByName: () => peachType,
		getByNameAndVersion: (type: string) =>
			type === peach.type
				? peachType
				: { description: { inputs: [], outputs: ['main'], properties: [] } },
		getKnownTypes: () => ({}),
	} as unknown as INodeTypes;
	const workflow = new Workflow({
		id: 'wf-1',
		nodes: [input, peach],
		connections: { Input: { main: [[{ node: 'Peach', type: 'main', index: 0 }]] } },
		active: false,
		nodeTypes,
		staticData: {},
	});
	const items = inputs.map((json) => ({ json }));
	const runExecutionData = createRunExecutionData({
		resultData: {
			runData: {
				Input: [
					{
						startTime: 0,
						executionTime: 0,
						executionIndex: 0,
						source: [],
						data: { main: [items] },
					},
				],
			},
		},
	});
	const base = 'http://n8n.test';
	const execute = new WorkflowExecute(
		{
			variables: {},
			executionId: '1',
			instanceBaseUrl: base,
			restApiUrl: `${base}/rest`,
			webhookBaseUrl: `${base}/webhook`,
			webhookWaitingBaseUrl: `${base}/webhook-waiting`,
			formWaitingBaseUrl: `${base}/form-waiting`,
		} as never,
		'manual',
		runExecutionData,
	);
	const routed = outputs.map((output) => [...output]);
	execute.handleNodeErrorOutput(
		workflow,
		{ node: peach, data: { main: [items] }, source: { main: [{ previousNode: 'Input' }] } },
		routed,
		0,
	);
	return { success: routed[0], error: routed[1] ?? [] };
}

const notFound: FakeResponse = { statusCode: 404, body: { message: 'Not found' } };
const refused: FakeResponse = {
	statusCode: 422,
	body: { status: 'failed', reason: { contact: { phone_number: ['is blocked'] } } },
};

interface Case {
	operation: string;
	/** Parameters per input item; the last item fails. */
	params: Array<Record<string, unknown>>;
	responses: FakeResponse[];
	/** Template reads answered from `responses` (harness.ts): for the operation that reads one. */
	templates?: 'responses';
}

const cases: Case[] = [
	{
		operation: 'Contact → Create or Update',
		params: ['+919900000001', '+919900000002'].map((phoneNumber) => ({
			resource: 'contact',
			operation: 'upsert',
			phoneNumber,
			additionalFields: {},
		})),
		responses: [{ statusCode: 200, body: { id: 'c_1' } }, refused],
	},
	{
		operation: 'Contact → Create Many (one request for the items)',
		params: ['+919900000001', 'not a phone'].map((phoneNumber) => ({
			resource: 'contact',
			operation: 'createMany',
			phoneNumber,
			contactFields: {},
		})),
		responses: [{ statusCode: 200, body: { contacts: [{ phone_number: '+919900000001' }] } }],
	},
	{
		operation: 'Conversation → Close',
		params: ['+919900000001', '+919900000002'].map((phoneNumber) => ({
			resource: 'conversation',
			operation: 'close',
			phoneNumber,
			contactName: 'Asha',
		})),
		responses: [{ statusCode: 200, body: { status: 'success', event_id: 'evt_1' } }, refused],
	},
	{
		operation: 'Template Message → Send',
		params: ['+919900000001', '+919900000002'].map((phoneNumber) => ({
			...send(phoneNumber),
			requestOptions: { concurrency: 1 },
		})),
		responses: [{ statusCode: 201, body: { status: 'success', event_id: 'evt_1' } }, refused],
	},
	{
		operation: 'Template Message → Send and Wait (one item per execution, its phone number bad)',
		params: ['not a phone'].map((phoneNumber) => ({
			resource: 'templateMessage',
			operation: 'sendAndWait',
			phoneNumber,
			templateId: locator('wat_approval'),
			message: 'Refund order A-7?',
			messageVariable: 'message',
			linkVariable: 'approval_link',
		})),
		responses: [template],
	},
	{
		operation: 'Broadcast → Launch (one broadcast from the items)',
		params: ['+919900000001', 'not a phone'].map((contactPhoneNumber) => ({
			resource: 'broadcast',
			operation: 'launch',
			name: 'Spring',
			templateId: locator('wat_welcome'),
			variablesInput: 'fields',
			variables: {},
			recipients: 'items',
			contactPhoneNumber,
			deliveryMode: 'instant',
		})),
		responses: [{ statusCode: 200, body: { status: 'success', event_id: 'evt_b' } }],
	},
	{
		operation: 'WhatsApp Template → Get',
		params: ['order_ready', 'gone'].map((id) => ({
			resource: 'whatsAppTemplate',
			operation: 'get',
			templateId: locator(id, 'id'),
		})),
		responses: [{ statusCode: 200, body: { id: 'order_ready' } }, notFound],
		// The read is what this operation does, not the check before a send.
		templates: 'responses',
	},
	{
		operation: 'Automation → Get',
		params: ['strm_1', 'strm_gone'].map((id) => ({
			resource: 'automation',
			operation: 'get',
			automationId: locator(id, 'id'),
		})),
		responses: [{ statusCode: 200, body: { id: 'strm_1' } }, notFound],
	},
	{
		operation: 'Automation Trigger → Update',
		params: ['trig_1', 'trig_gone'].map((id) => ({
			resource: 'automationTrigger',
			operation: 'update',
			automationId: locator('strm_1', 'id'),
			triggerId: locator(id, 'id'),
			activation: 'activate',
			updateFields: {},
		})),
		responses: [{ statusCode: 200, body: { id: 'trig_1', active: true } }, notFound],
	},
	{
		operation: 'Media → Delete',
		params: ['12', '13'].map((id) => ({
			resource: 'media',
			operation: 'delete',
			mediaId: locator(id, 'id'),
		})),
		responses: [{ statusCode: 204 }, notFound],
	},
	{
		operation: 'Order → Get',
		params: ['wa_ord_1', 'wa_ord_gone'].map((orderId) => ({
			resource: 'order',
			operation: 'get',
			orderId,
		})),
		responses: [{ statusCode: 200, body: { id: 'wa_ord_1' } }, notFound],
	},
	{
		operation: 'Condition Library → Get Many',
		params: ['stripe', 'shopify'].map((source) => ({
			resource: 'conditionLibrary',
			operation: 'getMany',
			returnAll: true,
			filters: { source },
		})),
		responses: [
			{ statusCode: 200, body: { count: 1, next: null, expressions: [{ id: 'exp_1' }] } },
			notFound,
		],
	},
];

describe('On Error → Continue (using error output): n8n routes the failed items to the error output', () => {
	it.each(cases)('$operation', async ({ params, responses, templates }) => {
		const inputs = params.map((_, index) => ({ row: index + 1 }));
		const { output } = await runPeach({
			params,
			responses,
			templates,
			inputs,
			continueOnFail: true,
		});
		expect(output).not.toBeInstanceOf(Error);
		const { success, error } = route(inputs, output as INodeExecutionData[][]);
		// The failed last item alone, paired to its input (n8n adds the input's fields to it).
		const last = params.length - 1;
		expect(error.map((item) => [item.json.row, item.pairedItem])).toEqual([
			[last + 1, { item: last }],
		]);
		expect(error[0].json.error).toEqual(expect.any(String));
		// The others are on the success output (Send and Wait has one item per execution).
		expect(success.length > 0).toBe(last > 0);
		expect(success.every((item) => item.json.error === undefined)).toBe(true);
	});
});
