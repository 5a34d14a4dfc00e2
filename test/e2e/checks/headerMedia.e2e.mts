/**
 * Real-n8n checks of Header Media → From a Binary Field: a file fetched by n8n's HTTP Request node
 * goes into a template's header in one Peach node, uploaded once per distinct file.
 */
import { randomUUID } from 'node:crypto';

import {
	chain,
	codeNode,
	type Json,
	nodeError,
	nodeOutput,
	peachNode,
	webhookNode,
} from '../n8n.mts';
import { assert, assertEqual, type Check, type Context } from '../suite.mts';

/** n8n's HTTP Request node downloading one of the sandbox's sample files, once per input item. */
function download(ctx: Context, sample: string): Json {
	return {
		id: randomUUID(),
		name: 'Download',
		type: 'n8n-nodes-base.httpRequest',
		typeVersion: 4.2,
		position: [300, 0],
		parameters: {
			url: `${ctx.sandbox.url}/samples/${sample}`,
			options: { response: { response: { responseFormat: 'file' } } },
		},
	};
}

/**
 * Webhook → Code (the items) → HTTP Request (the file, per item) → Peach; the finished execution,
 * the Peach API requests and the storage requests it made.
 */
async function runWithFile(
	ctx: Context,
	path: string,
	items: string,
	sample: string,
	parameters: Json,
) {
	const nodes = [
		webhookNode(path),
		codeNode(items, 'Items'),
		download(ctx, sample),
		peachNode(parameters, ctx.credential, 'Peach'),
	];
	const workflowId = await ctx.client.createWorkflow({
		name: `e2e ${path}`,
		nodes,
		connections: chain('Webhook', 'Items', 'Download', 'Peach'),
	});
	await ctx.client.activate(workflowId);
	const before = ctx.sandbox.state.requests.length;
	const storageBefore = ctx.sandbox.state.storageRequests.length;
	await ctx.client.callWebhook(path, {});
	const [execution] = await ctx.client.waitForExecutions(workflowId, 1, 120_000);
	await ctx.client.deactivate(workflowId);
	const requests = ctx.sandbox.state.requests.slice(before);
	return {
		execution,
		requests,
		lines: requests.map((request) => `${request.method} ${request.path}`),
		storage: ctx.sandbox.state.storageRequests.slice(storageBefore),
	};
}

const invoiceSend = (phone: string): Json => ({
	resource: 'templateMessage',
	operation: 'send',
	phoneNumber: phone,
	templateId: { __rl: true, mode: 'list', value: 'wat_invoice' },
	variablesInput: 'fields',
	variables: {
		values: [
			{ key: 'first_name', value: 'Asha' },
			{ key: 'invoice_number', value: 'INV-1001' },
		],
	},
	headerMedia: 'binary',
	headerMediaBinaryField: 'data',
	contactFields: {},
	additionalFields: {},
});

const count = (lines: string[], line: string) => lines.filter((entry) => entry === line).length;

