/**
 * Real-n8n checks of the Template Message operations beyond a plain Send: variables read from the
 * template (resource mapper), Wait for Delivery, Get Status, Get Many Statuses, Connect to AI Agent
 * and Send App Message.
 */
import { nodeOutput, PACKAGE_NAME } from '../n8n.mts';
import { assert, assertEqual, type Check, runPeachWorkflow } from '../suite.mts';

const locator = (value: string) => ({ __rl: true, mode: 'id', value });

export const templateMessageMoreChecks: Check[] = [
	{
		name: "send: the template's variables come from the template itself (resource mapper), ",
		fn: async (ctx) => {
			const fields = await ctx.client.rest(
				'POST',
				'/dynamic-node-parameters/resource-mapper-fields',
				{
					path: 'variablesMapped',
					nodeTypeAndVersion: { name: `${PACKAGE_NAME}.peach`, version: 1 },
					currentNodeParameters: {
						resource: 'templateMessage',
						operation: 'send',
						templateId: { __rl: true, mode: 'list', value: 'wat_welcome' },
					},
					methodName: 'getTemplateVariables',
					credentials: { peachMessagingApi: ctx.credential },
				},
			);
			assertEqual(
				(fields.fields as Array<{ id: string; displayName: string }>).map((f) => [
					f.id,
					f.displayName,
				]),
				[['first_name', 'first_name (e.g. Asha)']],
				'mapper fields',
			);
			const { execution, requests } = await runPeachWorkflow(
				ctx,
				'e2e-send-mapper',
				{
					resource: 'templateMessage',
					operation: 'send',
					phoneNumber: '={{ $json.body.phone }}',
					templateId: {
						__rl: true,
						mode: 'list',
						value: 'wat_welcome',
						cachedResultName: 'welcome',
					},
					variablesMapped: {
						mappingMode: 'defineBelow',
						value: { first_name: '={{ $json.body.name }}' },
						matchingColumns: [],
						schema: fields.fields,
					},
					contactFields: {},
					additionalFields: {},
				},
				{ phone: '+919988776655', name: 'Asha' },
			);
			assertEqual(execution.status, 'success', 'execution status');
			assertEqual(
				requests[0]?.body,
				{
					event_type: 'send_template_message',
					contact: { phone_number: '+919988776655' },
					template_message: {
						whats_app_template_id: 'wat_welcome',
						liquid_values: { first_name: 'Asha' },
					},
				},
				'request body',
			);
		},
	},
	{
		name: 'send with Wait for Delivery polls the status until delivered (one send, then GETs)',
		fn: async (ctx) => {
			const { execution, requests } = await runPeachWorkflow(
				ctx,
				'e2e-send-wait',
				{
					resource: 'templateMessage',
					operation: 'send',
					phoneNumber: '+919988776655',
					templateId: locator('wat_welcome'),
					variablesInput: 'fields',
					variables: { values: [{ key: 'first_name', value: 'Asha' }] },
					contactFields: {},
					waitForDelivery: true,
					waitTimeout: 30,
					additionalFields: {},
				},
				{},
			);
			assertEqual(execution.status, 'success', 'execution status');
			const [output] = nodeOutput(execution, 'Peach');
			assertEqual(output.deliveryStatus, 'delivered', 'delivery status');
			assertEqual((output.delivery as { final: boolean }).final, true, 'final');
			assertEqual(requests.filter((r) => r.method === 'POST').length, 1, 'sends');
			assert(requests.filter((r) => r.method === 'GET').length >= 1, 'no status polls');
		},
	},
	{
		name: 'get status of a sent message, and get many statuses',
		fn: async (ctx) => {
			const eventId = ctx.sandbox.state.events.find(
				(event) => event.event_type === 'send_template_message',
			)?.id;
			assert(eventId, 'no earlier send in the sandbox');
			const status = await runPeachWorkflow(
				ctx,
				'e2e-get-status',
				{
					resource: 'templateMessage',
					operation: 'getStatus',
					eventId: '={{ $json.body.event_id }}',
				},
				{ event_id: eventId },
			);
			const [out] = nodeOutput(status.execution, 'Peach');
			assertEqual(
				[out.eventStatus, out.messageStatus, out.id],
				['processed', 'delivered', eventId],
				'status output',
			);
			assertEqual(
				status.requests.map((r) => `${r.method} ${r.path}`),
				[`GET /api/v1/events/${eventId}`],
				'request',
			);
			const many = await runPeachWorkflow(ctx, 'e2e-get-many-statuses', {
				resource: 'templateMessage',
				operation: 'getManyStatuses',
				returnAll: false,
				limit: 2,
				filters: {},
			});
			assertEqual(nodeOutput(many.execution, 'Peach').length, 2, 'items');
			assertEqual(many.requests[0]?.query, { page: '1', per: '2' }, 'query');
		},
	},
	{
		name: 'connect to AI agent and send app message reach the sandbox with the documented bodies',
		fn: async (ctx) => {
			const agent = await runPeachWorkflow(ctx, 'e2e-ai-agent', {
				resource: 'templateMessage',
				operation: 'connectToAiAgent',
				phoneNumber: '+919988776655',
				templateId: locator('wat_welcome'),
				variablesInput: 'json',
				variablesJson: '{"first_name": "Asha"}',
				aiAgentId: 'aiflw_support',
				contactFields: {},
				additionalFields: {},
			});
			assertEqual(agent.execution.status, 'success', 'agent execution');
			assertEqual(
				(agent.requests[0]?.body as { ai_agent: unknown }).ai_agent,
				{ id: 'aiflw_support' },
				'ai_agent',
			);
			const app = await runPeachWorkflow(ctx, 'e2e-app-message', {
				resource: 'templateMessage',
				operation: 'sendAppMessage',
				phoneNumber: '+919988776655',
				appId: 'flw_feedback',
				useFallbackTemplate: true,
				templateId: locator('wat_welcome'),
				variablesInput: 'fields',
				variables: {
					values: [
						{ key: 'first_name', value: 'Asha' },
						{ key: 'order_id', value: 'A-7' },
					],
				},
				contactFields: {},
			});
			assertEqual(app.execution.status, 'success', 'app execution');
			assertEqual(
				(app.requests[0]?.body as { flow: unknown }).flow,
				{
					id: 'flw_feedback',
					liquid_values: { first_name: 'Asha', order_id: 'A-7' },
					whats_app_template_id: 'wat_welcome',
				},
				'flow block',
			);
		},
	},
];
