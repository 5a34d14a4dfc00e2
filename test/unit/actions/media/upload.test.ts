import { createHash } from 'crypto';

import { NodeOperationError } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { type FakeResponse, TEST_API_KEY } from '../../support/harness';
import { run } from './run';

const pdf = Buffer.from('%PDF-1.4 sample');
const checksum = createHash('md5').update(pdf).digest('base64');
const directUpload = {
	statusCode: 200,
	body: {
		id: 'up_1',
		signed_id: 'signed_1',
		direct_upload: {
			url: 'https://storage.test/uploads/up_1',
			headers: { 'Content-Type': 'application/pdf', 'Content-MD5': checksum },
		},
	},
};
const finalized = {
	statusCode: 200,
	body: { id: 101, filename: 'brochure.pdf', media_url: 'media://101', signed_id: 'signed_1' },
};
const upload = { resource: 'media', operation: 'upload', binaryPropertyName: 'data', options: {} };

describe('Media → Upload', () => {
	it('direct upload, the bytes to storage with exactly its headers and no key, then finalize', async () => {
		const { requests, plainRequests, output } = await run(upload, [directUpload, finalized], {
			binary: { 0: { bytes: pdf, mimeType: 'application/pdf', fileName: 'brochure.pdf' } },
			plainResponses: [{ statusCode: 204, body: '' }],
		});
		expect(requests.map((r) => `${r.options.method} ${r.url}`)).toEqual([
			'POST https://peach.test/api/v1/medias/direct_uploads',
			'POST https://peach.test/api/v1/medias/finalize',
		]);
		expect(requests[0].body).toEqual({
			blob: {
				filename: 'brochure.pdf',
				content_type: 'application/pdf',
				byte_size: pdf.length,
				checksum,
			},
		});
		expect(requests[1].body).toEqual({ signed_id: 'signed_1' });
		expect(plainRequests).toHaveLength(1);
		expect(plainRequests[0]).toMatchObject({
			method: 'PUT',
			url: 'https://storage.test/uploads/up_1',
			headers: { 'Content-Type': 'application/pdf', 'Content-MD5': checksum },
		});
		expect((plainRequests[0].body as Buffer).equals(pdf)).toBe(true);
		expect(JSON.stringify(plainRequests[0].headers)).not.toContain(TEST_API_KEY);
		expect((output as Array<Array<{ json: unknown }>>)[0][0].json).toEqual(finalized.body);
	});

	it("refuses a file over WhatsApp's limit for its type, and a type Peach does not take, before any request", async () => {
		const big = await run(upload, [], {
			binary: {
				0: { bytes: Buffer.alloc(10 * 1024 * 1024), mimeType: 'image/png', fileName: 'big.png' },
			},
		});
		expect(big.output).toBeInstanceOf(NodeOperationError);
		expect((big.output as Error).message).toBe(
			'File "big.png" "10 MB" is larger than the 5 MB WhatsApp allows for an image (image/png)',
		);
		expect(big.requests).toHaveLength(0);
		const exe = await run(upload, [], {
			binary: { 0: { bytes: pdf, mimeType: 'application/x-msdownload', fileName: 'a.exe' } },
		});
		expect((exe.output as Error).message).toContain('is not a type Peach takes');
		const none = await run(upload, []);
		expect((none.output as Error).message).toContain("binary file 'data'");
	});

	it('a storage refusal is reported and nothing is finalized', async () => {
		const { requests, output } = await run(upload, [directUpload, finalized], {
			binary: { 0: { bytes: pdf, mimeType: 'application/pdf', fileName: 'brochure.pdf' } },
			plainResponses: [{ statusCode: 400, body: 'Content-MD5 does not match' }],
		});
		expect((output as Error).message).toBe(
			"Peach's storage refused the file (400): Content-MD5 does not match",
		);
		expect(requests).toHaveLength(1);
	});
});

describe('Media → Upload: where the bytes may go', () => {
	const answerWith = (direct: Record<string, unknown>): FakeResponse => ({
		statusCode: 200,
		body: {
			...directUpload.body,
			direct_upload: { ...directUpload.body.direct_upload, ...direct },
		},
	});
	const binary = { 0: { bytes: pdf, mimeType: 'application/pdf', fileName: 'brochure.pdf' } };

	it.each([
		[
			'plain http to another host',
			{ url: 'http://storage.example/up_1' },
			'the storage URL http://storage.example is not https',
		],
		[
			'another scheme',
			{ url: 'ftp://storage.example/up_1' },
			'the storage URL ftp://storage.example is not https',
		],
		[
			'a method that is not an upload',
			{ method: 'DELETE' },
			'the method DELETE is not PUT or POST',
		],
		...['http://localhost:8080/up_1', 'http://127.0.0.2/up_1', 'https://[::1]:9443/up_1'].map(
			(url): [string, { url: string }, string] => [
				`the n8n machine (${url}) with Peach's Base URL`,
				{ url },
				`the storage URL ${new URL(url).protocol}//${new URL(url).host} is on the n8n machine itself, while the Base URL is not`,
			],
		),
	])('refuses %s before a byte leaves; nothing finalized', async (_label, direct, reason) => {
		const { requests, plainRequests, output } = await run(upload, [answerWith(direct), finalized], {
			binary,
			plainResponses: [{ statusCode: 204, body: '' }],
		});
		expect(plainRequests).toHaveLength(0);
		expect(requests).toHaveLength(1);
		expect((output as Error).message).toBe(
			`Peach's direct upload named a place the node does not send files to: ${reason}`,
		);
	});

	it('takes https with PUT or POST, and this machine (http too) when the Base URL is on it (a local sandbox)', async () => {
		for (const [direct, baseUrl] of [
			[{ method: 'POST' }, undefined],
			[{ url: 'http://127.0.0.1:4010/__storage/up_1' }, 'http://127.0.0.1:4010'],
			[{ url: 'http://localhost:4010/__storage/up_1' }, 'http://localhost:4010'],
		] as const) {
			const { plainRequests, output } = await run(upload, [answerWith(direct), finalized], {
				binary,
				plainResponses: [{ statusCode: 204, body: '' }],
				...(baseUrl ? { baseUrl } : {}),
			});
			expect(output).not.toBeInstanceOf(Error);
			expect(plainRequests).toHaveLength(1);
		}
	});

	it("Peach's failure envelope on the direct upload is shown with Peach's reason", async () => {
		const { output, plainRequests } = await run(
			upload,
			[
				{
					statusCode: 200,
					body: { status: 'failed', reason: { blob: { content_type: ['is not allowed'] } } },
				},
			],
			{ binary },
		);
		expect(plainRequests).toHaveLength(0);
		expect((output as Error).message).toBe(
			'Peach did not do it: blob.content_type: is not allowed',
		);
	});
});
