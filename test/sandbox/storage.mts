/**
 * The sandbox's storage, standing for the one Peach's direct uploads point at: PUT the bytes with the
 * headers the direct upload gave. It refuses any request that carries an API key (the key must never
 * leave the Peach API), checks Content-MD5 and the size against the upload, and serves finalized media.
 * Also serves sample files (no auth) for workflows that fetch a file first.
 */
import type { IncomingMessage } from 'node:http';

import { md5 } from './routes/medias.mts';
import type { SandboxState } from './state/index.mts';

export interface StorageAnswer {
	status: number;
	headers: Record<string, string>;
	body: Buffer | string;
}

const json = (status: number, body: unknown): StorageAnswer => ({
	status,
	headers: { 'Content-Type': 'application/json' },
	body: JSON.stringify(body),
});

/** Small but real PDFs (a brochure, an invoice), and PNGs: a tiny one and one of 10 MB (over WhatsApp's 5 MB for images). */
export const SAMPLES: Record<string, { type: string; bytes: () => Buffer }> = {
	'brochure.pdf': {
		type: 'application/pdf',
		bytes: () =>
			Buffer.from(
				'%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj 2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj 3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 200 200]>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n',
			),
	},
	'invoice-1001.pdf': {
		type: 'application/pdf',
		bytes: () =>
			Buffer.from(
				'%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj 2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj 3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 200 200]>>endobj\n% Invoice 1001: 1 x Saree, INR 1,200\ntrailer<</Root 1 0 R>>\n%%EOF\n',
			),
	},
	'logo.png': {
		type: 'image/png',
		bytes: () =>
			Buffer.from(
				'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
				'base64',
			),
	},
	'big.png': {
		type: 'image/png',
		bytes: () =>
			Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), Buffer.alloc(10 * 1024 * 1024)]),
	},
};

export function storage(
	state: SandboxState,
	req: IncomingMessage,
	method: string,
	path: string,
	bytes: Buffer,
): StorageAnswer | undefined {
	const sample = /^\/samples\/([^/]+)$/.exec(path);
	if (sample && method === 'GET' && Object.hasOwn(SAMPLES, sample[1])) {
		const file = SAMPLES[sample[1]];
		return { status: 200, headers: { 'Content-Type': file.type }, body: file.bytes() };
	}
	if (!path.startsWith('/storage/')) return undefined;
	if (req.headers.authorization !== undefined || req.headers['x-account-api-key'] !== undefined) {
		return json(403, {
			message: 'The storage takes no API key: send only the direct upload headers',
		});
	}
	const upload = /^\/storage\/uploads\/([^/]+)$/.exec(path);
	if (upload && method === 'PUT') {
		const entry = state.uploads.find((candidate) => candidate.key === upload[1]);
		if (!entry) return json(404, { message: 'No such upload' });
		if (req.headers['content-md5'] !== entry.checksum)
			return json(400, { message: 'Content-MD5 does not match the direct upload' });
		if (bytes.length !== entry.byteSize)
			return json(400, { message: `${bytes.length} bytes sent, ${entry.byteSize} announced` });
		if (md5(bytes) !== entry.checksum)
			return json(400, { message: 'The checksum of the bytes does not match' });
		entry.bytes = bytes;
		return { status: 204, headers: {}, body: '' };
	}
	const media = /^\/storage\/media\/(\d+)$/.exec(path);
	if (media && method === 'GET') {
		const found = state.medias.find((entry) => String(entry.id) === media[1]);
		const upload = found && state.uploads.find((entry) => entry.signedId === found.signed_id);
		if (!found || !upload?.bytes) return json(404, { message: 'No such media' });
		return { status: 200, headers: { 'Content-Type': found.content_type }, body: upload.bytes };
	}
	return json(404, { message: 'Not found' });
}
