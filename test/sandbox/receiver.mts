/** A tiny HTTP server that records the webhooks posted to it (for sandbox tests and e2e checks). */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
	path: string;
	headers: Record<string, string | string[] | undefined>;
	body: unknown;
}

export async function startReceiver(status = 200) {
	const received: Received[] = [];
	const server = createServer((req, res) => {
		const chunks: Buffer[] = [];
		req.on('data', (chunk: Buffer) => chunks.push(chunk));
		req.on('end', () => {
			const text = Buffer.concat(chunks).toString('utf8');
			received.push({
				path: req.url ?? '/',
				headers: req.headers,
				body: text ? JSON.parse(text) : undefined,
			});
			res.writeHead(status).end();
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
	const { port } = server.address() as AddressInfo;
	return {
		url: `http://127.0.0.1:${port}`,
		received,
		close: () => new Promise<void>((resolve) => server.close(() => resolve())),
	};
}
