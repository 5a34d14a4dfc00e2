/** Real-n8n checks of the Contact resource, with 2,000 contacts created from a Code node in one execution. */
import { codeNode, nodeOutput } from '../n8n.mts';
import { assert, assertEqual, type Check, runPeachWorkflow } from '../suite.mts';

export const contactChecks: Check[] = [
	{
		name: 'create many: 2,000 items from a Code node in one execution, 4 requests of 500, each output paired',
		fn: async (ctx) => {
			const { execution, requests } = await runPeachWorkflow(
				ctx,
				'e2e-contacts-2000',
				{
					resource: 'contact',
					operation: 'createMany',
					phoneNumber: '={{ $json.phone }}',
					contactFields: { name: '={{ $json.name }}', tags: 'imported' },
				},
				{},
				{
					before: codeNode(
						"return Array.from({ length: 2000 }, (_, i) => ({ json: { phone: '+1212' + String(5550000 + i), name: 'Person ' + i } }));",
					),
				},
			);
			assertEqual(execution.status, 'success', 'execution status');
			assertEqual(
				requests.map((request) => (request.body as unknown[]).length),
				[500, 500, 500, 500],
				'chunks',
			);
			const main = (
				execution.data as {
					resultData: {
						runData: Record<
							string,
							Array<{ data: { main: Array<Array<{ pairedItem: { item: number } }>> } }>
						>;
					};
				}
			).resultData.runData.Peach[0].data.main[0];
			assertEqual(main.length, 2000, 'output items');
			assertEqual(
				[main[0].pairedItem, main[1999].pairedItem],
				[{ item: 0 }, { item: 1999 }],
				'pairing',
			);
			assert(
				ctx.sandbox.state.contacts.some((contact) => contact.phone_number === '+12125551999'),
				'last contact missing',
			);
		},
	},
	{
		name: 'contacts: create or update (metadata merged), update, get, communication preferences, guest links',
		fn: async (ctx) => {
			const upsert = await runPeachWorkflow(ctx, 'e2e-contact-upsert', {
				resource: 'contact',
				operation: 'upsert',
				phoneNumber: '+919988776655',
				additionalFields: {
					timezone: 'Asia/Kolkata',
					metadata: { values: [{ key: 'tier', value: 'gold' }] },
				},
			});
			assertEqual(nodeOutput(upsert.execution, 'Peach')[0]?.metadata, { tier: 'gold' }, 'metadata');
			const update = await runPeachWorkflow(ctx, 'e2e-contact-update', {
				resource: 'contact',
				operation: 'update',
				phoneNumber: '+919988776655',
				updateFields: { nickname: 'Ash', metadata: { values: [{ key: 'city', value: 'Pune' }] } },
			});
			assertEqual(update.requests[0]?.path, '/api/v1/contacts/%2B919988776655', 'encoded path');
			assertEqual(
				nodeOutput(update.execution, 'Peach')[0]?.metadata,
				{ tier: 'gold', city: 'Pune' },
				'merged',
			);
			const get = await runPeachWorkflow(ctx, 'e2e-contact-get', {
				resource: 'contact',
				operation: 'get',
				phoneNumber: '+919988776655',
			});
			assertEqual(nodeOutput(get.execution, 'Peach')[0]?.nickname, 'Ash', 'get');
			const prefs = await runPeachWorkflow(ctx, 'e2e-contact-prefs', {
				resource: 'contact',
				operation: 'updateCommunicationPreferences',
				source: 'list',
				phoneNumbers: '+919988776655, +33612345678',
				communicationPreference: 'disallow_marketing',
			});
			assertEqual(nodeOutput(prefs.execution, 'Peach')[0]?.updated, 2, 'preferences');
			const link = await runPeachWorkflow(ctx, 'e2e-guest-link', {
				resource: 'contact',
				operation: 'createGuestLink',
				fieldsJson: '{"label": "Shop"}',
			});
			const id = String(nodeOutput(link.execution, 'Peach')[0]?.id);
			const regenerate = await runPeachWorkflow(ctx, 'e2e-guest-link-regenerate', {
				resource: 'contact',
				operation: 'regenerateGuestLink',
				guestLinkId: id,
			});
			assertEqual(nodeOutput(regenerate.execution, 'Peach')[0]?.status, 'active', 'regenerate');
			const expire = await runPeachWorkflow(ctx, 'e2e-guest-link-expire', {
				resource: 'contact',
				operation: 'expireGuestLink',
				guestLinkId: id,
			});
			assertEqual(nodeOutput(expire.execution, 'Peach')[0], { expired: true }, 'expire');
		},
	},
];
