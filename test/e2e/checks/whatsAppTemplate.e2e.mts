/** Real-n8n checks of the WhatsApp Template resource: create, submit, list, get, update, pause, archive. */
import { nodeError, nodeOutput } from '../n8n.mts';
import { assert, assertEqual, type Check, runPeachWorkflow } from '../suite.mts';

const templateLocator = (value: string) => ({ __rl: true, mode: 'id', value });

export const whatsAppTemplateChecks: Check[] = [
	{
		name: 'a template is created, submitted and listed; get, update, pause and archive',
		fn: async (ctx) => {
			const created = await runPeachWorkflow(ctx, 'e2e-template-create', {
				resource: 'whatsAppTemplate',
				operation: 'create',
				templateName: 'e2e_order_ready',
				language: 'en',
				category: 'UTILITY',
				componentsInput: 'fields',
				headerType: 'none',
				bodyText: "Hi {{first_name | example: 'Ana'}}, your order is ready.",
				footerText: 'Peach Store',
				buttons: { button: [{ type: 'quick_reply', text: 'Thanks' }] },
				additionalFields: { wabaId: '456' },
			});
			assertEqual(created.execution.status, 'success', 'create');
			const template = nodeOutput(created.execution, 'Peach')[0];
			assertEqual(template.status, 'draft', 'created status');
			const body = created.requests[0].body as {
				whats_app_template: { whats_app_business_account_id: unknown };
			};
			assertEqual(
				body.whats_app_template.whats_app_business_account_id,
				456,
				'WABA id as a number',
			);
			const id = String(template.id);

			const submitted = await runPeachWorkflow(ctx, 'e2e-template-submit', {
				resource: 'whatsAppTemplate',
				operation: 'submit',
				templateId: templateLocator(id),
			});
			assertEqual(nodeOutput(submitted.execution, 'Peach')[0]?.status, 'pending', 'submitted');
			const listed = await runPeachWorkflow(ctx, 'e2e-template-list', {
				resource: 'whatsAppTemplate',
				operation: 'getMany',
				returnAll: true,
				filters: { status: 'pending' },
			});
			assert(
				nodeOutput(listed.execution, 'Peach').some((item) => item.id === id),
				'not listed as pending',
			);

			const got = await runPeachWorkflow(ctx, 'e2e-template-get', {
				resource: 'whatsAppTemplate',
				operation: 'get',
				templateId: templateLocator('e2e_order_ready'),
			});
			const components = nodeOutput(got.execution, 'Peach')[0]?.components as Array<{
				id: string;
				component_type: string;
			}>;
			const bodyId = components.find((component) => component.component_type === 'body')?.id;
			assert(bodyId, 'no body component');
			const updated = await runPeachWorkflow(ctx, 'e2e-template-update', {
				resource: 'whatsAppTemplate',
				operation: 'update',
				templateId: templateLocator(id),
				components: {
					component: [
						{ id: bodyId, change: 'update', value: "Hi {{first_name | example: 'Ana'}}!" },
					],
				},
				updateFields: { folder: 'orders' },
			});
			assertEqual(nodeOutput(updated.execution, 'Peach')[0]?.folder, 'orders', 'update');

			// Meta's review is not something the sandbox can do: approve by hand, then pause.
			await fetch(`${ctx.sandbox.url}/__sandbox/templates/${id}/status`, {
				method: 'POST',
				headers: { 'Content-Type': 'application/json' },
				body: JSON.stringify({ status: 'approved' }),
			});
			const paused = await runPeachWorkflow(ctx, 'e2e-template-pause', {
				resource: 'whatsAppTemplate',
				operation: 'pause',
				templateId: templateLocator(id),
			});
			assertEqual(nodeOutput(paused.execution, 'Peach')[0]?.status, 'paused', 'pause');
			const archivePaused = await runPeachWorkflow(ctx, 'e2e-template-archive-paused', {
				resource: 'whatsAppTemplate',
				operation: 'archive',
				templateId: templateLocator(id),
			});
			assertEqual(
				nodeError(archivePaused.execution, 'Peach')?.message,
				'status: cannot archive a template that is paused (only approved, rejected, draft)',
				'archive refused',
			);
			const archived = await runPeachWorkflow(ctx, 'e2e-template-archive', {
				resource: 'whatsAppTemplate',
				operation: 'archive',
				templateId: templateLocator('wat_old_offer'),
			});
			assertEqual(nodeOutput(archived.execution, 'Peach')[0]?.status, 'archived', 'archive');
		},
	},
	{
		name: 'a template with problems is refused in n8n before any request, each problem named',
		fn: async (ctx) => {
			const { execution, requests } = await runPeachWorkflow(ctx, 'e2e-template-bad', {
				resource: 'whatsAppTemplate',
				operation: 'create',
				templateName: 'Bad Name',
				language: 'en',
				category: 'UTILITY',
				componentsInput: 'fields',
				headerType: 'none',
				bodyText: 'Hi {{first_name}}',
				additionalFields: {},
			});
			assertEqual(requests.length, 0, 'requests');
			const error = nodeError(execution, 'Peach');
			assertEqual(error?.message, 'Template "Bad Name" cannot be created: 3 problems', 'message');
			for (const problem of [
				'Name "Bad Name" may only have lowercase letters',
				'Body variable "first_name" has no example',
				'Body ends with the variable {{first_name}}; Meta rejects a body that ends with a variable',
			]) {
				assert(String(error?.description).includes(problem), `not named: ${problem}`);
			}
		},
	},
	{
		name: "a template is deleted (DELETE /whats_app_templates/{id}, from Peach's API skill): gone from Peach, {deleted: true} out",
		fn: async (ctx) => {
			const created = await runPeachWorkflow(ctx, 'e2e-template-to-delete', {
				resource: 'whatsAppTemplate',
				operation: 'create',
				templateName: 'e2e_to_delete',
				language: 'en',
				category: 'UTILITY',
				componentsInput: 'fields',
				headerType: 'none',
				bodyText: 'A template made to be deleted.',
				additionalFields: {},
			});
			const id = String(nodeOutput(created.execution, 'Peach')[0]?.id);
			const deleted = await runPeachWorkflow(ctx, 'e2e-template-delete', {
				resource: 'whatsAppTemplate',
				operation: 'delete',
				templateId: { __rl: true, mode: 'list', value: id },
			});
			assertEqual(deleted.execution.status, 'success', 'delete');
			assertEqual(
				deleted.requests.map((request) => `${request.method} ${request.path}`),
				[`DELETE /api/v1/whats_app_templates/${id}`],
				'requests',
			);
			assertEqual(nodeOutput(deleted.execution, 'Peach'), [{ deleted: true, id }], 'output');
			assert(!ctx.sandbox.state.templates.some((template) => template.id === id), 'still there');
		},
	},
];
