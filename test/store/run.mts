/**
 * npm run test:store: the delivery record (nodes/Peach/actions/run/record/, the shipped source) attacked
 * on n8n 2.40.7's real deduplication store (n8nStore.mts), on SQLite (a temp file) and PostgreSQL
 * (Debian's, on a free port), by separate OS processes (worker.mts, Node 24 like n8n) against a fake
 * Peach that counts requests per delivery. Per database:
 *
 *   1. writers: 4 processes × 3 executions of the same node (one store row), 6 deliveries each over 3
 *      lanes, all at once (≥ 100 store writes, counted, interleaved between processes); then a crash's
 *      Retry of each: every delivery made exactly once, none made again;
 *   2. kills: a clean run's store calls counted, then a process SIGKILLed right before and right after
 *      each of them, and with each request at Peach (accepted, the answer never seen); each followed by
 *      a crash's Retry in another process, which decides from the store: never made twice, what was
 *      never made is made once or named unknown, nothing called sent that Peach never accepted;
 *   3. stale copies: at each store call of a run, another writer's older copy of the row (read by
 *      direct SQL right before the call, written back by direct SQL within the proof's wait), with
 *      and without a kill at the last request; then the Retry, same checks;
 *   4. long write cycles (the proof's assumption broken): the same older copies written back 2.5 s
 *      after their read; what happens is reported, counted apart (the assumption is broken): a
 *      delivery made twice there is printed as a FINDING, and fails the run with
 *      PEACH_STORE_LONG_FAILS=1 (2026-12-03: 2 of 18 per database, the Retry of a run whose older
 *      copy landed after its summary's proof made its last delivery again; see the report).
 *
 * Prints the longest store call per database and phase, the proof's wait, the attacks' counts, and
 * closes with "N passed, N failed". PEACH_STORE_DB=sqlite|postgresdb runs one database only.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, existsSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { PROOF_WAIT_MS } from '../../nodes/Peach/actions/run/record/n8n';
import { log, provisionHost } from '../e2e/n8n.mts';
import { pool as atMost } from '../e2e/suite.mts';
import { type Service, startPostgres } from '../queue/services.mts';
import type { DatabaseChoice } from './n8nStore.mts';
import type {
	Attack,
	CallLog,
	Decision,
	Delivery,
	Execution,
	ExecutionResult,
	Job,
	WorkerMessage,
} from './protocol.mts';

const REPO = join(import.meta.dirname, '../..');
/** PEACH_STORE_PHASES=writers,kills,stale,long (default all) runs some only (the clean run always). */
const phases = new Set(
	(process.env.PEACH_STORE_PHASES ?? 'writers,kills,stale,long').split(',').map((p) => p.trim()),
);
const started = Date.now();
const seconds = () => `${Math.round((Date.now() - started) / 1000)} s`;
/**
 * A slow writer within the assumption: its read-to-write cycle, under the proof's least wait (fixed
 * here, not derived from PROOF_WAIT_MS, so that a shortened wait is caught, not followed).
 */
const STALE_CYCLE_MS = 700;
/** A writer slower than the proof's wait: the assumption broken. */
const LONG_CYCLE_MS = 2500;

// ---------------------------------------------------------------------------------------------
// The fake Peach: counts each delivery's requests; can answer one by killing the process that made it
// ---------------------------------------------------------------------------------------------

const accepted = new Map<string, number>();