export const headerMediaChecks: Check[] = [
	{
		name: 'header media: HTTP Request downloads a PDF → one Peach Send puts it in the template header (no key to storage)',
		fn: async (ctx) => {
			const { execution, requests, lines, storage } = await runWithFile(
				ctx,
				'e2e-header-pdf',
				"return [{ json: { phone: '+919988776655' } }];",
				'invoice-1001.pdf',
				invoiceSend('+919988776655'),
			);
			assertEqual(execution.status, 'success', 'execution status');
			// The template is read by this execution, or kept by n8n from an earlier one (a minute).
			assertEqual(
				lines.filter((line) => line !== 'GET /api/v1/whats_app_templates/wat_invoice'),
				[
					'POST /api/v1/medias/direct_uploads',
					'POST /api/v1/medias/finalize',
					'POST /api/v1/events',
				],
				'requests',
			);
			assertEqual(storage.length, 1, 'storage requests');
			assert(!storage[0].headerNames.includes('authorization'), 'the API key reached the storage');
			const [output] = nodeOutput(execution, 'Peach');
			assert(
				/^media:\/\/\d+$/.test(String(output?.media_url)),
				`no media_url: ${JSON.stringify(output)}`,
			);
			assertEqual(
				(
					requests.find((request) => request.path === '/api/v1/events')?.body as {
						template_message: { liquid_values: Json };
					}
				).template_message.liquid_values,
				{
					first_name: 'Asha',
					invoice_number: 'INV-1001',
					header_media: { link: output.media_url, filename: 'invoice-1001.pdf' },
				},
				'liquid values',
			);
		},
	},
	{
		name: 'header media: 100 items each downloading the same PDF → 1 upload and 100 sends, outputs paired',
		fn: async (ctx) => {
			const { execution, lines, storage } = await runWithFile(
				ctx,
				'e2e-header-pdf-100',
				"return Array.from({ length: 100 }, (_, i) => ({ json: { phone: '+1415' + String(5560000 + i) } }));",
				'invoice-1001.pdf',
				invoiceSend("={{ $('Items').item.json.phone }}"),
			);
			assertEqual(execution.status, 'success', 'execution status');
			assert(
				count(lines, 'GET /api/v1/whats_app_templates/wat_invoice') <= 1,
				'the template was read more than once',
			);
			assertEqual(count(lines, 'POST /api/v1/medias/direct_uploads'), 1, 'direct uploads');
			assertEqual(count(lines, 'POST /api/v1/medias/finalize'), 1, 'finalized');
			assertEqual(storage.length, 1, 'files sent to storage');
			assertEqual(count(lines, 'POST /api/v1/events'), 100, 'sends');
			const outputs = nodeOutput(execution, 'Peach');
			assertEqual(outputs.length, 100, 'output items');
			assertEqual(new Set(outputs.map((item) => item.media_url)).size, 1, 'distinct media URLs');
			console.log(
				`      100 items, 1 distinct file: ${count(lines, 'POST /api/v1/medias/direct_uploads')} upload, ${storage.length} file to storage, ${count(lines, 'POST /api/v1/events')} sends`,
			);
		},
	},
	{
		name: 'header media: a PNG for a document template is refused naming both kinds; nothing uploaded or sent',
		fn: async (ctx) => {
			const { execution, lines, storage } = await runWithFile(
				ctx,
				'e2e-header-wrong-kind',
				'return [{ json: {} }];',
				'logo.png',
				invoiceSend('+919988776655'),
			);
			assertEqual(execution.status, 'error', 'execution status');
			assertEqual(
				lines.filter((line) => line !== 'GET /api/v1/whats_app_templates/wat_invoice'),
				[],
				'requests beyond the template read',
			);
			assertEqual(storage.length, 0, 'storage requests');
			assertEqual(
				nodeError(execution, 'Peach')?.message,
				'Header Media file "logo.png" "image/png" is an image, but template "invoice_ready" has a document header',
				'error',
			);
		},
	},
	{
		name: 'header media: Broadcast Launch from 3 items with a header image → 1 upload, 1 broadcast with it',
		fn: async (ctx) => {
			const { execution, requests, lines, storage } = await runWithFile(
				ctx,
				'e2e-header-broadcast',
				"return [0, 1, 2].map((i) => ({ json: { phone: '+1415' + String(5570000 + i), name: 'Guest ' + i } }));",
				'logo.png',
				{
					resource: 'broadcast',
					operation: 'launch',
					name: 'Spring offer',
					templateId: { __rl: true, mode: 'list', value: 'wat_offer' },
					variablesInput: 'fields',
					variables: {},
					recipients: 'items',
					contactPhoneNumber: "={{ $('Items').item.json.phone }}",
					contactVariables: {
						values: [{ key: 'first_name', value: "={{ $('Items').item.json.name }}" }],
					},
					headerMedia: 'binary',
					headerMediaBinaryField: 'data',
					deliveryMode: 'instant',
					additionalFields: {},
				},
			);
			assertEqual(execution.status, 'success', 'execution status');
			assertEqual(count(lines, 'POST /api/v1/medias/direct_uploads'), 1, 'uploads');
			assertEqual(storage.length, 1, 'files to storage');
			const launches = requests.filter((request) => request.path === '/api/v1/events');
			assertEqual(launches.length, 1, 'launches');
			const [output] = nodeOutput(execution, 'Peach');
			const broadcast = (launches[0].body as { broadcast: Json }).broadcast;
			assertEqual(
				broadcast.liquid_values,
				{ header_media: output.media_url },
				'the header image for everyone',
			);
			assertEqual((broadcast.contacts as Json[]).length, 3, 'contacts');
			assertEqual(output.contactCount, 3, 'contact count');
		},
	},
];
