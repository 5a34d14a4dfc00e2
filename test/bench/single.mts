/**
 * npm run bench, parts (h) and (i): the most common use, a webhook workflow that sends ONE message per
 * execution, 100 executions one after another (each webhook call waits for its workflow's end), in
 * n8n's regular mode (h: the bench's n8n) and in queue mode (i: Redis, PostgreSQL, a main and two
 * `n8n worker` processes of their own, started as `npm run test:queue` starts them). Interleaved rounds;
 * ms per execution, medians. The variants also say where a Peach execution's time goes:
 *
 *   http                 Webhook → HTTP Request (one expression body), Peach answering after 100 ms
 *   http with credential the same authenticated by the Peach API credential (n8n reads it per execution)
 *   peach                Webhook → Peach Send with its defaults (phone, name, variable mapped), 100 ms
 *   peach template read  the same with a template of its own per execution, so each one reads it
 *   webhook only         Webhook → Wait 100 ms: n8n's own time per execution, plus 100 ms (n8n in
 *                        queue mode loses the answer of a workflow that ends at once now and then)
 *   peach at once        Peach Send against a Peach answering at once
 *   peach dry run        the same with Dry Run: every check, no record and no send
 *   http at once         HTTP Request against a Peach answering at once
 *
 * so that: n8n's own = webhook only − 100 ms; the send = http − n8n's own; the template read = peach
 * template read − peach; the node's other time = peach − http − its store calls − its credential read.
 * The delivery record's store calls and n8n's credential reads are timed inside n8n (timings.cjs,
 * preloaded by the bench: wall time of n8n's deduplication store calls and of its credential reads,
 * per execution of each variant).
 */
import { randomUUID } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import {
	chain,
	installPackage,
	type Json,
	keepFailedRun,
	log,
	N8nClient,
	type N8nInstance,
	newUserFolder,
	packPackage,
	peachNode,
	provisionHost,
	startN8n,
	webhookNode,
} from '../e2e/n8n.mts';
import { ensurePackages, type Service, startPostgres, startRedis } from '../queue/services.mts';

const KEY = 'bench-key';

/** The preload that times n8n's store calls and credential reads (timings.cjs). */
export const TIMINGS_PRELOAD = join(dirname(fileURLToPath(import.meta.url)), 'timings.cjs');

/** The environment that preloads it into an n8n process, writing into `folder`. */
export const timingsEnv = (folder: string): NodeJS.ProcessEnv => ({
	NODE_OPTIONS: `--require ${TIMINGS_PRELOAD}`,
	PEACH_BENCH_TIMINGS: folder,
});

type Timings = Record<string, { calls: number; ms: number }>;

/** What every process preloaded with timings.cjs wrote into `folder`, summed. */
function readTimings(folder: string | undefined): Timings {
	const sum: Timings = {};
	if (!folder || !existsSync(folder)) return sum;
	for (const name of readdirSync(folder)) {
		let timings: Timings;
		try {
			timings = JSON.parse(readFileSync(join(folder, name), 'utf8')) as Timings;
		} catch {
			continue; // being written
		}
		for (const [label, { calls, ms }] of Object.entries(timings)) {
			const entry = (sum[label] ??= { calls: 0, ms: 0 });
			entry.calls += calls;
			entry.ms += ms;
		}
	}
	return sum;
}

export interface SingleSendOptions {
	/** Mocks of Peach: answering after 100 ms, and at once. */
	slowUrl: string;
	fastUrl: string;
	rounds: number;
	/** Executions one after another per variant and round. */
	count: number;
	/** Where the n8n processes write what timings.cjs measured (their NODE_OPTIONS preload it). */
	timings?: string;
}

