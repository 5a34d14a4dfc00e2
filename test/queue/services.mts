/**
 * Redis and PostgreSQL for the queue-mode run, as this run's own processes on free loopback ports, from
 * Debian's redis-server and postgresql packages (installed here when missing and the run is root).
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

import { freePort, log, run } from '../e2e/n8n.mts';

const POSTGRES_LIB = '/usr/lib/postgresql';

function postgresBin(): string | undefined {
	if (!existsSync(POSTGRES_LIB)) return undefined;
	const versions = readdirSync(POSTGRES_LIB)
		.filter((name) => existsSync(join(POSTGRES_LIB, name, 'bin/initdb')))
		.sort((a, b) => Number(b) - Number(a));
	return versions.length ? join(POSTGRES_LIB, versions[0], 'bin') : undefined;
}

const hasRedis = () => existsSync('/usr/bin/redis-server') && existsSync('/usr/bin/redis-cli');

/** Installs Debian's redis-server and postgresql when missing (as root), else says what to install. */
export async function ensurePackages(): Promise<{ postgres: string }> {
	const missing = [
		...(hasRedis() ? [] : ['redis-server']),
		...(postgresBin() ? [] : ['postgresql']),
	];
	if (missing.length) {
		if (process.getuid?.() !== 0) {
			throw new Error(
				`missing Debian packages: ${missing.join(', ')}. Install them (sudo apt-get install -y ${missing.join(' ')}) or run as root.`,
			);
		}
		log(`queue: installing ${missing.join(', ')} with apt-get`);
		const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
		const install = () =>
			run('apt-get', ['install', '-y', '--no-install-recommends', ...missing], {
				env,
				timeoutMs: 10 * 60_000,
			});
		try {
			await install();
		} catch {
			await run('apt-get', ['update'], { env, timeoutMs: 10 * 60_000 });
			await install();
		}
	}
	const postgres = postgresBin();
	if (!postgres || !hasRedis()) throw new Error('redis-server or postgresql is still missing');
	return { postgres };
}

export interface Service {
	port: number;
	stop(): Promise<void>;
}

const running = new Set<ChildProcess>();

/** Signals a service's whole process group (runuser and the postgres under it alike). */
function signal(child: ChildProcess, name: NodeJS.Signals) {
	try {
		if (child.pid) process.kill(-child.pid, name);
	} catch {
		// already gone
	}
}

/** Last resort if the run dies: no Redis or PostgreSQL of ours outlives it. */
process.on('exit', () => {
	for (const child of running) signal(child, 'SIGKILL');
});

/** Starts a service in its own process group, so stopping it stops everything it started. */
function startService(command: string, args: string[], cwd: string): ChildProcess {
	const child = spawn(command, args, { cwd, stdio: 'ignore', detached: true });
	running.add(child);
	child.once('exit', () => running.delete(child));
	return child;
}

function stopper(child: ChildProcess): () => Promise<void> {
	return async () => {
		if (child.exitCode !== null || child.signalCode !== null) return;
		const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
		signal(child, 'SIGTERM');
		const timer = setTimeout(() => signal(child, 'SIGKILL'), 10_000);
		await exited;
		clearTimeout(timer);
	};
}

async function waitFor(
	what: string,
	ready: () => boolean,
	child: ChildProcess,
	timeoutMs = 30_000,
) {
	const deadline = Date.now() + timeoutMs;
	while (!ready()) {
		if (child.exitCode !== null) throw new Error(`${what} exited early (code ${child.exitCode})`);
		if (Date.now() > deadline) throw new Error(`${what} did not start within ${timeoutMs / 1000}s`);
		await new Promise((resolve) => setTimeout(resolve, 200));
	}
}

const succeeds = (command: string, args: string[]) => {
	try {
		execFileSync(command, args, { stdio: 'ignore' });
		return true;
	} catch {
		return false;
	}
};

/** Redis without persistence, on a free port. */
export async function startRedis(folder: string): Promise<Service> {
	const port = await freePort();
	const child = startService(
		'redis-server',
		[
			'--port',
			String(port),
			'--bind',
			'127.0.0.1',
			'--save',
			'',
			'--appendonly',
			'no',
			'--dir',
			folder,
		],
		folder,
	);
	await waitFor('redis-server', () => succeeds('redis-cli', ['-p', String(port), 'ping']), child);
	return { port, stop: stopper(child) };
}

/**
 * A new PostgreSQL cluster in `folder` on a free port, trust authentication on loopback, database n8n.
 * PostgreSQL refuses to run as root: as root, the cluster belongs to Debian's postgres user.
 */
export async function startPostgres(folder: string, bin: string): Promise<Service> {
	const port = await freePort();
	const data = join(folder, 'pgdata');
	mkdirSync(data, { recursive: true });
	const asRoot = process.getuid?.() === 0;
	const as = (command: string, args: string[]) =>
		asRoot
			? (['runuser', ['-u', 'postgres', '--', command, ...args]] as const)
			: ([command, args] as const);
	if (asRoot) {
		chmodSync(folder, 0o777);
		execFileSync('chown', ['-R', 'postgres', data]);
	}
	const [initCommand, initArgs] = as(join(bin, 'initdb'), [
		'-D',
		data,
		'-U',
		'postgres',
		'--auth=trust',
		'--encoding=UTF8',
		'--no-sync',
	]);
	await run(initCommand, [...initArgs], { cwd: data, timeoutMs: 120_000 });
	const [command, args] = as(join(bin, 'postgres'), [
		'-D',
		data,
		'-p',
		String(port),
		'-k',
		data,
		'-h',
		'127.0.0.1',
		'-c',
		'fsync=off',
		'-c',
		'max_connections=200',
	]);
	const child = startService(command, [...args], data);
	const psql = join(bin, 'psql');
	await waitFor(
		'postgres',
		() =>
			succeeds(psql, ['-h', '127.0.0.1', '-p', String(port), '-U', 'postgres', '-c', 'select 1']),
		child,
	);
	execFileSync(psql, [
		'-h',
		'127.0.0.1',
		'-p',
		String(port),
		'-U',
		'postgres',
		'-c',
		'create database n8n',
	]);
	return { port, stop: stopper(child) };
}
