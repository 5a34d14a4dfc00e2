/** A sandbox per test with a webhook receiver, and a client for its API, for the sandbox test files. */
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';

import { startReceiver } from './receiver.mts';
import { type Sandbox, startSandbox } from './server.mts';

export const KEY = 'test-sandbox-key';

export interface SandboxHarness {
	readonly sandbox: Sandbox;
	readonly received: Awaited<ReturnType<typeof startReceiver>>['received'];
	api(method: string, path: string, body?: unknown): Promise<{ status: number; json: any }>;
	/** Waits until `check` holds (webhooks and delayed state changes), at most 5 s. */
	until(check: () => boolean | Promise<boolean>): Promise<void>;
}

export function useSandbox(deliveryDelayMs = 5): SandboxHarness {
	let sandbox: Sandbox;
	let receiver: Awaited<ReturnType<typeof startReceiver>>;
	beforeAll(async () => {
		receiver = await startReceiver();
	});
	afterAll(async () => {
		await receiver.close();
	});
	beforeEach(async () => {
		receiver.received.length = 0;
		sandbox = await startSandbox({
			apiKey: KEY,
			webhookTargets: [`${receiver.url}/hook`],
			deliveryDelayMs,
		});
	});
	afterEach(async () => {
		await sandbox.idle();
		await sandbox.close();
	});
	return {
		get sandbox() {
			return sandbox;
		},
		get received() {
			return receiver.received;
		},
		async api(method, path, body) {
			const response = await fetch(`${sandbox.url}${path}`, {
				method,
				headers: { Authorization: KEY, 'Content-Type': 'application/json' },
				body: body === undefined ? undefined : JSON.stringify(body),
			});
			const text = await response.text();
			let json: unknown = text;
			try {
				json = JSON.parse(text);
			} catch {
				// not JSON: keep the text
			}
			return { status: response.status, json };
		},
		async until(check) {
			const deadline = Date.now() + 5000;
			while (!(await check())) {
				if (Date.now() > deadline) throw new Error('condition not met within 5 s');
				await new Promise((resolve) => setTimeout(resolve, 10));
			}
		},
	};
}
