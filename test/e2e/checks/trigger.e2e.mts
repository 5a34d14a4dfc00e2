/** Real-n8n checks of Trigger → Update (activate, pause, unknown id). */
import { nodeError, nodeOutput, type Json } from '../n8n.mts';
import { assert, assertEqual, type Check, runPeachWorkflow } from '../suite.mts';

export const triggerChecks: Check[] = [
	{
		name: 'update trigger: activate registers webhooks, pause pauses',
		fn: async (ctx) => {
			const parameters = (activation: string): Json => ({
				resource: 'automationTrigger',
				operation: 'update',
				automationId: { __rl: true, mode: 'list', value: 'strm_welcome' },
				triggerId: { __rl: true, mode: 'id', value: 'trig_order_paid' },
				activation,
				updateFields: { description: `Order paid (${activation})` },
			});
			const activated = await runPeachWorkflow(ctx, 'e2e-trigger-activate', parameters('activate'));
			assertEqual(activated.execution.status, 'success', 'activate execution status');
			assertEqual(
				activated.requests.map((r) => [r.method, r.path, r.body]),
				[
					[
						'PATCH',
						'/api/v1/triggers/trig_order_paid',
						{ description: 'Order paid (activate)', activate: true },
					],
				],
				'activate request',
			);
			assertEqual(
				nodeOutput(activated.execution, 'Peach')[0]?.status,
				'active',
				'trigger status after activate',
			);
			assert(
				ctx.sandbox.state.registrations.some((entry) => entry.trigger_id === 'trig_order_paid'),
				'no webhook registration recorded',
			);

			const paused = await runPeachWorkflow(ctx, 'e2e-trigger-pause', parameters('pause'));
			assertEqual(
				paused.requests.map((r) => r.body),
				[{ description: 'Order paid (pause)', activate: false }],
				'pause request',
			);
			assertEqual(
				nodeOutput(paused.execution, 'Peach')[0]?.status,
				'paused',
				'trigger status after pause',
			);
		},
	},
	{
		name: 'update trigger: an unknown id fails naming the trigger',
		fn: async (ctx) => {
			const { execution } = await runPeachWorkflow(ctx, 'e2e-trigger-404', {
				resource: 'automationTrigger',
				operation: 'update',
				triggerId: { __rl: true, mode: 'id', value: 'trig_nope' },
				activation: 'activate',
				updateFields: {},
			});
			assertEqual(execution.status, 'error', 'execution status');
			assertEqual(
				nodeError(execution, 'Peach')?.message,
				'Trigger "trig_nope" was not found in Peach (Trigger not found)',
				'error message',
			);
		},
	},
];
