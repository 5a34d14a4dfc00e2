/**
 * `npm run dev`'s stack for the browser scripts: the real command (n8n + the packed package + the sandbox +
 * examples/*.json), started on free ports in its own folder and stopped with Ctrl-C's signal.
 */
import { spawn } from 'node:child_process';

import { freePort, type Json, log, REPO_ROOT } from '../e2e/n8n.mts';

export interface DevStack {
	url: string;
	sandboxUrl: string;
	/** What the sandbox received (its admin API: method, path, body...). */
	sandboxRequests(): Promise<Json[]>;
	/** What `npm run dev` printed so far. */
	output(): string;
	stop(): Promise<void>;
}

export async function startDevStack(folder: string): Promise<DevStack> {
	const env = {
		...process.env,
		PEACH_DEV_PORT: String(await freePort()),
		PEACH_SANDBOX_PORT: String(await freePort()),
		PEACH_DEV_FOLDER: folder,
	};
	const child = spawn('npm', ['run', 'dev', '--', '--fresh'], {
		cwd: REPO_ROOT,
		env,
		detached: true,
		stdio: ['ignore', 'pipe', 'pipe'],
	});
	let output = '';
	const ready = new Promise<{ url: string; sandboxUrl: string }>((resolve, reject) => {
		const timer = setTimeout(
			() => reject(new Error(`npm run dev was not ready in 10 minutes:\n${output.slice(-2000)}`)),
			10 * 60_000,
		);
		const read = (chunk: Buffer) => {
			output += chunk.toString();
			const url = /Editor:\s+(http\S+)/.exec(output)?.[1];
			const sandboxUrl = /Sandbox:\s+(http\S+)/.exec(output)?.[1];
			if (url && sandboxUrl && output.includes('Ctrl-C stops everything')) {
				clearTimeout(timer);
				resolve({ url, sandboxUrl });
			}
		};
		child.stdout.on('data', read);
		child.stderr.on('data', read);
		child.on('exit', (code) => {
			clearTimeout(timer);
			reject(new Error(`npm run dev exited (${code}):\n${output.slice(-2000)}`));
		});
	});
	const stop = async () => {
		if (child.exitCode !== null || !child.pid) return;
		const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
		process.kill(-child.pid, 'SIGINT');
		const timer = setTimeout(() => child.pid && process.kill(-child.pid, 'SIGKILL'), 30_000);
		await exited;
		clearTimeout(timer);
	};
	process.on('exit', () => {
		if (child.exitCode === null && child.pid) {
			try {
				process.kill(-child.pid, 'SIGKILL');
			} catch {
				// gone
			}
		}
	});
	const { url, sandboxUrl } = await ready.catch(async (error: Error) => {
		await stop();
		throw error;
	});
	log(`browser: npm run dev is up (editor ${url}, sandbox ${sandboxUrl})`);
	return {
		url,
		sandboxUrl,
		sandboxRequests: async () =>
			(await (await fetch(`${sandboxUrl}/__sandbox/requests`)).json()) as Json[],
		output: () => output,
		stop,
	};
}
