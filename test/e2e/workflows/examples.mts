/** The example workflows `npm run dev` imports into n8n. */
import { randomUUID } from 'node:crypto';

import { chain, codeNode, type Json, PACKAGE_NAME, peachNode } from '../n8n.mts';

/** Fixed so the sandbox can be told where the example trigger listens. */
export const TRIGGER_WEBHOOK_ID = 'peach-dev-trigger';

function manual(): Json {
	return {
		id: randomUUID(),
		name: 'When clicking "Execute workflow"',
		type: 'n8n-nodes-base.manualTrigger',
		typeVersion: 1,
		position: [0, 0],
		parameters: {},
	};
}

function linear(name: string, nodes: Json[]) {
	return {
		name,
		nodes,
		connections: chain(...nodes.map((node) => node.name as string)),
		publish: false,
	};
}

function deliveryTrigger() {
	const trigger: Json = {
		id: randomUUID(),
		name: 'Peach Trigger',
		type: `${PACKAGE_NAME}.peachTrigger`,
		typeVersion: 1,
		position: [0, 0],
		webhookId: TRIGGER_WEBHOOK_ID,
		parameters: {
			events: ['message_delivery.delivered', 'message_delivery.failed', 'message_delivery.sent'],
			verification: 'none',
			options: {},
		},
	};
	const summary: Json = {
		id: randomUUID(),
		name: 'Summarise',
		type: 'n8n-nodes-base.set',
		typeVersion: 3.4,
		position: [260, 0],
		parameters: {
			mode: 'manual',
			assignments: {
				assignments: [
					{
						id: randomUUID(),
						name: 'summary',
						type: 'string',
						value:
							'={{ $json.event }} for {{ $json.contact.phone_number }} (message {{ $json.message.id }})',
					},
				],
			},
			options: {},
		},
	};
	return {
		...linear('Peach example: react to delivery webhooks', [trigger, summary]),
		publish: true,
	};
}

export function exampleWorkflows(credential: { id: string; name: string }) {
	return [
		deliveryTrigger(),
		linear('Peach example: send a template message', [
			manual(),
			peachNode(
				{
					resource: 'templateMessage',
					operation: 'send',
					phoneNumber: '+919988776655',
					templateId: {
						__rl: true,
						mode: 'list',
						value: 'wat_welcome',
						cachedResultName: 'welcome (en, approved)',
					},
					variablesInput: 'fields',
					variables: { values: [{ key: 'first_name', value: 'Asha' }] },
					contactFields: { name: 'Asha Rao' },
					additionalFields: {},
				},
				credential,
				'Send welcome template',
			),
		]),
		linear('Peach example: send and wait for delivery', [
			manual(),
			peachNode(
				{
					resource: 'templateMessage',
					operation: 'send',
					phoneNumber: '+919988776655',
					templateId: {
						__rl: true,
						mode: 'list',
						value: 'wat_welcome',
						cachedResultName: 'welcome (en, approved)',
					},
					variablesInput: 'template',
					variablesMapped: {
						mappingMode: 'defineBelow',
						value: { first_name: 'Asha' },
						matchingColumns: [],
						schema: [
							{
								id: 'first_name',
								displayName: 'first_name (e.g. Asha)',
								required: true,
								defaultMatch: false,
								canBeUsedToMatch: false,
								display: true,
								type: 'string',
							},
						],
					},
					contactFields: { name: 'Asha Rao' },
					waitForDelivery: true,
					waitTimeout: 60,
					additionalFields: {},
				},
				credential,
				'Send and wait for delivery',
				1.1,
			),
		]),
		linear('Peach example: broadcast to a list', [
			manual(),
			codeNode(
				[
					'// A list as it might come from a spreadsheet: one item per contact.',
					'return [',
					"  { json: { phone: '+919988776655', name: 'Asha' } },",
					"  { json: { phone: '+2348012345678', name: 'Ben' } },",
					"  { json: { phone: '+33612345678', name: 'Chloé' } },",
					'];',
				].join('\n'),
				'Contacts',
			),
			peachNode(
				{
					resource: 'broadcast',
					operation: 'launch',
					name: 'Spring sale',
					templateId: {
						__rl: true,
						mode: 'list',
						value: 'wat_welcome',
						cachedResultName: 'welcome (en, approved)',
					},
					variablesInput: 'fields',
					variables: {},
					recipients: 'items',
					contactPhoneNumber: '={{ $json.phone }}',
					contactName: '={{ $json.name }}',
					contactVariables: { values: [{ key: 'first_name', value: '={{ $json.name }}' }] },
					deliveryMode: 'instant',
					additionalFields: {},
				},
				credential,
				'Launch one broadcast for all',
				1.1,
			),
		]),
		linear('Peach example: activate a trigger', [
			manual(),
			peachNode(
				{
					resource: 'trigger',
					operation: 'update',
					automationId: {
						__rl: true,
						mode: 'list',
						value: 'strm_welcome',
						cachedResultName: 'Welcome journey (published)',
					},
					triggerId: {
						__rl: true,
						mode: 'list',
						value: 'trig_order_paid',
						cachedResultName: 'Order paid (draft, trig_order_paid)',
					},
					activation: 'activate',
					updateFields: {},
				},
				credential,
				'Activate trigger',
			),
		]),
		linear('Peach example: create an automation', [
			manual(),
			peachNode(
				{
					resource: 'automation',
					operation: 'create',
					name: 'Order follow-up',
					additionalFields: {
						description: 'Thanks buyers after delivery',
						definition: JSON.stringify(
							{
								start_step: 'thanks',
								steps: {
									thanks: {
										type: 'send_message',
										payload: { message: { text: 'Thanks for your order!' } },
									},
								},
							},
							null,
							2,
						),
					},
				},
				credential,
				'Create automation',
			),
		]),
	];
}
