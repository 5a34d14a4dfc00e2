/** Real-n8n checks of Media: a file fetched by n8n's HTTP Request node, uploaded, and sent as header media. */
import { randomUUID } from 'node:crypto';

import { chain, type Json, nodeError, nodeOutput, peachNode, webhookNode } from '../n8n.mts';
import { assert, assertEqual, type Check, type Context, isTemplateRead } from '../suite.mts';

/** Webhook → HTTP Request (a sample file from the sandbox, as binary) → Peach Upload [→ Peach Send]. */
async function uploadWorkflow(ctx: Context, path: string, sample: string, send?: Json) {
	const fetchFile: Json = {
		id: randomUUID(),
		name: 'Fetch file',
		type: 'n8n-nodes-base.httpRequest',
		typeVersion: 4.2,
		position: [150, 0],
		parameters: {
			url: `${ctx.sandbox.url}/samples/${sample}`,
			options: { response: { response: { responseFormat: 'file' } } },
		},
	};
	const nodes = [
		webhookNode(path),
		fetchFile,
		peachNode(
			{ resource: 'media', operation: 'upload', binaryPropertyName: 'data', options: {} },
			ctx.credential,
			'Upload',
		),
	];
	if (send) nodes.push(peachNode(send, ctx.credential, 'Send'));
	const names = nodes.map((node) => String(node.name));
	const workflowId = await ctx.client.createWorkflow({
		name: `e2e ${path}`,
		nodes,
		connections: chain(...names),
	});
	await ctx.client.activate(workflowId);
	const before = ctx.sandbox.state.requests.length;
	const storageBefore = ctx.sandbox.state.storageRequests.length;
	await ctx.client.callWebhook(path, {});
	const [execution] = await ctx.client.waitForExecutions(workflowId, 1);
	await ctx.client.deactivate(workflowId);
	return {
		execution,
		requests: ctx.sandbox.state.requests
			.slice(before)
			.filter((request) => !isTemplateRead(request)),
		storage: ctx.sandbox.state.storageRequests.slice(storageBefore),
	};
}

export const mediaChecks: Check[] = [
	{
		name: 'media: HTTP Request fetches a PDF → Upload (no key to storage) → Send with its media_url in the header_media variable',
		fn: async (ctx) => {
			const { execution, requests, storage } = await uploadWorkflow(
				ctx,
				'e2e-upload-send',
				'brochure.pdf',
				{
					resource: 'templateMessage',
					operation: 'send',
					phoneNumber: '+919988776655',
					templateId: { __rl: true, mode: 'id', value: 'wat_invoice' },
					variablesInput: 'fields',
					variables: {
						values: [
							{ key: 'first_name', value: 'Asha' },
							{ key: 'invoice_number', value: 'INV-1001' },
							{ key: 'header_media', value: '={{ $json.media_url }}' },
						],
					},
					contactFields: {},
					additionalFields: {},
				},
			);
			assertEqual(execution.status, 'success', 'execution status');
			const [media] = nodeOutput(execution, 'Upload');
			assert(
				/^media:\/\/\d+$/.test(String(media?.media_url)),
				`no media_url: ${JSON.stringify(media)}`,
			);
			assertEqual(
				requests.map((request) => `${request.method} ${request.path}`),
				[
					'POST /api/v1/medias/direct_uploads',
					'POST /api/v1/medias/finalize',
					'POST /api/v1/events',
				],
				'requests',
			);
			assertEqual(storage.length, 1, 'storage requests');
			assert(!storage[0].headerNames.includes('authorization'), 'the API key reached the storage');
			const liquid = (requests[2].body as { template_message: { liquid_values: Json } })
				.template_message.liquid_values;
			assertEqual(
				liquid,
				{ first_name: 'Asha', invoice_number: 'INV-1001', header_media: media.media_url },
				'header media sent',
			);
		},
	},
	{
		name: 'media: a 10 MB PNG is refused before any upload, naming the 5 MB limit',
		fn: async (ctx) => {
			const { execution, requests, storage } = await uploadWorkflow(
				ctx,
				'e2e-upload-big',
				'big.png',
			);
			assertEqual(execution.status, 'error', 'execution status');
			assertEqual(requests.length + storage.length, 0, 'requests');
			assert(
				String(nodeError(execution, 'Upload')?.message).includes(
					'is larger than the 5 MB WhatsApp allows for an image',
				),
				`unexpected: ${nodeError(execution, 'Upload')?.message}`,
			);
		},
	},
];
