import { createHash } from 'crypto';

import type { IDataObject, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import {
	type FakeResponse,
	jsonOf,
	locator,
	type RecordedRequest,
	runPeach,
	TEST_API_KEY,
} from '../../support/harness';

/** Header Media → From a Binary Field, on every operation that sends a template. */

const invoice = Buffer.from('%PDF-1.4 invoice 1001');
const photo = Buffer.from('\x89PNG photo');

const documentTemplate: FakeResponse = {
	statusCode: 200,
	body: {
		id: 'wat_invoice',
		name: 'invoice_ready',
		components: [
			{ index: 0, component_type: 'header', data_type: 'document' },
			{ index: 1, component_type: 'body', value: 'Hi {{name}}, your invoice is attached.' },
		],
	},
};
const imageTemplate: FakeResponse = {
	statusCode: 200,
	body: {
		id: 'wat_offer',
		name: 'spring_offer',
		components: [
			{ index: 0, component_type: 'header', data_type: 'image' },
			{ index: 1, component_type: 'body', value: 'Our spring offer' },
		],
	},
};
const textTemplate: FakeResponse = {
	statusCode: 200,
	body: {
		id: 'wat_text',
		name: 'order_update',
		components: [{ index: 0, component_type: 'body', value: 'Your order shipped' }],
	},
};

function directUpload(n: number, bytes: Buffer): FakeResponse {
	return {
		statusCode: 200,
		body: {
			id: `up_${n}`,
			signed_id: `signed_${n}`,
			checksum: createHash('md5').update(bytes).digest('base64'),
			direct_upload: {
				url: `https://storage.test/uploads/up_${n}`,
				headers: { 'Content-MD5': createHash('md5').update(bytes).digest('base64') },
			},
		},
	};
}
const finalized = (n: number): FakeResponse => ({
	statusCode: 200,
	body: { id: n, signed_id: `signed_${n}`, media_url: `media://${100 + n}` },
});
const accepted = (n: number): FakeResponse => ({
	statusCode: 200,
	body: { status: 'success', event_id: `evt_${n}` },
});
const stored: FakeResponse = { statusCode: 204, body: '' };

const send = {
	resource: 'templateMessage',
	operation: 'send',
	phoneNumber: '={{ $json.phone }}',
	templateId: locator('wat_invoice'),
	variablesInput: 'fields',
	variables: { values: [{ key: 'name', value: 'Asha' }] },
	headerMedia: 'binary',
	headerMediaBinaryField: 'data',
};

const phones = (count: number) =>
	Array.from({ length: count }, (_, index) => ({ phone: `+9199887766${10 + index}` }));
const pdfs = (count: number, bytes = invoice) =>
	Object.fromEntries(
		Array.from({ length: count }, (_, index) => [
			index,
			// A copy per item, as n8n gives every item its own binary data.
			{ bytes: Buffer.from(bytes), mimeType: 'application/pdf', fileName: 'invoice-1001.pdf' },
		]),
	);

const lines = (requests: RecordedRequest[]) =>
	requests.map(
		(request) =>
			`${request.options.method} ${request.url.replace('https://peach.test/api/v1', '')}`,
	);

describe('Header Media → From a Binary Field (Send)', () => {
	it('one item: reads the template, uploads the PDF (bytes to storage without the key), sends it as a document header', async () => {
		const { requests, plainRequests, output } = await runPeach({
			templates: 'responses',
			params: send,
			inputs: phones(1),
			binary: pdfs(1),
			responses: [documentTemplate, directUpload(1, invoice), finalized(1), accepted(1)],
			plainResponses: [stored],
		});
		expect(lines(requests)).toEqual([
			'GET /whats_app_templates/wat_invoice',
			'POST /medias/direct_uploads',
			'POST /medias/finalize',
			'POST /events',
		]);
		expect(requests[1].body).toEqual({
			blob: {
				filename: 'invoice-1001.pdf',
				content_type: 'application/pdf',
				byte_size: invoice.length,
				checksum: createHash('md5').update(invoice).digest('base64'),
			},
		});
		expect(plainRequests).toHaveLength(1);
		expect(plainRequests[0].url).toBe('https://storage.test/uploads/up_1');
		expect(JSON.stringify(plainRequests[0].headers)).not.toContain(TEST_API_KEY);
		expect(requests[3].body).toEqual({
			event_type: 'send_template_message',
			contact: { phone_number: '+919988776610' },
			template_message: {
				whats_app_template_id: 'wat_invoice',
				liquid_values: {
					name: 'Asha',
					header_media: { link: 'media://101', filename: 'invoice-1001.pdf' },
				},
			},
		});
		expect(output).toEqual([
			[
				{
					json: {
						to: '+919988776610',
						message: '[document: invoice-1001.pdf]\nHi Asha, your invoice is attached.',
						outcome: 'queued',
						peachId: 'evt_1',
						status: 'success',
						event_id: 'evt_1',
						media_url: 'media://101',
					},
					pairedItem: { item: 0 },
				},
			],
		]);
	});

	it('100 items carrying the same PDF: 1 template read, 1 upload, 100 sends, each output paired and with the media_url', async () => {
		const { requests, plainRequests, output } = await runPeach({
			templates: 'responses',
			params: send,
			inputs: phones(100),
			binary: pdfs(100),
			responses: [
				documentTemplate,
				directUpload(1, invoice),
				finalized(1),
				...Array.from({ length: 100 }, (_, index) => accepted(index + 1)),
			],
			plainResponses: [stored],
		});
		const sent = lines(requests);
		expect(sent.filter((line) => line.startsWith('GET /whats_app_templates'))).toHaveLength(1);
		expect(sent.filter((line) => line === 'POST /medias/direct_uploads')).toHaveLength(1);
		expect(sent.filter((line) => line === 'POST /medias/finalize')).toHaveLength(1);
		expect(plainRequests).toHaveLength(1);
		const events = requests.filter((request) => request.url.endsWith('/events'));
		expect(events).toHaveLength(100);
		// Every upload comes before the first send.
		expect(sent.indexOf('POST /events')).toBe(3);
		for (const event of events) {
			expect(event.body).toMatchObject({
				template_message: {
					liquid_values: { header_media: { link: 'media://101', filename: 'invoice-1001.pdf' } },
				},
			});
		}
		const items = (output as INodeExecutionData[][])[0];
		expect(items.map((item) => item.pairedItem)).toEqual(
			Array.from({ length: 100 }, (_, item) => ({ item })),
		);
		expect(new Set(items.map((item) => item.json.media_url))).toEqual(new Set(['media://101']));
	});

	it('two distinct files among three items: two uploads, each item sends its own', async () => {
		const other = Buffer.from('%PDF-1.4 invoice 1002');
		const binary = {
			...pdfs(2),
			2: { bytes: other, mimeType: 'application/pdf', fileName: 'invoice-1002.pdf' },
		};
		const { requests, plainRequests } = await runPeach({
			templates: 'responses',
			params: { ...send, requestOptions: { concurrency: 1 } },
			inputs: phones(3),
			binary,
			responses: [
				documentTemplate,
				directUpload(1, invoice),
				finalized(1),
				directUpload(2, other),
				finalized(2),
				accepted(1),
				accepted(2),
				accepted(3),
			],
			plainResponses: [stored, stored],
		});
		expect(plainRequests).toHaveLength(2);
		const headers = requests
			.filter((request) => request.url.endsWith('/events'))
			.map(
				(request) =>
					(request.body as { template_message: { liquid_values: { header_media: unknown } } })
						.template_message.liquid_values.header_media,
			);
		expect(headers).toEqual([
			{ link: 'media://101', filename: 'invoice-1001.pdf' },
			{ link: 'media://101', filename: 'invoice-1001.pdf' },
			{ link: 'media://102', filename: 'invoice-1002.pdf' },
		]);
	});

	it('an image header gets the media:// URL itself', async () => {
		const { requests } = await runPeach({
			templates: 'responses',
			params: { ...send, templateId: locator('wat_offer'), variables: {} },
			inputs: phones(1),
			binary: { 0: { bytes: photo, mimeType: 'image/png', fileName: 'offer.png' } },
			responses: [imageTemplate, directUpload(1, photo), finalized(1), accepted(1)],
			plainResponses: [stored],
		});
		expect(requests[3].body).toMatchObject({
			template_message: { liquid_values: { header_media: 'media://101' } },
		});
	});

	it("a file of the wrong kind is refused naming the template's header kind and the file's type: nothing uploaded or sent", async () => {
		const { requests, plainRequests, output } = await runPeach({
			templates: 'responses',
			params: send,
			inputs: phones(1),
			binary: { 0: { bytes: photo, mimeType: 'image/png', fileName: 'offer.png' } },
			responses: [documentTemplate],
		});
		expect(output).toBeInstanceOf(NodeOperationError);
		expect((output as NodeOperationError).message).toBe(
			'Header Media file "offer.png" "image/png" is an image, but template "invoice_ready" has a document header',
		);
		expect((output as NodeOperationError).description).toContain(
			'Pass a document file (application/pdf',
		);
		expect(lines(requests)).toEqual(['GET /whats_app_templates/wat_invoice']);
		expect(plainRequests).toHaveLength(0);
	});

	it('a file for a template without a media header is refused with that reason, never ignored', async () => {
		const { requests, plainRequests, output } = await runPeach({
			templates: 'responses',
			params: { ...send, templateId: locator('wat_text'), variables: {} },
			inputs: phones(1),
			binary: pdfs(1),
			responses: [textTemplate],
		});
		expect((output as Error).message).toBe(
			'Header Media "invoice-1001.pdf" cannot be sent: template "order_update" has no image, video or document header',
		);
		expect(lines(requests)).toEqual(['GET /whats_app_templates/wat_text']);
		expect(plainRequests).toHaveLength(0);
	});

	it('a header_media variable given too is refused before any request', async () => {
		const { requests, output } = await runPeach({
			templates: 'responses',
			params: {
				...send,
				variables: { values: [{ key: 'header_media', value: 'https://example.com/a.pdf' }] },
			},
			inputs: phones(1),
			binary: pdfs(1),
		});
		expect((output as Error).message).toBe(
			'Variables "header_media" is given while Header Media is a binary field',
		);
		expect(requests).toHaveLength(0);
	});

	it('item 3 without the file: nothing is uploaded or sent, and the error says so', async () => {
		const { requests, plainRequests, output } = await runPeach({
			templates: 'responses',
			params: send,
			inputs: phones(3),
			binary: pdfs(2),
			responses: [documentTemplate],
		});
		expect((output as NodeOperationError).message).toContain("binary file 'data'");
		expect((output as NodeOperationError).description).toContain('Nothing was sent');
		expect(lines(requests)).toEqual(['GET /whats_app_templates/wat_invoice']);
		expect(plainRequests).toHaveLength(0);
	});

	it('the storage refuses the file: nothing is finalized or sent, and the error says so', async () => {
		const { requests, output } = await runPeach({
			templates: 'responses',
			params: send,
			inputs: phones(2),
			binary: pdfs(2),
			responses: [documentTemplate, directUpload(1, invoice)],
			plainResponses: [{ statusCode: 400, body: 'Content-MD5 does not match' }],
		});
		expect((output as NodeOperationError).message).toBe(
			'The header file "invoice-1001.pdf" could not be uploaded: Peach\'s storage refused the file (400): Content-MD5 does not match',
		);
		expect((output as NodeOperationError).description).toContain('Nothing was sent');
		expect(lines(requests)).toEqual([
			'GET /whats_app_templates/wat_invoice',
			'POST /medias/direct_uploads',
		]);
	});

	it('with Continue On Fail, only the items of the file that failed to upload are left out', async () => {
		const other = Buffer.from('%PDF-1.4 invoice 1002');
		const { requests, output } = await runPeach({
			templates: 'responses',
			params: { ...send, requestOptions: { concurrency: 1 } },
			inputs: phones(2),
			binary: {
				...pdfs(1),
				1: { bytes: other, mimeType: 'application/pdf', fileName: 'invoice-1002.pdf' },
			},
			continueOnFail: true,
			responses: [
				documentTemplate,
				directUpload(1, invoice),
				directUpload(2, other),
				finalized(2),
				accepted(2),
			],
			plainResponses: [{ statusCode: 503, body: 'busy' }, stored],
		});
		const items = (output as INodeExecutionData[][])[0];
		expect(items[0].pairedItem).toEqual({ item: 0 });
		expect(items[0].json.error).toBe(
			'The header file "invoice-1001.pdf" could not be uploaded: Peach\'s storage refused the file (503): busy',
		);
		expect(items[0].json.description).toContain('This item was not sent.');
		expect(items[0].json.outcome).toBe('not sent');
		expect(items[1]).toEqual({
			json: {
				to: '+919988776611',
				message: '[document: invoice-1002.pdf]\nHi Asha, your invoice is attached.',
				outcome: 'queued',
				peachId: 'evt_2',
				status: 'success',
				event_id: 'evt_2',
				media_url: 'media://102',
			},
			pairedItem: { item: 1 },
		});
		expect(requests.filter((request) => request.url.endsWith('/events'))).toHaveLength(1);
	});

	it('From the Variables (the default) reads no binary data: header_media is the variable given', async () => {
		const { requests, events, templateReads } = await runPeach({
			templates: { wat_invoice: documentTemplate.body as IDataObject },
			params: {
				...send,
				headerMedia: undefined,
				variables: {
					values: [
						{ key: 'name', value: 'Asha' },
						{ key: 'header_media', value: 'media://12' },
					],
				},
			},
			inputs: phones(1),
			responses: [accepted(1)],
		});
		expect(events).toEqual([]);
		// The template is read once, for its variables.
		expect(templateReads).toEqual(['wat_invoice']);
		expect(lines(requests)).toEqual(['POST /events']);
		expect(requests[0].body).toMatchObject({
			template_message: { liquid_values: { header_media: 'media://12' } },
		});
	});
});

describe('Header Media → From a Binary Field on the other template senders', () => {
	it('Connect to AI Agent sends the uploaded header with the agent', async () => {
		const { requests, output } = await runPeach({
			templates: 'responses',
			params: {
				resource: 'templateMessage',
				operation: 'connectToAiAgent',
				phoneNumber: '+919988776655',
				templateId: locator('wat_invoice'),
				variablesInput: 'fields',
				variables: { values: [{ key: 'name', value: 'Asha' }] },
				aiAgentId: 'aiflw_1',
				headerMedia: 'binary',
			},
			binary: pdfs(1),
			responses: [documentTemplate, directUpload(1, invoice), finalized(1), accepted(1)],
			plainResponses: [stored],
		});
		expect(requests[3].body).toEqual({
			event_type: 'connect_to_ai_agent',
			contact: { phone_number: '+919988776655' },
			template_message: {
				whats_app_template_id: 'wat_invoice',
				liquid_values: {
					name: 'Asha',
					header_media: { link: 'media://101', filename: 'invoice-1001.pdf' },
				},
			},
			ai_agent: { id: 'aiflw_1' },
		});
		expect(jsonOf(output as INodeExecutionData[][])[0].media_url).toBe('media://101');
	});

	const launch = {
		resource: 'broadcast',
		operation: 'launch',
		name: 'Invoices',
		templateId: locator('wat_invoice'),
		variablesInput: 'fields',
		variables: { values: [{ key: 'name', value: 'there' }] },
		recipients: 'items',
		contactPhoneNumber: '={{ $json.phone }}',
		deliveryMode: 'instant',
	};
	const launched: FakeResponse = {
		statusCode: 200,
		body: { status: 'success', event_id: 'evt_b' },
	};

	it('Broadcast Launch, one file for everyone: uploaded once from the first item, in the global values', async () => {
		const { requests, plainRequests, output } = await runPeach({
			templates: 'responses',
			params: { ...launch, headerMedia: 'binary' },
			inputs: phones(3),
			binary: pdfs(1),
			responses: [documentTemplate, directUpload(1, invoice), finalized(1), launched],
			plainResponses: [stored],
		});
		expect(plainRequests).toHaveLength(1);
		expect(requests[3].body).toMatchObject({
			event_type: 'send_broadcast',
			broadcast: {
				liquid_values: {
					name: 'there',
					header_media: { link: 'media://101', filename: 'invoice-1001.pdf' },
				},
				contacts: [
					{ phone_number: '+919988776610' },
					{ phone_number: '+919988776611' },
					{ phone_number: '+919988776612' },
				],
			},
		});
		const [item] = (output as INodeExecutionData[][])[0];
		expect(item.json).toMatchObject({ media_url: 'media://101', contactCount: 3 });
		expect(item.pairedItem).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
	});

	it("Broadcast Launch, each item's file: one upload per distinct file, each contact's own header", async () => {
		const other = Buffer.from('%PDF-1.4 invoice 1002');
		const { requests, plainRequests, output } = await runPeach({
			templates: 'responses',
			params: { ...launch, headerMedia: 'binaryPerContact' },
			inputs: phones(3),
			binary: {
				...pdfs(2),
				2: { bytes: other, mimeType: 'application/pdf', fileName: 'invoice-1002.pdf' },
			},
			// The two distinct files upload side by side: both direct uploads start before either finishes.
			responses: [
				documentTemplate,
				directUpload(1, invoice),
				directUpload(2, other),
				finalized(1),
				finalized(2),
				launched,
			],
			plainResponses: [stored, stored],
		});
		expect(plainRequests).toHaveLength(2);
		const broadcast = (requests[5].body as { broadcast: { contacts: unknown[] } }).broadcast;
		expect(broadcast).toHaveProperty('liquid_values', { name: 'there' });
		expect(broadcast.contacts).toEqual([
			{
				phone_number: '+919988776610',
				liquid_values: { header_media: { link: 'media://101', filename: 'invoice-1001.pdf' } },
			},
			{
				phone_number: '+919988776611',
				liquid_values: { header_media: { link: 'media://101', filename: 'invoice-1001.pdf' } },
			},
			{
				phone_number: '+919988776612',
				liquid_values: { header_media: { link: 'media://102', filename: 'invoice-1002.pdf' } },
			},
		]);
		expect(jsonOf(output as INodeExecutionData[][])[0].media_urls).toEqual({
			'+919988776610': 'media://101',
			'+919988776611': 'media://101',
			'+919988776612': 'media://102',
		});
	});

	it('Broadcast Launch: an upload that fails launches nothing and names the items not sent', async () => {
		const { requests, output } = await runPeach({
			templates: 'responses',
			params: { ...launch, headerMedia: 'binaryPerContact' },
			inputs: phones(2),
			binary: pdfs(2),
			responses: [documentTemplate, directUpload(1, invoice)],
			plainResponses: [{ statusCode: 403, body: 'expired' }],
		});
		expect((output as NodeOperationError).message).toContain(
			'The header file "invoice-1001.pdf" could not be uploaded',
		);
		expect(requests.filter((request) => request.url.endsWith('/events'))).toHaveLength(0);
	});

	it('Broadcast Launch: a contact whose file is of the wrong kind is refused before any upload', async () => {
		const { requests, plainRequests, output } = await runPeach({
			templates: 'responses',
			params: { ...launch, headerMedia: 'binaryPerContact' },
			inputs: phones(2),
			binary: {
				...pdfs(1),
				1: { bytes: photo, mimeType: 'image/png', fileName: 'offer.png' },
			},
			responses: [documentTemplate],
		});
		expect((output as NodeOperationError).message).toBe(
			'Header Media file "offer.png" "image/png" is an image, but template "invoice_ready" has a document header',
		);
		expect((output as NodeOperationError).description).toContain('Nothing was sent');
		expect(lines(requests)).toEqual(['GET /whats_app_templates/wat_invoice']);
		expect(plainRequests).toHaveLength(0);
	});
});
