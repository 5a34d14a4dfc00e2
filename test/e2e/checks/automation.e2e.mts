/** Real-n8n checks of Automation → Create (with and without a definition, publish validation). */
import { nodeError, nodeOutput } from '../n8n.mts';
import { assertEqual, type Check, runPeachWorkflow } from '../suite.mts';

export const automationChecks: Check[] = [
	{
		name: 'create automation: without and with a definition',
		fn: async (ctx) => {
			const plain = await runPeachWorkflow(ctx, 'e2e-automation-plain', {
				resource: 'automation',
				operation: 'create',
				name: 'Backend bot',
				additionalFields: {
					businessPhoneNumber: '919000000001',
					backendUrl: 'https://example.com/backend',
				},
			});
			assertEqual(
				plain.requests.map((r) => r.body),
				[
					{
						name: 'Backend bot',
						business_phone_number: '919000000001',
						backend_url: 'https://example.com/backend',
					},
				],
				'request without definition',
			);
			const plainOut = nodeOutput(plain.execution, 'Peach')[0];
			assertEqual(
				[plainOut?.status, plainOut?.phone_number, plainOut?.execution_mode],
				['draft', '919000000001', 'backend_driven'],
				'automation without definition',
			);

			const definition = {
				start_step: 'hello',
				steps: { hello: { type: 'send_message', payload: { message: { text: 'Hi' } } } },
			};
			const withDefinition = await runPeachWorkflow(ctx, 'e2e-automation-def', {
				resource: 'automation',
				operation: 'create',
				name: 'Greeter',
				additionalFields: { definition: JSON.stringify(definition), status: 'published' },
			});
			assertEqual(
				withDefinition.requests.map((r) => r.body),
				[{ name: 'Greeter', status: 'published', definition }],
				'request with definition',
			);
			const out = nodeOutput(withDefinition.execution, 'Peach')[0];
			assertEqual(
				[out?.status, out?.execution_mode],
				['published', 'definition_driven'],
				'automation with definition',
			);
		},
	},
	{
		name: 'create automation: publishing an invalid definition fails with the reasons',
		fn: async (ctx) => {
			const { execution } = await runPeachWorkflow(ctx, 'e2e-automation-invalid', {
				resource: 'automation',
				operation: 'create',
				name: 'Broken',
				additionalFields: {
					status: 'published',
					definition: '{"start_step": "missing", "steps": {}}',
				},
			});
			assertEqual(execution.status, 'error', 'execution status');
			assertEqual(
				nodeError(execution, 'Peach')?.message,
				'definition: start_step "missing" is not one of the steps',
				'error message',
			);
		},
	},
];
