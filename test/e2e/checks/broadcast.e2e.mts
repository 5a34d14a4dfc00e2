/** Real-n8n checks of the Broadcast resource, with a 1,000-item broadcast launched as one request. */
import { codeNode, nodeError, nodeOutput } from '../n8n.mts';
import { assert, assertEqual, type Check, runPeachWorkflow } from '../suite.mts';

const broadcastLocator = (value: string) => ({ __rl: true, mode: 'id', value });

export const broadcastChecks: Check[] = [
	{
		name: 'launch: 1,000 items from a Code node become ONE broadcast request, the output paired to all',
		fn: async (ctx) => {
			const { execution, requests } = await runPeachWorkflow(
				ctx,
				'e2e-broadcast-1000',
				{
					resource: 'broadcast',
					operation: 'launch',
					name: 'Thousand',
					templateId: { __rl: true, mode: 'list', value: 'wat_welcome' },
					variablesInput: 'fields',
					variables: {},
					recipients: 'items',
					contactPhoneNumber: '={{ $json.phone }}',
					contactName: '={{ $json.name }}',
					contactVariables: { values: [{ key: 'first_name', value: '={{ $json.name }}' }] },
					deliveryMode: 'gradual',
					additionalFields: {},
				},
				{},
				{
					before: codeNode(
						"return Array.from({ length: 1000 }, (_, i) => ({ json: { phone: '+1415' + String(5550000 + i), name: 'Guest ' + i } }));",
					),
				},
			);
			assertEqual(execution.status, 'success', 'execution status');
			assertEqual(requests.length, 1, 'requests');
			const broadcast = (
				requests[0].body as {
					broadcast: { contacts: Array<{ phone_number: string }>; delivery_mode: string };
				}
			).broadcast;
			assertEqual(broadcast.contacts.length, 1000, 'contacts in the request');
			assertEqual(broadcast.contacts[999].phone_number, '+14155550999', 'last contact');
			assertEqual(broadcast.delivery_mode, 'gradual', 'delivery mode');
			const runData = (
				execution.data as {
					resultData: {
						runData: Record<
							string,
							Array<{ data: { main: Array<Array<{ pairedItem: unknown }>> } }>
						>;
					};
				}
			).resultData.runData.Peach[0].data.main[0];
			assertEqual(runData.length, 1, 'output items');
			assertEqual((runData[0].pairedItem as unknown[]).length, 1000, 'paired inputs');
		},
	},
	{
		name: 'launch with a bad row refuses all, naming the row, and sends nothing',
		fn: async (ctx) => {
			const { execution, requests } = await runPeachWorkflow(
				ctx,
				'e2e-broadcast-bad-row',
				{
					resource: 'broadcast',
					operation: 'launch',
					name: 'Bad',
					templateId: broadcastLocator('wat_welcome'),
					variablesInput: 'fields',
					variables: { values: [{ key: 'first_name', value: 'Asha' }] },
					recipients: 'items',
					contactPhoneNumber: '={{ $json.phone }}',
					deliveryMode: 'instant',
					additionalFields: {},
				},
				{},
				{
					before: codeNode(
						"return [{ json: { phone: '+14155550100' } }, { json: { phone: '4155550101' } }];",
					),
				},
			);
			assertEqual(execution.status, 'error', 'execution status');
			assertEqual(requests.length, 0, 'requests');
			const error = nodeError(execution, 'Peach');
			assertEqual(
				error?.message,
				'Item 1 → Contact Phone Number "4155550101" has no + and country code',
				'error',
			);
			assert(String(error?.description).includes('Nothing was sent'), String(error?.description));
		},
	},
	{
		name: 'get status waits until the launch is processed; get many, get, cancel and archive',
		fn: async (ctx) => {
			const eventId = ctx.sandbox.state.events
				.filter((event) => event.event_type === 'send_broadcast')
				.at(-1)?.id;
			assert(eventId, 'no broadcast launched');
			const status = await runPeachWorkflow(ctx, 'e2e-broadcast-status', {
				resource: 'broadcast',
				operation: 'getStatus',
				eventId,
				waitUntilProcessed: true,
				waitTimeout: 30,
			});
			const [out] = nodeOutput(status.execution, 'Peach');
			assertEqual(out.eventStatus, 'processed', 'event status');
			assert(typeof out.broadcastId === 'string', 'no broadcast id');
			const many = await runPeachWorkflow(ctx, 'e2e-broadcast-many', {
				resource: 'broadcast',
				operation: 'getMany',
				returnAll: true,
				filters: { status: 'sent' },
			});
			assert(
				nodeOutput(many.execution, 'Peach').some((item) => item.id === 'cmp_new_year'),
				'seeded broadcast not listed',
			);
			const get = await runPeachWorkflow(ctx, 'e2e-broadcast-get', {
				resource: 'broadcast',
				operation: 'get',
				broadcastId: broadcastLocator(String(out.broadcastId)),
			});
			assertEqual(nodeOutput(get.execution, 'Peach')[0]?.name, 'Thousand', 'get');
			const scheduled = await runPeachWorkflow(ctx, 'e2e-broadcast-scheduled', {
				resource: 'broadcast',
				operation: 'launch',
				name: 'Later',
				templateId: broadcastLocator('wat_welcome'),
				variablesInput: 'fields',
				recipients: 'audience',
				audienceId: 'aud_all',
				deliveryMode: 'instant',
				additionalFields: { scheduledLaunchTime: '={{ $now.plus({ days: 2 }).toISO() }}' },
			});
			assertEqual(scheduled.execution.status, 'success', 'scheduled launch');
			await new Promise((resolve) => setTimeout(resolve, 300));
			const laterId = ctx.sandbox.state.broadcasts.find((b) => b.name === 'Later')?.id;
			assert(laterId, 'scheduled broadcast missing');
			const cancel = await runPeachWorkflow(ctx, 'e2e-broadcast-cancel', {
				resource: 'broadcast',
				operation: 'cancel',
				broadcastId: broadcastLocator(laterId),
			});
			assertEqual(nodeOutput(cancel.execution, 'Peach')[0]?.status, 'canceled', 'cancel');
			const archive = await runPeachWorkflow(ctx, 'e2e-broadcast-archive', {
				resource: 'broadcast',
				operation: 'archive',
				broadcastId: broadcastLocator('cmp_new_year'),
			});
			assertEqual(nodeOutput(archive.execution, 'Peach')[0]?.status, 'archived', 'archive');
			const again = await runPeachWorkflow(ctx, 'e2e-broadcast-cancel-sent', {
				resource: 'broadcast',
				operation: 'cancel',
				broadcastId: broadcastLocator('cmp_new_year'),
			});
			assertEqual(
				nodeError(again.execution, 'Peach')?.message,
				'status: cannot cancel a broadcast that is archived (only scheduled or queued or sending)',
				'refused cancel',
			);
		},
	},
];
