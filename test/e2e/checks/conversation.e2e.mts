/** Real-n8n checks of the Conversation resource. */
import { nodeOutput } from '../n8n.mts';
import { assert, assertEqual, type Check, runPeachWorkflow } from '../suite.mts';

export const conversationChecks: Check[] = [
	{
		name: 'conversations: list, messages, update status, assign an agent, close',
		fn: async (ctx) => {
			const list = await runPeachWorkflow(ctx, 'e2e-conversations', {
				resource: 'conversation',
				operation: 'getMany',
				returnAll: true,
				filters: { status: 'open', escalated: true },
			});
			assertEqual(
				nodeOutput(list.execution, 'Peach').map((item) => item.id),
				['conv_ct_asha'],
				'open escalated',
			);
			assertEqual(
				list.requests[0]?.query,
				{ status: 'open', escalated: 'true', page: '1' },
				'query',
			);
			const messages = await runPeachWorkflow(ctx, 'e2e-messages', {
				resource: 'conversation',
				operation: 'getManyMessages',
				returnAll: true,
				filters: { phoneNumber: '+919988776655', direction: 'outbound' },
			});
			assertEqual(nodeOutput(messages.execution, 'Peach').length, 1, 'messages');
			const status = await runPeachWorkflow(ctx, 'e2e-conversation-status', {
				resource: 'conversation',
				operation: 'updateStatus',
				conversationId: { __rl: true, mode: 'list', value: 'conv_ct_ben' },
				status: 'pending',
			});
			assertEqual(nodeOutput(status.execution, 'Peach')[0]?.status, 'pending', 'status');
			const assign = await runPeachWorkflow(ctx, 'e2e-assign-agent', {
				resource: 'conversation',
				operation: 'assignAgent',
				phoneNumber: '+2348012345678',
				contactName: 'Ben Okafor',
				agentEmail: 'agent@example.com',
				openChat: true,
				bodyFormat: 'schema',
			});
			assertEqual(assign.execution.status, 'success', 'assign');
			assertEqual(
				(assign.requests[0]?.body as { assign_agent: unknown }).assign_agent,
				{ agent_email: 'agent@example.com', open_chat_on_assignment: true },
				'assign body',
			);
			const close = await runPeachWorkflow(ctx, 'e2e-close', {
				resource: 'conversation',
				operation: 'close',
				phoneNumber: '+2348012345678',
				contactName: 'Ben Okafor',
			});
			assertEqual(close.execution.status, 'success', 'close');
			assert(
				ctx.sandbox.state.conversations.find((c) => c.id === 'conv_ct_ben')?.status === 'closed',
				'not closed',
			);
		},
	},
	{
		name: "conversations: Get Many Activities (GET /activities, from Peach's API skill) reads every page of the log",
		fn: async (ctx) => {
			const { execution, requests } = await runPeachWorkflow(ctx, 'e2e-activities', {
				resource: 'conversation',
				operation: 'getManyActivities',
				returnAll: true,
				query: { values: [{ key: 'conversation_id', value: 'conv_ct_asha' }] },
			});
			assertEqual(execution.status, 'success', 'execution status');
			const expected = ctx.sandbox.state.activities.filter(
				(activity) => activity.conversation_id === 'conv_ct_asha',
			);
			assert(expected.length >= 2, `the sandbox logged ${expected.length} activities`);
			assertEqual(
				nodeOutput(execution, 'Peach').map((item) => item.id),
				expected.map((activity) => activity.id),
				'activities',
			);
			assertEqual(requests[0]?.query, { conversation_id: 'conv_ct_asha', page: '1' }, 'query');
		},
	},
];