async function startPeach(): Promise<{ url: string; server: Server }> {
	const server = createServer((request, response) => {
		let body = '';
		request.on('data', (chunk: Buffer) => (body += chunk.toString()));
		request.on('end', () => {
			const { key, pid, killMe } = JSON.parse(body) as {
				key: string;
				pid: number;
				killMe: boolean;
			};
			accepted.set(key, (accepted.get(key) ?? 0) + 1);
			if (killMe) {
				try {
					process.kill(pid, 'SIGKILL');
				} catch {
					// already gone
				}
				response.destroy();
				return;
			}
			response.writeHead(200, { 'content-type': 'application/json' });
			response.end(JSON.stringify({ id: `msg-${key}-${accepted.get(key)}`, status: 'queued' }));
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const address = server.address();
	const port = typeof address === 'object' && address ? address.port : 0;
	return { url: `http://127.0.0.1:${port}`, server };
}

// ---------------------------------------------------------------------------------------------
// The n8n processes
// ---------------------------------------------------------------------------------------------

interface Outcome {
	killed: boolean;
	results: ExecutionResult[];
	calls: CallLog[];
	stale: Array<{ cycleMs: number; wait: number }>;
	error?: string;
}

const children = new Set<ChildProcess>();
process.on('exit', () => {
	for (const child of children) child.kill('SIGKILL');
});
// Stopped from outside: the exit handlers (these processes, PostgreSQL's) still run.
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => process.exit(130));

/** Which process asked for an older copy (the slow writer's `read` goes back to it). */
const olderCopyFrom = new Map<number, Worker>();
/** Older copies written, per job. */
const staleFor = new Map<number, Array<{ cycleMs: number; wait: number }>>();

class Worker {
	/** The process that writes older copies for this one (another process: it outlives this one). */
	slowWriter: Worker | undefined;
	private waiting = new Map<number, { resolve: (outcome: Outcome) => void; outcome: Outcome }>();
	readonly ready: Promise<void>;
	readonly exited: Promise<void>;
	output = '';

	constructor(
		readonly child: ChildProcess,
		readonly label: string,
	) {
		children.add(child);
		child.stdout?.on('data', (chunk: Buffer) => (this.output += chunk.toString()));
		child.stderr?.on('data', (chunk: Buffer) => (this.output += chunk.toString()));
		this.ready = new Promise<void>((resolve, reject) => {
			child.on('message', (message: WorkerMessage) => {
				if (message.type === 'ready') return resolve();
				if (message.type === 'olderCopy') {
					const { olderCopy, id, workflowId, nodeId, cycleMs } = message;
					olderCopyFrom.set(olderCopy, this);
					this.slowWriter?.child.send({ olderCopy, id, workflowId, nodeId, cycleMs });
					return;
				}
				if (message.type === 'read') {
					olderCopyFrom.get(message.olderCopy)?.child.send({ readDone: message.olderCopy });
					olderCopyFrom.delete(message.olderCopy);
					return;
				}
				if (message.type === 'stale') {
					const to = staleFor.get(message.id);
					to?.push({ cycleMs: message.cycleMs, wait: message.wait });
					return;
				}
				const job = this.waiting.get(message.id);
				if (!job) {
					if (message.type === 'failed') reject(new Error(`${label}: ${message.error}`));
					return;
				}
				this.waiting.delete(message.id);
				job.outcome.calls = message.calls;
				if (message.type === 'done') job.outcome.results = message.results;
				else job.outcome.error = message.error;
				job.resolve(job.outcome);
			});
			child.once('exit', (code, signal) =>
				reject(
					new Error(
						`${label} exited (${signal ?? code}) before ready: ${this.output.slice(-2000)}`,
					),
				),
			);
		});
		// A process that exits before it is ready (the setup) is no failure until someone waits for it.
		this.ready.catch(() => undefined);
		this.exited = new Promise<void>((resolve) =>
			child.once('exit', (_code, signal) => {
				children.delete(child);
				for (const job of this.waiting.values()) {
					job.outcome.killed = signal === 'SIGKILL';
					if (!job.outcome.killed) job.outcome.error = `exited: ${this.output.slice(-2000)}`;
					job.resolve(job.outcome);
				}
				this.waiting.clear();
				resolve();
			}),
		);
	}

	async run(job: Job): Promise<Outcome> {
		await this.ready;
		return await new Promise<Outcome>((resolve) => {
			const stale: Outcome['stale'] = [];
			staleFor.set(job.id, stale);
			this.waiting.set(job.id, {
				resolve,
				outcome: { killed: false, results: [], calls: [], stale },
			});
			this.child.send(job);
		});
	}

	async stop(): Promise<void> {
		if (this.child.exitCode !== null || this.child.signalCode !== null) return;
		this.child.kill('SIGTERM');
		await this.exited;
	}
}

interface Setting {
	name: string;
	database: DatabaseChoice;
	nodeBin: string;
	n8nModules: string;
	peachUrl: string;
	/** The database's slow writer (older copies of rows), once started. */
	slowWriter?: Worker;
}

function spawnWorker(setting: Setting, label: string, setup = false): Worker {
	const child = spawn(
		join(setting.nodeBin, 'node'),
		[
			'--import',
			'tsx',
			join(REPO, 'test/store/worker.mts'),
			setting.n8nModules,
			JSON.stringify(setting.database),
			...(setup ? ['setup'] : []),
		],
		{ cwd: REPO, stdio: ['ignore', 'pipe', 'pipe', 'ipc'] },
	);
	const worker = new Worker(child, label);
	worker.slowWriter = setting.slowWriter;
	return worker;
}

/** Processes started ahead (n8n loads in seconds): each kill attack takes a fresh one. */
class Pool {
	private warm: Worker[] = [];
	private count = 0;
	constructor(
		private readonly setting: Setting,
		size: number,
	) {
		for (let i = 0; i < size; i++) this.warm.push(this.spawn());
	}
	private spawn(): Worker {
		return spawnWorker(this.setting, `${this.setting.name} worker ${++this.count}`);
	}
	take(): Worker {
		const worker = this.warm.shift() ?? this.spawn();
		this.warm.push(this.spawn());
		return worker;
	}
	async stop(): Promise<void> {
		await Promise.all(this.warm.map(async (worker) => await worker.stop()));
	}
}

// ---------------------------------------------------------------------------------------------
// Stories and their checks
// ---------------------------------------------------------------------------------------------

let jobIds = 0;
let stories = 0;
let passed = 0;
let failed = 0;
const failures: string[] = [];

function check(name: string, problems: string[]): boolean {
	if (problems.length) {
		failed += 1;
		failures.push(`${name}: ${problems.join('; ')}`);
		log(`  FAIL ${name}: ${problems.join('; ')}`);
		return false;
	}
	passed += 1;
	return true;
}

function newExecution(setting: Setting, story: string, deliveries: Delivery[]): Execution {
	stories += 1;
	return {
		workflowId: `wf-${story}`.slice(0, 36),
		nodeId: 'peach-node',
		executionId: `${story}-1`,
		establishedAt: Date.now() * 1000 + stories,
		retry: false,
		deliveries,
		peachUrl: setting.peachUrl,
	};
}

const retryOf = (execution: Execution, attempt = 2): Execution => ({
	...execution,
	executionId: `${execution.executionId.replace(/-\d+$/, '')}-${attempt}`,
	retry: true,
});

/** The standard run: lane A two deliveries in order, lane B one. */
const standard = (story: string): Delivery[] => [
	{ lane: 'A', key: `${story}:a1` },
	{ lane: 'A', key: `${story}:a2` },
	{ lane: 'B', key: `${story}:b1` },
];

/**
 * The promise after a story: no delivery made twice; none the Retry calls sent that Peach never
 * accepted; every delivery Peach never got is made by the Retry or named unknown (never skipped).
 */
function promiseKept(deliveries: Delivery[], retry: ExecutionResult | undefined): string[] {
	const problems: string[] = [];
	for (const { key } of deliveries) {
		const count = accepted.get(key) ?? 0;
		const decided: Decision | undefined = retry?.decided[key];
		if (count > 1) problems.push(`${key} made ${count} times (retry: ${decided})`);
		if (decided === 'earlierSent' && count === 0)
			problems.push(`${key} called sent by the Retry, never made`);
		if (count === 0 && decided !== 'earlierUnknown' && decided !== 'claimedElsewhere')
			problems.push(`${key} never made, the Retry decided ${decided}`);
	}
	return problems;
}

interface Figures {
	calls: number;
	longestMs: number;
	longestWaitMs: number;
}
const figures = new Map<string, Figures>();
function tally(phase: string, calls: CallLog[]): void {
	const held = figures.get(phase) ?? { calls: 0, longestMs: 0, longestWaitMs: 0 };
	held.calls += calls.length;
	for (const call of calls) {
		held.longestMs = Math.max(held.longestMs, call.ms);
		held.longestWaitMs = Math.max(held.longestWaitMs, call.wait);
	}
	figures.set(phase, held);
}

const counts = new Map<string, number>();
const count = (what: string, by = 1) => counts.set(what, (counts.get(what) ?? 0) + by);

/** A first run (attacked), then a crash's Retry in `retrier`; the promise checked. */
async function story(
	setting: Setting,
	name: string,
	runner: Worker,
	retrier: Worker,
	attack: Attack | undefined,
	phase: string,
	options: { expectKill?: boolean; lingerMs?: number } = {},
): Promise<{ first: Outcome; retry: Outcome; problems: string[] }> {
	const deliveries = standard(`${setting.name}-${name}`);
	const execution = newExecution(setting, `${setting.name}-${name}`, deliveries);
	const first = await runner.run({
		id: ++jobIds,
		executions: [execution],
		attack,
		lingerMs: options.lingerMs ?? PROOF_WAIT_MS * 2 + 500,
	});
	tally(`${setting.name} ${phase}`, first.calls);
	const retry = await retrier.run({
		id: ++jobIds,
		executions: [retryOf(execution)],
		lingerMs: 0,
	});
	tally(`${setting.name} ${phase} (Retry)`, retry.calls);
	const problems = [
		...(first.error ? [`first run failed: ${first.error.slice(0, 500)}`] : []),
		...(retry.error ? [`Retry failed: ${retry.error.slice(0, 500)}`] : []),
		...(options.expectKill !== undefined && first.killed !== options.expectKill
			? [`first run ${first.killed ? 'was' : 'was not'} killed`]
			: []),
		...promiseKept(deliveries, retry.results[0]),
	];
	for (const [, decision] of Object.entries(retry.results[0]?.decided ?? {}))
		count(`${phase}: Retry ${decision}`);
	return { first, retry, problems };
}

// ---------------------------------------------------------------------------------------------
// The attacks
// ---------------------------------------------------------------------------------------------

async function writers(setting: Setting): Promise<void> {
	const processes = 4;
	const perProcess = 3;
	const workers = Array.from({ length: processes }, (_, index) =>
		spawnWorker(setting, `${setting.name} writer ${index + 1}`),
	);
	await Promise.all(workers.map(async (worker) => await worker.ready));
	const workflowId = `wf-${setting.name}-writers`;
	const executions = workers.map((_, w) =>
		Array.from({ length: perProcess }, (_, e) => {
			const story = `${setting.name}-w${w}e${e}`;
			const deliveries = ['A', 'B', 'C'].flatMap((lane) => [
				{ lane, key: `${story}:${lane}1` },
				{ lane, key: `${story}:${lane}2` },
			]);
			return { ...newExecution(setting, story, deliveries), workflowId };
		}),
	);
	// All at the same moment: their first calls race to insert the row.
	const startAt = Date.now() + 300;
	const outcomes = await Promise.all(
		workers.map(
			async (worker, w) =>
				await worker.run({
					id: ++jobIds,
					executions: executions[w],
					startAt,
					lingerMs: PROOF_WAIT_MS * 3,
				}),
		),
	);
	const calls = outcomes.flatMap((outcome) => outcome.calls);
	tally(`${setting.name} writers`, calls);
	// A call interleaved: another process's call began or ended while it ran.
	const interleaved = calls.filter((call) =>
		calls.some(
			(other) =>
				other.pid !== call.pid &&
				other.started < call.started + call.ms &&
				other.started + other.ms > call.started,
		),
	).length;
	count(`${setting.name} writers: store calls`, calls.length);
	count(`${setting.name} writers: calls overlapping another process`, interleaved);
	const retrier = spawnWorker(setting, `${setting.name} writers' Retry`);
	const retried = await retrier.run({
		id: ++jobIds,
		executions: executions.flat().map((execution) => retryOf(execution)),
		lingerMs: 0,
	});
	tally(`${setting.name} writers (Retry)`, retried.calls);
	await Promise.all([...workers, retrier].map(async (worker) => await worker.stop()));
	const problems = [
		...outcomes.flatMap((outcome) => (outcome.error ? [outcome.error.slice(0, 500)] : [])),
		...(retried.error ? [retried.error.slice(0, 500)] : []),
		...(calls.length < 100 ? [`only ${calls.length} store calls`] : []),
	];
	executions.flat().forEach((execution, index) => {
		for (const { key } of execution.deliveries) {
			const made = accepted.get(key) ?? 0;
			if (made !== 1) problems.push(`${key} made ${made} times`);
			const decided = retried.results[index]?.decided[key];
			if (decided !== 'earlierSent') problems.push(`${key}: the Retry decided ${decided}`);
		}
	});
	for (const outcome of outcomes)
		for (const result of outcome.results)
			for (const decision of Object.values(result.decided)) count(`writers: ${decision}`);
	const name = `${setting.name}: ${processes} processes × ${perProcess} executions on one row (${calls.length} store calls, ${interleaved} overlapping another process's)`;
	if (check(name, problems)) log(`  ${name}: kept the promise (${seconds()})`);
}

async function kills(setting: Setting, pool: Pool, retrier: Worker): Promise<void> {
	const calibration = await story(setting, 'calibration', retrier, retrier, undefined, 'clean');
	check(`${setting.name}: a clean run and its Retry`, calibration.problems);
	const steps = calibration.first.calls.length;
	log(
		`  ${setting.name}: a clean run makes ${steps} store calls (${describe(calibration.first.calls)})`,
	);
	const attacks: Array<{ name: string; attack: Attack }> = [];
	for (let call = 1; call <= steps && phases.has('kills'); call++) {
		attacks.push({ name: `kill-before-${call}`, attack: { killBeforeCall: call } });
		attacks.push({ name: `kill-after-${call}`, attack: { killAfterCall: call } });
	}
	for (let post = 1; post <= 3 && phases.has('kills'); post++)
		attacks.push({ name: `kill-at-post-${post}`, attack: { killAtPost: post } });
	const results = await atMost(
		3,
		attacks.map(({ name, attack }) => async () => {
			const told = await story(setting, name, pool.take(), retrier, attack, 'kills', {
				expectKill: true,
			});
			count('kills: attacks');
			return check(`${setting.name}: ${name}`, told.problems);
		}),
	);
	log(
		`  ${setting.name}: ${results.filter(Boolean).length}/${results.length} kill attacks kept the promise (${seconds()})`,
	);
	return stale(setting, pool, retrier, steps);
}

function describe(calls: CallLog[]): string {
	return calls.map((call) => `${call.kind}(${call.items})`).join(' ');
}

async function stale(setting: Setting, pool: Pool, retrier: Worker, steps: number): Promise<void> {
	const tasks: Array<() => Promise<boolean>> = [];
	for (let call = 1; call <= steps && phases.has('stale'); call++) {
		tasks.push(async () => {
			const told = await story(
				setting,
				`stale-${call}`,
				retrier,
				retrier,
				{ staleAtCall: call, cycleMs: STALE_CYCLE_MS },
				'stale',
				{ expectKill: false, lingerMs: PROOF_WAIT_MS * 3 },
			);
			count('stale: attacks');
			count('stale: older copies written', told.first.stale.length);
			// A run that ended, every delivery made: its summary was proven before what it replaces went,
			// so the Retry knows every one sent (none merely unknown).
			const unsure = Object.entries(told.retry.results[0]?.decided ?? {}).filter(
				([, decision]) => decision !== 'earlierSent',
			);
			return check(`${setting.name}: stale copy at call ${call}`, [
				...told.problems,
				...unsure.map(
					([key, decision]) => `${key}: the Retry decided ${decision}, not earlierSent`,
				),
			]);
		});
		tasks.push(async () => {
			const told = await story(
				setting,
				`stale-${call}-kill`,
				pool.take(),
				retrier,
				{ staleAtCall: call, cycleMs: STALE_CYCLE_MS, killAtPost: 3 },
				'stale',
				{},
			);
			count('stale: attacks');
			return check(
				`${setting.name}: stale copy at call ${call}, killed at the last request`,
				told.problems,
			);
		});
	}
	const results = await atMost(3, tasks);
	log(
		`  ${setting.name}: ${results.filter(Boolean).length}/${results.length} stale-copy attacks kept the promise (${seconds()})`,
	);
	await longCycles(setting, pool, retrier, steps);
}

const longFindings: string[] = [];

async function longCycles(
	setting: Setting,
	pool: Pool,
	retrier: Worker,
	steps: number,
): Promise<void> {
	const cycleMs = LONG_CYCLE_MS;
	const tasks: Array<() => Promise<void>> = [];
	for (let call = 1; call <= steps && phases.has('long'); call++)
		for (const killed of [false, true])
			tasks.push(async () => {
				const name = `long-${call}${killed ? '-kill' : ''}`;
				const told = await story(
					setting,
					name,
					killed ? pool.take() : retrier,
					retrier,
					{ staleAtCall: call, cycleMs, ...(killed ? { killAtPost: 3 } : {}) },
					'long',
					{ lingerMs: cycleMs + PROOF_WAIT_MS * 2 },
				);
				count('long: attacks');
				const decided = Object.values(told.retry.results[0]?.decided ?? {});
				if (told.problems.length) {
					count('long: broke the promise');
					longFindings.push(`${setting.name} ${name}: ${told.problems.join('; ')}`);
					// FINDING (assumption broken), for the lead to decide: PEACH_STORE_LONG_FAILS=1 makes it fail.
					if (process.env.PEACH_STORE_LONG_FAILS === '1')
						check(
							`${setting.name}: ${name} (FINDING: a writer slower than the wait)`,
							told.problems,
						);
				} else if (decided.includes('earlierUnknown')) count('long: named unknown');
			});
	await atMost(3, tasks);
	log(`  ${setting.name}: ${tasks.length} long-cycle attacks (${seconds()})`);
}

// ---------------------------------------------------------------------------------------------

function postgresBin(): string {
	const lib = '/usr/lib/postgresql';
	const versions = existsSync(lib)
		? readdirSync(lib).filter((name) => existsSync(join(lib, name, 'bin/initdb')))
		: [];
	if (!versions.length)
		throw new Error(
			'PostgreSQL is missing: apt-get install -y postgresql (or run npm run test:queue once)',
		);
	return join(lib, versions.sort((a, b) => Number(b) - Number(a))[0], 'bin');
}

async function onDatabase(setting: Setting): Promise<void> {
	const phaseStarted = Date.now();
	log(`${setting.name}: n8n ${setting.database.type} store`);
	const setup = spawnWorker(setting, `${setting.name} setup`, true);
	await setup.exited;
	if (setup.child.exitCode !== 0) throw new Error(`setup failed: ${setup.output.slice(-2000)}`);
	setting.slowWriter = spawnWorker(setting, `${setting.name} slow writer`);
	await setting.slowWriter.ready;
	if (phases.has('writers')) await writers(setting);
	const pool = new Pool(setting, 3);
	const retrier = spawnWorker(setting, `${setting.name} retrier`);
	await kills(setting, pool, retrier);
	await Promise.all([pool.stop(), retrier.stop(), setting.slowWriter.stop()]);
	log(`${setting.name}: ${Math.round((Date.now() - phaseStarted) / 1000)} s`);
}

async function main(): Promise<void> {
	const { host, nodeBin } = await provisionHost();
	const n8nModules = join(host, 'node_modules');
	const peach = await startPeach();
	const folder = mkdtempSync(join(tmpdir(), 'peach-store-'));
	// PostgreSQL runs as Debian's postgres user (startPostgres): it must reach its folder.
	chmodSync(folder, 0o755);
	const only = process.env.PEACH_STORE_DB;
	let postgres: Service | undefined;
	try {
		if (!only || only === 'sqlite') {
			mkdirSync(join(folder, 'sqlite/.n8n'), { recursive: true });
			await onDatabase({
				name: 'sqlite',
				database: { type: 'sqlite', sqliteFolder: join(folder, 'sqlite') },
				nodeBin,
				n8nModules,
				peachUrl: peach.url,
			});
		}
		if (!only || only === 'postgresdb') {
			postgres = await startPostgres(join(folder, 'postgres'), postgresBin());
			await onDatabase({
				name: 'postgres',
				database: { type: 'postgresdb', postgresPort: postgres.port },
				nodeBin,
				n8nModules,
				peachUrl: peach.url,
			});
		}
	} finally {
		await postgres?.stop();
		peach.server.close();
		rmSync(folder, { recursive: true, force: true });
	}
	log('');
	log(
		`proof's least wait (PROOF_WAIT_MS): ${PROOF_WAIT_MS} ms; stale writers' cycle: ${STALE_CYCLE_MS} ms; long cycles: ${LONG_CYCLE_MS} ms`,
	);
	for (const [phase, held] of figures)
		log(
			`${phase}: ${held.calls} store calls, longest ${held.longestMs} ms, proof's wait up to ${held.longestWaitMs} ms`,
		);
	for (const [what, n] of counts) log(`${what}: ${n}`);
	log(`long write cycles (assumption broken): ${longFindings.length} broke the promise`);
	for (const finding of longFindings) log(`  ${finding}`);
	log(`${passed} passed, ${failed} failed (${Math.round((Date.now() - started) / 1000)} s)`);
	process.exit(failed ? 1 : 0);
}

void main().catch((error: unknown) => {
	console.error(error);
	process.exit(1);
});
