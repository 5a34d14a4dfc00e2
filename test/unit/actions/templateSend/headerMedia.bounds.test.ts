import { createHash } from 'crypto';

import { describe, expect, it } from 'vitest';

import { type FakeResponse, locator, runPeach } from '../../support/harness';

/** What the user gave is what happens: memory bounded. */

const ok: FakeResponse = { statusCode: 200, body: { status: 'success', event_id: 'evt' } };

describe('bounds', () => {
	it('header media from many files: each file is read again right before its upload, so only what is being uploaded is held', async () => {
		const files = Array.from({ length: 30 }, (_, index) => Buffer.from(`%PDF invoice ${index}`));
		const md5 = (bytes: Buffer) => createHash('md5').update(bytes).digest('base64');
		const template: FakeResponse = {
			statusCode: 200,
			body: {
				id: 'wat_invoice',
				components: [
					{ index: 0, component_type: 'header', data_type: 'document' },
					{ index: 1, component_type: 'body', value: 'Your invoice' },
				],
			},
		};
		const responses: FakeResponse[] = [template];
		files.forEach((bytes, index) => {
			responses.push(
				{
					statusCode: 200,
					body: {
						signed_id: `signed_${index}`,
						direct_upload: {
							url: `https://storage.test/up_${index}`,
							headers: { 'Content-MD5': md5(bytes) },
						},
					},
				},
				{ statusCode: 200, body: { id: index, media_url: `media://${index}` } },
			);
		});
		responses.push(...files.map(() => ok));
		const { events, output } = await runPeach({
			params: {
				resource: 'templateMessage',
				operation: 'send',
				phoneNumber: '={{ $json.phone }}',
				templateId: locator('wat_invoice'),
				headerMedia: 'binary',
				headerMediaBinaryField: 'data',
				requestOptions: { concurrency: 1 },
			},
			inputs: files.map((_, index) => ({ phone: `+9199887766${10 + index}` })),
			binary: Object.fromEntries(
				files.map((bytes, index) => [
					index,
					{ bytes, mimeType: 'application/pdf', fileName: `invoice-${index}.pdf` },
				]),
			),
			responses,
			templates: 'responses',
			plainResponses: files.map(() => ({ statusCode: 204, body: '' })),
		});
		expect(output).not.toBeInstanceOf(Error);
		// First every file is read to recognise it; then, one upload at a time, each is read again and
		// sent to storage before the next is read: never more than one file held at once.
		const recognised = files.map((_, index) => `read ${index}`);
		const uploaded = files.flatMap((_, index) => [
			`read ${index}`,
			`PUT https://storage.test/up_${index}`,
		]);
		expect(events).toEqual([...recognised, ...uploaded]);
	});
});
