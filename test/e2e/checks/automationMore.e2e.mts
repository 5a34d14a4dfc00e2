/**
 * Real-n8n checks of Media list/delete, Automation get/list/update/trigger, Trigger list/create from a
 * condition picked in the list, and the Condition Library.
 */
import { nodeError, nodeOutput, PACKAGE_NAME } from '../n8n.mts';
import { assert, assertEqual, type Check, runPeachWorkflow } from '../suite.mts';

const id = (value: string) => ({ __rl: true, mode: 'id', value });

export const automationMoreChecks: Check[] = [
	{
		name: 'an automation created, updated to published with a definition Peach rejects (reason shown), fixed, then triggered',
		fn: async (ctx) => {
			const created = await runPeachWorkflow(ctx, 'e2e-auto-create', {
				resource: 'automation',
				operation: 'create',
				name: 'Triggerable',
				additionalFields: {},
			});
			const automationId = String(nodeOutput(created.execution, 'Peach')[0]?.id);
			const rejected = await runPeachWorkflow(ctx, 'e2e-auto-publish-bad', {
				resource: 'automation',
				operation: 'update',
				automationId: id(automationId),
				updateFields: { status: 'published', definition: '{"start_step": "missing", "steps": {}}' },
			});
			assertEqual(
				nodeError(rejected.execution, 'Peach')?.message,
				'definition: start_step "missing" is not one of the steps',
				'publish reason',
			);
			const fixed = await runPeachWorkflow(ctx, 'e2e-auto-publish', {
				resource: 'automation',
				operation: 'update',
				automationId: id(automationId),
				updateFields: {
					status: 'published',
					definition:
						'{"start_step": "hi", "steps": {"hi": {"type": "send_message", "payload": {"message": {"text": "Hi"}}}}}',
				},
			});
			assertEqual(nodeOutput(fixed.execution, 'Peach')[0]?.status, 'published', 'published');
			const triggered = await runPeachWorkflow(ctx, 'e2e-auto-trigger', {
				resource: 'automation',
				operation: 'trigger',
				automationId: id(automationId),
				phoneNumber: '+919988776655',
				contactFields: {},
				payloadInput: 'fields',
				payload: { values: [{ key: 'order_id', value: 'A-7' }] },
			});
			assertEqual(triggered.execution.status, 'success', 'trigger');
			assertEqual(
				ctx.sandbox.state.automationRuns.at(-1)?.body,
				{ contact: { phone_number: '+919988776655' }, order_id: 'A-7' },
				'run body',
			);
			const got = await runPeachWorkflow(ctx, 'e2e-auto-get', {
				resource: 'automation',
				operation: 'get',
				automationId: id(automationId),
			});
			assertEqual(nodeOutput(got.execution, 'Peach')[0]?.name, 'Triggerable', 'get');
			const many = await runPeachWorkflow(ctx, 'e2e-auto-many', {
				resource: 'automation',
				operation: 'getMany',
				returnAll: true,
				filters: {},
			});
			assert(
				nodeOutput(many.execution, 'Peach').some((item) => item.id === automationId),
				'not listed',
			);
		},
	},
	{
		name: 'a trigger created from a condition picked in the list, and activated; triggers and conditions listed',
		fn: async (ctx) => {
			const conditions = await ctx.client.rest(
				'POST',
				'/dynamic-node-parameters/resource-locator-results',
				{
					path: 'conditionId',
					nodeTypeAndVersion: { name: `${PACKAGE_NAME}.peach`, version: 1 },
					currentNodeParameters: { resource: 'automationTrigger', operation: 'create' },
					methodName: 'searchConditions',
					filter: 'abandoned',
					credentials: { peachMessagingApi: ctx.credential },
				},
			);
			const [picked] = conditions.results as Array<{ name: string; value: string }>;
			assertEqual(
				picked,
				{ name: 'Abandoned Cart Created (Peach)', value: 'exp_cart' },
				'picked condition',
			);
			const created = await runPeachWorkflow(ctx, 'e2e-trigger-create', {
				resource: 'automationTrigger',
				operation: 'create',
				automationId: { __rl: true, mode: 'list', value: 'strm_welcome' },
				conditionId: {
					__rl: true,
					mode: 'list',
					value: picked.value,
					cachedResultName: picked.name,
				},
				activate: true,
				additionalFields: { description: 'Cart reminder' },
			});
			const trigger = nodeOutput(created.execution, 'Peach')[0];
			assertEqual(
				[trigger?.status, (trigger?.condition as { expression_id: string })?.expression_id],
				['active', 'exp_cart'],
				'trigger',
			);
			assert(
				ctx.sandbox.state.registrations.some((entry) => entry.trigger_id === trigger.id),
				'no registration',
			);
			const ambiguous = await runPeachWorkflow(ctx, 'e2e-trigger-ambiguous', {
				resource: 'automationTrigger',
				operation: 'create',
				automationId: id('strm_welcome'),
				conditionId: id('Order Paid'),
				activate: false,
				additionalFields: {},
			});
			assert(
				String(nodeError(ambiguous.execution, 'Peach')?.description).includes('set Source'),
				'ambiguous condition without its fix',
			);
			const triggers = await runPeachWorkflow(ctx, 'e2e-trigger-many', {
				resource: 'automationTrigger',
				operation: 'getMany',
				automationId: id('strm_welcome'),
				returnAll: true,
			});
			assert(
				nodeOutput(triggers.execution, 'Peach').some((item) => item.id === trigger.id),
				'trigger not listed',
			);
			const library = await runPeachWorkflow(ctx, 'e2e-conditions', {
				resource: 'conditionLibrary',
				operation: 'getMany',
				returnAll: true,
				filters: { source: 'stripe' },
			});
			assertEqual(
				nodeOutput(library.execution, 'Peach').map((item) => item.id),
				['exp_stripe_paid'],
				'conditions',
			);
		},
	},
	{
		name: 'media list and delete',
		fn: async (ctx) => {
			const list = await runPeachWorkflow(ctx, 'e2e-media-list', {
				resource: 'media',
				operation: 'getMany',
				returnAll: true,
			});
			const ids = nodeOutput(list.execution, 'Peach').map((item) => item.id);
			assert(ids.includes(11), 'seeded media not listed');
			const gone = await runPeachWorkflow(ctx, 'e2e-media-delete', {
				resource: 'media',
				operation: 'delete',
				mediaId: id('11'),
			});
			assertEqual(nodeOutput(gone.execution, 'Peach')[0], { deleted: true, id: '11' }, 'deleted');
		},
	},
];
