/**
 * Holds TCP ports the way another n8n on the machine does (5678 editor, 5679 task broker), so CI
 * proves that `npm run dev` and `npm run test:e2e` work beside it. Usage:
 *   node test/tools/hold-ports.mjs 5678 5679 &   (stops on SIGTERM/SIGINT)
 * A port that is already taken (by a real n8n) is left alone and reported.
 */
import { createServer } from 'node:net';

const ports = process.argv.slice(2).map(Number);
const servers = [];
for (const port of ports) {
	const server = createServer((socket) => socket.end('HTTP/1.1 503 Service Unavailable\r\n\r\n'));
	await new Promise((resolve) => {
		server.once('error', (error) => {
			process.stdout.write(
				`hold-ports: ${port} is already in use (${error.code}); left as it is\n`,
			);
			resolve();
		});
		server.listen(port, '0.0.0.0', () => {
			servers.push(server);
			process.stdout.write(`hold-ports: holding ${port}\n`);
			resolve();
		});
	});
}
const stop = () => {
	for (const server of servers) server.close();
	process.exit(0);
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