export interface SingleSendResults {
	load: number;
	rounds: number;
	count: number;
	/**
	 * Per variant: median ms per execution over the rounds, and each round's; the store calls and
	 * credential reads n8n made per execution (count, ms: medians over the rounds).
	 */
	variants: Record<
		string,
		{
			msPerExecution: number;
			runs: number[];
			store: { calls: number; ms: number };
			credential: { calls: number; ms: number };
		}
	>;
	/** Where a Peach execution's time goes, ms (see the file's comment). */
	breakdown: {
		n8nOwn: number;
		send: number;
		credentialRead: number;
		templateRead: number;
		storeCalls: number;
		nodeOther: number;
	};
}

const median = (values: number[]) => {
	const sorted = [...values].sort((a, b) => a - b);
	const middle = Math.floor(sorted.length / 2);
	return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

const load = () => Math.round(loadavg()[0] * 100) / 100;

function httpNode(url: string, credential?: { id: string; name: string }): Json {
	return {
		id: randomUUID(),
		name: 'Send',
		type: 'n8n-nodes-base.httpRequest',
		typeVersion: 4.2,
		position: [300, 0],
		parameters: {
			method: 'POST',
			url: `${url}/api/v1/events`,
			...(credential
				? { authentication: 'predefinedCredentialType', nodeCredentialType: 'peachMessagingApi' }
				: {
						sendHeaders: true,
						headerParameters: { parameters: [{ name: 'Authorization', value: KEY }] },
					}),
			sendBody: true,
			specifyBody: 'json',
			jsonBody:
				'={ "event_type": "send_template_message", "contact": { "phone_number": "{{ $json.body.phone }}", "name": "{{ $json.body.name }}" }, "template_message": { "whats_app_template_id": "wat_welcome", "liquid_values": { "first_name": "{{ $json.body.name }}" } } }',
			options: {},
		},
		...(credential ? { credentials: { peachMessagingApi: credential } } : {}),
	};
}

function peachSend(
	credential: { id: string; name: string },
	more: { templateId?: string; dryRun?: boolean } = {},
): Json {
	return peachNode(
		{
			resource: 'templateMessage',
			operation: 'send',
			phoneNumber: '={{ $json.body.phone }}',
			templateId: { __rl: true, mode: 'id', value: more.templateId ?? 'wat_welcome' },
			variablesInput: 'fields',
			variables: { values: [{ key: 'first_name', value: '={{ $json.body.name }}' }] },
			contactFields: { name: '={{ $json.body.name }}' },
			additionalFields: {},
			...(more.dryRun ? { dryRun: true } : {}),
		},
		credential,
		'Send',
	);
}

/** Wait 100 ms (in the process: n8n puts an execution to wait only beyond 65 s). */
const wait100 = (): Json => ({
	id: randomUUID(),
	name: 'Send',
	type: 'n8n-nodes-base.wait',
	typeVersion: 1.1,
	position: [300, 0],
	webhookId: randomUUID(),
	parameters: { resume: 'timeInterval', amount: 0.1, unit: 'seconds' },
});

interface Variant {
	name: string;
	path: string;
}

async function createVariant(client: N8nClient, name: string, sender: Json): Promise<Variant> {
	const path = `single-${randomUUID().slice(0, 8)}`;
	const workflowId = await client.createWorkflow({
		name: `bench single ${name}`,
		nodes: [webhookNode(path, 'Webhook'), sender],
		connections: chain('Webhook', 'Send'),
	});
	await client.activate(workflowId);
	return { name, path };
}

let sent = 0;

/** `count` executions one after another; ms per execution (from the first call to the last answer). */
async function oneAfterAnother(n8nUrl: string, variant: Variant, count: number): Promise<number> {
	const started = performance.now();
	for (let index = 0; index < count; index++) {
		sent++;
		for (let attempt = 0; ; attempt++) {
			const response = await fetch(`${n8nUrl}/webhook/${variant.path}`, {
				method: 'POST',
				headers: { 'Content-Type': 'application/json' },
				body: JSON.stringify({
					phone: `+1415${String(2000000 + (sent % 1_000_000))}`,
					name: `Guest ${sent}`,
					n: sent,
				}),
				// An execution is a few hundred ms: one not answered within 20 s is lost, not slow.
				signal: AbortSignal.timeout(20_000),
			}).catch((error: unknown) => {
				throw new Error(
					`${variant.name}: execution ${index + 1} of ${count} not answered (${(error as Error).message})`,
				);
			});
			const text = await response.text();
			// A webhook n8n has not registered yet (just activated), or n8n's database busy: again.
			if ((response.status === 404 || response.status === 503) && attempt < 40) {
				await new Promise((resolve) => setTimeout(resolve, 250));
				continue;
			}
			if (!response.ok) throw new Error(`${variant.name}: HTTP ${response.status} ${text}`);
			break;
		}
	}
	return (performance.now() - started) / count;
}

/** The variants' workflows and their interleaved rounds, in the n8n at `n8nUrl`. */
export async function singleSends(
	n8nUrl: string,
	client: N8nClient,
	options: SingleSendOptions,
): Promise<SingleSendResults> {
	const slow = await client.createCredential(
		`single slow ${randomUUID().slice(0, 4)}`,
		'peachMessagingApi',
		{
			apiKey: KEY,
			baseUrl: options.slowUrl,
		},
	);
	const fast = await client.createCredential(
		`single fast ${randomUUID().slice(0, 4)}`,
		'peachMessagingApi',
		{
			apiKey: KEY,
			baseUrl: options.fastUrl,
		},
	);
	const variants = [
		await createVariant(client, 'http', httpNode(options.slowUrl)),
		await createVariant(client, 'http with credential', httpNode(options.slowUrl, slow)),
		await createVariant(client, 'peach', peachSend(slow)),
		await createVariant(
			client,
			'peach template read',
			// A template ID of its own per execution: never kept, read by every execution.
			peachSend(slow, { templateId: "={{ 'wat_' + $json.body.n }}" }),
		),
		await createVariant(client, 'webhook only', wait100()),
		await createVariant(client, 'peach at once', peachSend(fast)),
		await createVariant(client, 'peach dry run', peachSend(fast, { dryRun: true })),
		await createVariant(client, 'http at once', httpNode(options.fastUrl)),
	];
	for (const variant of variants) await oneAfterAnother(n8nUrl, variant, 5); // warm-up
	const runs: Record<string, number[]> = Object.fromEntries(variants.map((v) => [v.name, []]));
	/** Per variant and round, per execution: label → [calls, ms]. */
	const measured: Record<string, Array<Record<string, [number, number]>>> = Object.fromEntries(
		variants.map((v) => [v.name, []]),
	);
	const settle = () => new Promise((resolve) => setTimeout(resolve, 300));
	const loads: number[] = [];
	for (let round = 0; round < options.rounds; round++) {
		const order = round % 2 ? [...variants].reverse() : variants;
		for (const variant of order) {
			await settle();
			const before = readTimings(options.timings);
			// n8n in queue mode now and then never answers a webhook call whose execution finished (seen
			// with Webhook → No Operation): that variant's executions of the round are made again.
			for (let attempt = 1; ; attempt++) {
				try {
					runs[variant.name].push(await oneAfterAnother(n8nUrl, variant, options.count));
					break;
				} catch (error) {
					if (attempt >= 3) throw error;
					log(`    ${(error as Error).message}: its round made again`);
				}
			}
			loads.push(load());
			await settle();
			const after = readTimings(options.timings);
			measured[variant.name].push(
				Object.fromEntries(
					['store', 'credential'].map((label) => [
						label,
						[
							((after[label]?.calls ?? 0) - (before[label]?.calls ?? 0)) / options.count,
							((after[label]?.ms ?? 0) - (before[label]?.ms ?? 0)) / options.count,
						],
					]),
				),
			);
			const [storeCalls, storeMs] = measured[variant.name][round].store;
			const [, credentialMs] = measured[variant.name][round].credential;
			log(
				`    ${variant.name}: ${runs[variant.name][round].toFixed(1)} ms per execution (n8n's store calls ${storeCalls.toFixed(1)}, ${storeMs.toFixed(1)} ms; credential read ${credentialMs.toFixed(1)} ms)`,
			);
		}
		log(
			`  round ${round + 1}: ${variants.map((v) => `${v.name} ${runs[v.name][round].toFixed(1)} ms`).join(', ')} (load ${loads[loads.length - 1]})`,
		);
	}
	const ms = (name: string) => median(runs[name]);
	const inside = (name: string, label: string) => ({
		calls: median(measured[name].map((round) => round[label][0])),
		ms: median(measured[name].map((round) => round[label][1])),
	});
	const storeCalls = inside('peach', 'store').ms;
	const credentialRead = inside('peach', 'credential').ms;
	return {
		load: median(loads),
		rounds: options.rounds,
		count: options.count,
		variants: Object.fromEntries(
			variants.map((v) => [
				v.name,
				{
					msPerExecution: ms(v.name),
					runs: runs[v.name],
					store: inside(v.name, 'store'),
					credential: inside(v.name, 'credential'),
				},
			]),
		),
		breakdown: {
			n8nOwn: ms('webhook only') - 100,
			send: ms('http') - (ms('webhook only') - 100),
			credentialRead,
			templateRead: ms('peach template read') - ms('peach'),
			storeCalls,
			nodeOther: ms('peach') - ms('http') - storeCalls - credentialRead,
		},
	};
}

/**
 * Part (i): the same in queue mode, on processes of its own: Redis and PostgreSQL (test/queue's
 * services), an n8n main and two `n8n worker --concurrency=10` sharing one user folder with the
 * packed package. Everything it started is stopped before it returns.
 */
export async function singleSendsInQueueMode(
	options: SingleSendOptions,
): Promise<SingleSendResults> {
	const folder = newUserFolder('n8n-peach-bench-queue-');
	const services: Service[] = [];
	const processes: N8nInstance[] = [];
	try {
		const { postgres } = await ensurePackages();
		services.push(await startRedis(folder));
		const [redis] = services;
		const pg = await startPostgres(folder, postgres);
		services.push(pg);
		const { host, nodeBin } = await provisionHost();
		const userFolder = join(folder, 'n8n');
		await installPackage(userFolder, await packPackage(join(folder, 'pack')));
		const env: NodeJS.ProcessEnv = {
			EXECUTIONS_MODE: 'queue',
			QUEUE_BULL_REDIS_HOST: '127.0.0.1',
			QUEUE_BULL_REDIS_PORT: String(redis.port),
			DB_TYPE: 'postgresdb',
			DB_POSTGRESDB_HOST: '127.0.0.1',
			DB_POSTGRESDB_PORT: String(pg.port),
			DB_POSTGRESDB_DATABASE: 'n8n',
			DB_POSTGRESDB_USER: 'postgres',
			DB_POSTGRESDB_PASSWORD: '',
			...timingsEnv(join(folder, 'timings')),
		};
		const main = await startN8n({
			host,
			nodeBin,
			userFolder,
			env,
			logFile: join(folder, 'main.log'),
		});
		processes.push(main);
		for (const name of ['worker1', 'worker2']) {
			processes.push(
				await startN8n({
					host,
					nodeBin,
					userFolder,
					command: 'worker',
					args: ['--concurrency=10'],
					env: { ...env, N8N_WEBHOOK_URL: `${main.url}/` },
					logFile: join(folder, `${name}.log`),
				}),
			);
		}
		log(
			`bench (i): queue mode: main at ${main.url}, 2 workers, Redis ${redis.port}, PostgreSQL ${pg.port}`,
		);
		const client = new N8nClient(main.url);
		await client.setupOwner();
		const results = await singleSends(main.url, client, {
			...options,
			timings: join(folder, 'timings'),
		});
		rmSync(folder, { recursive: true, force: true });
		return results;
	} catch (error) {
		keepFailedRun(folder);
		throw error;
	} finally {
		for (const instance of processes.reverse()) await instance.stop();
		for (const service of services.reverse()) await service.stop();
	}
}
