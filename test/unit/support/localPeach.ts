import { afterEach } from 'vitest';

import { tryOnce } from './recoveryRuns';
import { recordingServer } from './wire.mts';

/**
 * A local Peach for tests over n8n's own request function (wire.mts): a faked HTTP layer follows no
 * redirect and resolves no `..`; n8n's does both.
 */

/** Starts local servers for a test file, each closed after its test (call at the file's top level). */
export function localPeachServers() {
	const servers: Array<{ close(): Promise<void> }> = [];
	afterEach(async () => {
		for (const server of servers.splice(0)) await server.close();
	});
	return async (answer: Parameters<typeof recordingServer>[0]) => {
		const server = await recordingServer(answer);
		servers.push(server);
		return server;
	};
}

/** Peach's answer to a send. */
export const ok = () => ({ status: 200, body: '{"status":"success","event_id":"evt_1"}' });

/** The Peach node with `params`, over n8n's own request function, against `baseUrl`. */
export async function runOverTheWire(params: Record<string, unknown>, baseUrl: string) {
	return await tryOnce({ params, baseUrl, wire: true });
}
