/**
 * npm run test:queue: the packed package on n8n's queue mode (Redis + PostgreSQL + an n8n main and two
 * `n8n worker` processes sharing one user folder, so one `.n8n/nodes`), against the Peach sandbox:
 *
 *   1. a 2,000-item send with injected faults and Continue On Fail: successes + error items = 2,000,
 *      each paired with its input, no message queued twice;
 *   2. 1,000 trigger deliveries (plus 200 duplicate copies) at concurrency 10: 1,000 executions, 0 lost;
 *   3. after the main restarts, a new delivery runs once; copies of earlier ones are counted (n8n 2.x
 *      keeps Ignore Duplicates' identities in memory only: README);
 *   4. the main killed (kill -9) in the middle of 1,000 deliveries, started again, and every delivery
 *      not answered 2xx resent (as Peach does): 0 deliveries answered 2xx without an execution, exactly
 *      one execution per delivery;
 *   5. recovery (recovery.mts): 429s from the 600th send for 30 s (every item sent once); server
 *      errors from the 600th send, the editor's Retry and a retry of that retry; Retry On Fail with
 *      a refused contact; a worker killed in the middle of a send and the execution retried while
 *      n8n shows it crashed; a refund whose workflow failed after it, retried: no phone (or order)
 *      twice;
 *   6. a Send and Wait execution waits, and the answer resumes it on a worker;
 *   7. the webhook secret and the API key never in plain text in Redis (watched while the load runs),
 *      PostgreSQL (a full dump) or the processes' logs.
 * Closes with "N passed, N failed"; stops every process it started.
 */
import { execFile, execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readFileSync, rmSync } from 'node:fs';
import { basename, join } from 'node:path';

import { startSandbox, type Sandbox } from '../sandbox/server.mts';
import { publishTrigger } from '../e2e/checks/peachTrigger.e2e.mts';
import {
	chain,
	codeNode,
	freePort,
	installPackage,
	type Json,
	keepFailedRun,
	log,
	N8N_VERSION,
	N8nClient,
	type N8nInstance,
	newUserFolder,
	nodeOutput,
	packPackage,
	peachNode,
	provisionHost,
	startN8n,
	waitForTriggerWebhook,
	webhookNode,
	sendParameters,
} from '../e2e/n8n.mts';
import { assert, assertEqual, type Context, pool, postDelivery } from '../e2e/suite.mts';
import { afterStallChecks } from './afterStall.mts';
import { manualOnWorkerChecks } from './manualOnWorker.mts';
import { moneyChecks } from './money.mts';
import { recordChecks } from './record.mts';
import { type RecoveryContext, recoveryChecks } from './recovery.mts';
import { ensurePackages, type Service, startPostgres, startRedis } from './services.mts';

const SEND_ITEMS = 2000;
const DELIVERIES = 1000;
const DUPLICATE_COPIES = 200;
const API_KEY = `queue-key-${randomUUID()}`;
const WEBHOOK_SECRET = `queue-secret-${randomUUID()}`;
const TIME_LIMIT_MS = Number(process.env.PEACH_QUEUE_TIMEOUT_MS ?? 40 * 60_000);
/** How many workers (PEACH_QUEUE_WORKERS, default 2; README's longer run of money.mts takes 3). */
const WORKER_NAMES = Array.from(
	{ length: Math.max(2, Number(process.env.PEACH_QUEUE_WORKERS ?? 2)) },
	(_, index) => `worker${index + 1}`,
);

/** Every key and value in Redis as one text, read inside Redis by one script (the run's event loop stays free). */
const DUMP_SCRIPT = `
local out = {}
local function add(values) for _, v in ipairs(values) do out[#out + 1] = tostring(v) end end
for _, key in ipairs(redis.call('KEYS', '*')) do
  out[#out + 1] = key
  local t = redis.call('TYPE', key).ok
  if t == 'string' then out[#out + 1] = redis.call('GET', key)
  elseif t == 'hash' then add(redis.call('HGETALL', key))
  elseif t == 'list' then add(redis.call('LRANGE', key, 0, -1))
  elseif t == 'set' then add(redis.call('SMEMBERS', key))
  elseif t == 'zset' then add(redis.call('ZRANGE', key, 0, -1))
  elseif t == 'stream' then
    for _, entry in ipairs(redis.call('XRANGE', key, '-', '+')) do add(entry[2]) end
  end
end
return table.concat(out, '\\n')`;

function redisText(port: number): Promise<string> {
	return new Promise((resolve, reject) =>
		execFile(
			'redis-cli',
			['-p', String(port), '--raw', 'EVAL', DUMP_SCRIPT, '0'],
			{ maxBuffer: 1024 * 1024 * 1024 },
			(error, stdout) => (error ? reject(error) : resolve(stdout)),
		),
	);
}

const secretsIn = (text: string) =>
	[API_KEY, WEBHOOK_SECRET].filter((secret) => text.includes(secret));

/**
 * Every execution of a workflow, read one by one by id (ids are sequential): n8n's list APIs can skip
 * executions in queue mode (seen: 851 and 998 of 1,000).
 */
async function executionsOf(client: N8nClient, workflowId: string): Promise<Json[]> {
	const ids = (await client.executionIds(workflowId)).map(Number);
	if (ids.length === 0) return [];
	const found = await pool(
		10,
		Array.from({ length: Math.max(...ids) }, (_, index) => async () => {
			const execution = await client.api('GET', `/executions/${index + 1}`).catch(() => undefined);
			return execution?.workflowId === workflowId
				? client.api('GET', `/executions/${index + 1}?includeData=true`)
				: undefined;
		}),
	);
	return found.filter((execution): execution is Json => execution !== undefined);
}

async function main() {
	const startedAt = Date.now();
	const guard = setTimeout(() => {
		log(`queue: time limit of ${TIME_LIMIT_MS / 1000}s reached; stopping`);
		log('0 passed, 1 failed');
		process.exit(1);
	}, TIME_LIMIT_MS);
	guard.unref();

	const folder = newUserFolder('n8n-peach-queue-');
	let postgresBin = '';
	const services: Service[] = [];
	const processes: N8nInstance[] = [];
	let sandbox: Sandbox | undefined;
	let passed = 0;
	let failed = 0;
	const check = async (name: string, fn: () => Promise<void>) => {
		// PEACH_QUEUE_ONLY=<text> runs only the checks whose name holds it (e.g. while fixing one);
		// several texts separated by " | ".
		const only = process.env.PEACH_QUEUE_ONLY;
		if (only && !only.split(' | ').some((part) => name.includes(part))) return;
		const began = Date.now();
		try {
			await fn();
			passed++;
			log(`  ✓ ${name} (${Date.now() - began} ms)`);
		} catch (error) {
			failed++;
			log(`  ✗ ${name}\n      ${(error as Error).message}`);
		}
	};
	const stopAll = async () => {
		for (const instance of processes.splice(0).reverse()) await instance.stop();
		for (const service of services.splice(0).reverse()) await service.stop();
		await sandbox?.close();
	};
	process.on('SIGINT', () => void stopAll().then(() => process.exit(130)));
	process.on('SIGTERM', () => void stopAll().then(() => process.exit(143)));

	try {
		const { postgres } = await ensurePackages();
		postgresBin = postgres;
		const redis = await startRedis(folder);
		services.push(redis);
		const pg = await startPostgres(folder, postgres);
		services.push(pg);
		log(`queue: Redis on ${redis.port}, PostgreSQL on ${pg.port}`);
		const { host, nodeBin } = await provisionHost();
		const tgz = await packPackage(join(folder, 'pack'));
		const userFolder = join(folder, 'n8n');
		await installPackage(userFolder, tgz);
		sandbox = await startSandbox({ apiKey: API_KEY, deliveryDelayMs: 100 });

		const queueEnv: NodeJS.ProcessEnv = {
			EXECUTIONS_MODE: 'queue',
			QUEUE_BULL_REDIS_HOST: '127.0.0.1',
			QUEUE_BULL_REDIS_PORT: String(redis.port),
			DB_TYPE: 'postgresdb',
			DB_POSTGRESDB_HOST: '127.0.0.1',
			DB_POSTGRESDB_PORT: String(pg.port),
			DB_POSTGRESDB_DATABASE: 'n8n',
			DB_POSTGRESDB_USER: 'postgres',
			DB_POSTGRESDB_PASSWORD: '',
			OFFLOAD_MANUAL_EXECUTIONS_TO_WORKERS: 'true',
			// n8n's own default unless PEACH_QUEUE_MAX_STALLED_COUNT says otherwise (docs/running-at-scale.md:
			// n8n 1.x runs a job whose worker died once more, as the same execution, which the node's record
			// covers; n8n 2.x never does, whatever this says).
			...(process.env.PEACH_QUEUE_MAX_STALLED_COUNT === undefined
				? {}
				: { QUEUE_WORKER_MAX_STALLED_COUNT: process.env.PEACH_QUEUE_MAX_STALLED_COUNT }),
		};
		const mainPort = await freePort();
		const startMain = () =>
			startN8n({
				host,
				nodeBin,
				userFolder,
				port: mainPort,
				env: queueEnv,
				logFile: join(folder, 'main.log'),
			});
		let main = await startMain();
		processes.push(main);
		const workers: N8nInstance[] = [];
		const startWorker = async (name: string) => {
			const worker = await startN8n({
				host,
				nodeBin,
				userFolder,
				command: 'worker',
				args: ['--concurrency=10'],
				// As in every queue-mode deployment: the workers know the main's public URL. A worker
				// makes the links it sends (Send and Wait's answer link) from WEBHOOK_URL.
				env: { ...queueEnv, WEBHOOK_URL: `${main.url}/`, N8N_WEBHOOK_URL: `${main.url}/` },
				logFile: join(folder, `${name}.log`),
			});
			workers.push(worker);
			processes.push(worker);
		};
		for (const name of WORKER_NAMES) await startWorker(name);
		log(
			`queue: n8n main at ${main.url} and ${WORKER_NAMES.length} workers ready after ${Math.round((Date.now() - startedAt) / 1000)}s`,
		);
		const client = new N8nClient(main.url);
		await client.setupOwner();
		const credential = await client.createCredential('Peach sandbox', 'peachMessagingApi', {
			apiKey: API_KEY,
			baseUrl: sandbox.url,
		});
		const ctx: Context = {
			n8n: main,
			client,
			sandbox,
			credential,
			crashAndRestart: async () => {
				throw new Error('queue-mode checks restart the main themselves');
			},
		};

		// Redis is read every second while the load runs: jobs live there only while they are in flight.
		let redisScans = 0;
		let redisBytes = 0;
		const redisLeaks = new Set<string>();
		let watching = true;
		const watcher = (async () => {
			while (watching) {
				const text = await redisText(redis.port);
				redisScans++;
				redisBytes += text.length;
				for (const secret of secretsIn(text))
					redisLeaks.add(secret === API_KEY ? 'API key' : 'webhook secret');
				await new Promise((resolve) => setTimeout(resolve, 1000));
			}
		})();

		await check(
			`a ${SEND_ITEMS}-item send with injected faults and Continue On Fail, on the workers`,
			async () => {
				const faults = [
					{ kind: 'server_error', every: 41, times: 40 },
					{ kind: 'drop', every: 43, times: 30 },
					{ kind: 'non_json', every: 47, times: 30 },
					{ kind: 'slow', every: 211, times: 9, delayMs: 4000 },
				];
				for (const fault of faults) {
					await fetch(`${sandbox?.url}/__sandbox/faults`, {
						method: 'POST',
						body: JSON.stringify({ method: 'POST', path: '/api/v1/events', ...fault }),
					});
				}
				const path = `queue-send-${randomUUID().slice(0, 8)}`;
				const send = {
					...peachNode(
						sendParameters(
							'wat_welcome',
							{ key: 'first_name', value: '={{ $json.name }}' },
							{
								contactFields: { name: '={{ $json.name }}' },
								requestOptions: { concurrency: 20, timeout: 2 },
							},
						),
						credential,
						'Send',
					),
					onError: 'continueRegularOutput',
				};
				const workflowId = await client.createWorkflow({
					name: 'queue send',
					nodes: [
						{
							...webhookNode(path),
							parameters: { httpMethod: 'POST', path, responseMode: 'onReceived', options: {} },
						},
						codeNode(
							`return Array.from({ length: ${SEND_ITEMS} }, (_, i) => ({ json: { phone: '+1415' + String(5000000 + i), name: 'Guest ' + i } }));`,
							'Items',
						),
						send,
					],
					connections: chain('Webhook', 'Items', 'Send'),
				});
				await client.activate(workflowId);
				const requestsBefore = sandbox?.state.requests.length ?? 0;
				const answer = await client.callWebhook(path, {});
				assertEqual(answer.status, 200, 'webhook answer');
				const [execution] = await client.waitForExecutions(workflowId, 1, 10 * 60_000);
				await client.deactivate(workflowId);
				const runData = ((execution.data as Json).resultData as Json).runData as Record<
					string,
					Json[]
				>;
				const items = (
					(runData.Send[0].data as Json).main as Array<
						Array<{ json: Json; pairedItem?: { item: number } }>
					>
				)[0];
				const errors = items.filter((item) => item.json.error !== undefined);
				const successes = items.filter(
					(item) => item.json.error === undefined && typeof item.json.event_id === 'string',
				);
				const paired = new Set(items.map((item) => item.pairedItem?.item));
				const sends = (sandbox?.state.requests ?? [])
					.slice(requestsBefore)
					.filter((request) => request.method === 'POST' && request.path === '/api/v1/events');
				const phones = sends.map(
					(request) => ((request.body as Json)?.contact as Json)?.phone_number,
				);
				const queued = sends.filter((request) => request.status === 201);
				const queuedPhones = new Set(
					queued.map((request) => ((request.body as Json)?.contact as Json)?.phone_number),
				);
				const timedOut = errors.filter((item) => JSON.stringify(item.json).includes('may already'));
				log(
					`      ${items.length} items out: ${successes.length} successes + ${errors.length} error items (${timedOut.length} saying the message may already be queued); ${sends.length} send requests for ${new Set(phones).size} phone numbers; ${queued.length} queued, ${queuedPhones.size} distinct`,
				);
				assertEqual(execution.status, 'success', 'execution status');
				assertEqual(successes.length + errors.length, SEND_ITEMS, 'successes + errors');
				assertEqual(items.length, SEND_ITEMS, 'output items');
				assert(errors.length >= SEND_ITEMS * 0.05, `only ${errors.length} faults took effect`);
				assertEqual(paired.size, SEND_ITEMS, 'distinct paired inputs');
				assert(
					items.every((item, index) => item.pairedItem?.item === index),
					'an item is paired with another input',
				);
				assertEqual(sends.length, SEND_ITEMS, 'send requests (one per item, none repeated)');
				assertEqual(new Set(phones).size, SEND_ITEMS, 'distinct phone numbers sent');
				assertEqual(queuedPhones.size, queued.length, 'messages queued twice');
			},
		);

		let trigger: { workflowId: string; url: string } | undefined;
		const bodies = Array.from({ length: DELIVERIES }, (_, i) =>
			JSON.stringify({
				type: 'message_delivery.sent',
				data: {
					message: { id: `cmsg_queue_${i}`, status: 'delivered', type: 'template_message' },
					contact: { phone_number: '+919988776655' },
					event: null,
				},
			}),
		);
		let answered = 0;
		const deliver = (url: string, body: string) => async () => {
			const answer = await postDelivery(`${url}?token=${WEBHOOK_SECRET}`, body);
			if (++answered % 300 === 0) log(`      ${answered} deliveries answered`);
			return answer;
		};
		await check(
			`${DELIVERIES} trigger deliveries and ${DUPLICATE_COPIES} duplicate copies at concurrency 10: ${DELIVERIES} executions`,
			async () => {
				const secretCredential = await client.createCredential(
					'Peach webhook secret',
					'peachWebhookApi',
					{
						secret: WEBHOOK_SECRET,
					},
				);
				trigger = await publishTrigger(
					ctx,
					{},
					{
						credentials: {
							peachWebhookApi: { id: secretCredential.id, name: secretCredential.name },
						},
					},
				);
				const copies = [...bodies, ...bodies.filter((_, i) => i % 5 === 0)];
				const began = Date.now();
				const answers = await pool(
					10,
					copies.map((body) => deliver(trigger?.url ?? '', body)),
				);
				const seconds = (Date.now() - began) / 1000;
				const duplicates = answers.filter((answer) => answer.text.includes('duplicate')).length;
				assertEqual(
					answers.filter((answer) => answer.status !== 200).length,
					0,
					'deliveries not answered 200',
				);
				log(
					`      ${copies.length} posts answered in ${seconds.toFixed(1)} s; waiting for the executions`,
				);
				const deadline = Date.now() + 5 * 60_000;
				let finished = 0;
				for (;;) {
					finished = await client.executionCount(trigger.workflowId);
					if (finished >= DELIVERIES || Date.now() > deadline) break;
					await new Promise((resolve) => setTimeout(resolve, 1000));
				}
				await new Promise((resolve) => setTimeout(resolve, 3000));
				const executions = await client.executionCount(trigger.workflowId);
				log(
					`      ${copies.length} posts in ${seconds.toFixed(1)} s → ${executions} executions, ${duplicates} answered as duplicates`,
				);
				assertEqual(executions, DELIVERIES, 'executions');
				assertEqual(duplicates, DUPLICATE_COPIES, 'copies answered as duplicates');
				const executionsRead = await executionsOf(client, trigger.workflowId);
				assertEqual(executionsRead.length, DELIVERIES, 'executions of the trigger read one by one');
				const outputs = new Set<string>();
				for (const execution of executionsRead) {
					assertEqual(execution.status, 'success', `execution ${String(execution.id)} status`);
					const [output] = nodeOutput(execution, 'Peach Trigger');
					outputs.add(String((output?.message as Json)?.id));
				}
				assertEqual(outputs.size, DELIVERIES, 'distinct message ids delivered (0 lost)');
			},
		);

		watching = false;
		await watcher;

		await check(
			'after the main restarts: a new delivery starts one execution; copies of earlier ones are counted (identities live in memory on n8n 2.x)',
			async () => {
				assert(trigger, 'the trigger check did not run');
				await main.stop();
				processes.splice(processes.indexOf(main), 1);
				main = await startMain();
				processes.push(main);
				const before = await client.executionCount(trigger.workflowId);
				await waitForTriggerWebhook(`${trigger.url}?token=${WEBHOOK_SECRET}`, {
					timeoutMs: 30_000,
					what: 'the trigger after the restart',
				});
				const resent = bodies.filter((_, i) => i % 10 === 3);
				const answers = await pool(
					10,
					resent.map((body) => deliver(trigger?.url ?? '', body)),
				);
				const fresh = await deliver(
					trigger.url,
					bodies[0].replace('cmsg_queue_0', 'cmsg_queue_new'),
				)();
				const ignored = answers.filter((answer) => answer.text.includes('duplicate')).length;
				const expected = 1 + resent.length - ignored;
				const deadline = Date.now() + 60_000;
				while (
					(await client.executionCount(trigger.workflowId)) - before < expected &&
					Date.now() < deadline
				) {
					await new Promise((resolve) => setTimeout(resolve, 1000));
				}
				await new Promise((resolve) => setTimeout(resolve, 3000));
				const after = await client.executionCount(trigger.workflowId);
				log(
					`      after the restart: ${resent.length} copies of earlier deliveries resent → ${ignored} answered as duplicates, ${resent.length - ignored} ran again; 1 new delivery; ${after - before} new executions`,
				);
				assertEqual(fresh.status, 200, 'a new delivery after the restart');
				assertEqual(
					after - before,
					expected,
					'new executions (the new delivery and every copy not ignored)',
				);
				// docs/trigger.md, Ignore Duplicates: n8n 2.x does not save a trigger's static data when it answers
				// after storing the execution, so a restart forgets the identities seen before it; n8n 1.x
				// answers first and saves them.
				assertEqual(
					ignored,
					N8N_VERSION.startsWith('1.') ? resent.length : 0,
					`copies recognised after a restart (n8n ${N8N_VERSION})`,
				);
				await client.deactivate(trigger.workflowId);
			},
		);

		await check(
			`the main killed (kill -9) in the middle of ${DELIVERIES} deliveries: 0 answered 2xx without an execution; two executions only for a delivery stored but not answered when the main died`,
			async () => {
				const secretCredential = await client.createCredential(
					'Peach webhook secret (crash)',
					'peachWebhookApi',
					{ secret: WEBHOOK_SECRET },
				);
				const crashTrigger = await publishTrigger(
					ctx,
					{},
					{
						credentials: {
							peachWebhookApi: { id: secretCredential.id, name: secretCredential.name },
						},
					},
				);
				const crashBodies = bodies.map((body, i) =>
					body.replace(`cmsg_queue_${i}"`, `cmsg_crash_${i}"`),
				);
				const url = `${crashTrigger.url}?token=${WEBHOOK_SECRET}`;
				const answers = new Map<number, { status: number; text: string }>();
				/** Each delivery's first answer (a resend replaces its entry in `answers`). */
				const firstStatus = new Map<number, number>();
				let answeredOk = 0;
				let killed: Promise<void> | undefined;
				const post = (index: number) => async () => {
					const answer = await postDelivery(url, crashBodies[index]);
					answers.set(index, answer);
					if (!firstStatus.has(index)) firstStatus.set(index, answer.status);
					if (answer.status >= 200 && answer.status < 300 && ++answeredOk === 400) {
						log('      400 deliveries answered: killing the main (SIGKILL)');
						killed = main.kill();
					}
				};
				const began = Date.now();
				await pool(
					10,
					crashBodies.map((_, index) => post(index)),
				);
				await killed;
				const refusedWhileDown = [...answers.values()].filter(
					(answer) => answer.status < 200 || answer.status >= 300,
				).length;
				processes.splice(processes.indexOf(main), 1);
				main = await startMain();
				processes.push(main);
				await waitForTriggerWebhook(url, {
					timeoutMs: 60_000,
					what: 'the trigger after the crash',
				});
				// Peach resends what was not answered 2xx; so does this test, until each got its 2xx.
				for (let round = 1; round <= 3; round++) {
					const unanswered = [...answers.entries()]
						.filter(([, answer]) => answer.status < 200 || answer.status >= 300)
						.map(([index]) => index);
					if (unanswered.length === 0) break;
					await pool(
						10,
						unanswered.map((index) => post(index)),
					);
				}
				const okAnswers = [...answers.values()].filter(
					(answer) => answer.status >= 200 && answer.status < 300,
				).length;
				const deadline = Date.now() + 5 * 60_000;
				while (
					(await client.executionCount(crashTrigger.workflowId)) < DELIVERIES &&
					Date.now() < deadline
				) {
					await new Promise((resolve) => setTimeout(resolve, 1000));
				}
				await new Promise((resolve) => setTimeout(resolve, 3000));
				const perDelivery = new Map<string, number>();
				// Executions n8n had created for deliveries in flight when the main died (never answered,
				// so resent) carry no trigger output: n8n marks them `crashed` after the restart.
				const withoutDelivery: string[] = [];
				for (const execution of await executionsOf(client, crashTrigger.workflowId)) {
					const id = (nodeOutput(execution, 'Peach Trigger')[0]?.message as Json)?.id;
					if (typeof id !== 'string') {
						withoutDelivery.push(String(execution.status));
						continue;
					}
					perDelivery.set(id, (perDelivery.get(id) ?? 0) + 1);
				}
				const answeredWithoutExecution = crashBodies.filter(
					(_, i) => !perDelivery.has(`cmsg_crash_${i}`),
				).length;
				const twice = [...perDelivery.values()].filter((count) => count > 1).length;
				log(
					`      ${DELIVERIES} deliveries in ${((Date.now() - began) / 1000).toFixed(1)} s; ${refusedWhileDown} not answered 2xx while the main was down, resent; ${okAnswers} answered 2xx in all → ${perDelivery.size} deliveries with an execution, ${answeredWithoutExecution} answered 2xx without an execution, ${twice} with two executions; ${withoutDelivery.length} executions without a delivery (status: ${withoutDelivery.join(', ') || 'none'})`,
				);
				assertEqual(okAnswers, DELIVERIES, 'deliveries answered 2xx in the end');
				// n8n 1.x answers a webhook before it stores the execution (docs/compatibility/README.md): there, the
				// figure is reported, not held to 0.
				// A delivery n8n stored but had not answered when it died is resent (no 2xx) and runs again:
				// Ignore Duplicates keeps its identities in memory on n8n 2.x (docs/trigger.md). Only such a
				// delivery may have two executions, and there are at most as many as were in flight (10).
				const twiceIndexes = [...perDelivery]
					.filter(([, count]) => count > 1)
					.map(([id]) => Number(id.slice('cmsg_crash_'.length)));
				assertEqual(
					twiceIndexes.filter((index) => {
						const status = firstStatus.get(index) ?? 0;
						return status >= 200 && status < 300;
					}),
					[],
					'deliveries answered 2xx at once that have more than one execution',
				);
				assert(
					twiceIndexes.length <= 10,
					`${twice} deliveries with two executions, more than were in flight`,
				);
				if (!N8N_VERSION.startsWith('1.')) {
					assertEqual(answeredWithoutExecution, 0, 'deliveries answered 2xx without an execution');
					assertEqual(perDelivery.size, DELIVERIES, 'deliveries with an execution');
				}
				await client.deactivate(crashTrigger.workflowId);
			},
		);

		// A check that killed a worker: another starts in its place (writing to its log).
		const restartWorkers = async () => {
			for (const name of WORKER_NAMES)
				if (!workers.some((worker) => basename(worker.logFile, '.log') === name))
					await startWorker(name);
		};
		const recovery: RecoveryContext = {
			client,
			credential,
			sandbox,
			workers,
			items: SEND_ITEMS,
			restartWorkers,
			sql: async (query) =>
				await new Promise<string>((resolve, reject) => {
					execFile(
						join(postgresBin, 'psql'),
						['-h', '127.0.0.1', '-p', String(pg.port), '-U', 'postgres', '-d', 'n8n', '-At'],
						{ maxBuffer: 64 * 1024 * 1024 },
						(error, stdout) => (error ? reject(error) : resolve(stdout.trim())),
					).stdin?.end(query);
				}),
		};
		for (const { name, fn } of [
			...recoveryChecks,
			...recordChecks,
			...moneyChecks,
			...afterStallChecks,
			...manualOnWorkerChecks,
		]) {
			sandbox.faults.length = 0;
			await check(name, () => fn(recovery));
			await restartWorkers();
		}

		await check(
			'a waiting Send and Wait execution is resumed by the answer and finished by a worker',
			async () => {
				const phone = '+919900000101';
				const path = `queue-wait-${randomUUID().slice(0, 8)}`;
				const workflowId = await client.createWorkflow({
					name: 'queue send and wait',
					nodes: [
						{
							...webhookNode(path),
							parameters: { httpMethod: 'POST', path, responseMode: 'onReceived', options: {} },
						},
						peachNode(
							{
								resource: 'templateMessage',
								operation: 'sendAndWait',
								phoneNumber: phone,
								templateId: { __rl: true, mode: 'id', value: 'wat_approval' },
								message: 'Approve the queue-mode refund?',
								variablesInput: 'fields',
							},
							credential,
							'Ask',
						),
					],
					connections: chain('Webhook', 'Ask'),
				});
				await client.activate(workflowId);
				assertEqual((await client.callWebhook(path, {})).status, 200, 'webhook answer');
				const statusOf = async () => {
					const [execution] = await client.executions(workflowId);
					return execution;
				};
				const deadline = Date.now() + 60_000;
				while ((await statusOf())?.status !== 'waiting' && Date.now() < deadline) {
					await new Promise((resolve) => setTimeout(resolve, 500));
				}
				const waiting = await statusOf();
				assertEqual(waiting?.status, 'waiting', 'status before the answer');
				const answer = await sandbox?.phone.answer(phone, { choice: 'Approve' });
				assert(
					answer?.answered,
					`the link's page (${String(answer?.pageStatus)}) has no answer form: ${String(answer?.html).slice(0, 300)}`,
				);
				assertEqual(answer?.status, 200, 'answer status');
				while (
					!['success', 'error'].includes(String((await statusOf())?.status)) &&
					Date.now() < deadline + 60_000
				) {
					await new Promise((resolve) => setTimeout(resolve, 500));
				}
				const done = await client.api('GET', `/executions/${String(waiting?.id)}?includeData=true`);
				const runBy = ['worker1.log', 'worker2.log'].filter((name) =>
					readFileSync(join(folder, name), 'utf8').includes(`execution ${String(waiting?.id)}`),
				);
				log(
					`      execution ${String(waiting?.id)}: waiting, answered, ${String(done.status)}; run by ${runBy.join(' and ') || 'no worker'}`,
				);
				assertEqual(done.status, 'success', 'status after the answer');
				assertEqual(
					((nodeOutput(done, 'Ask')[0]?.data as Json) ?? {}).approved,
					true,
					'data.approved',
				);
				assert(runBy.length > 0, 'no worker ran the execution');
				await client.deactivate(workflowId);
			},
		);

		await check(
			'the API key and the webhook secret are absent in plain text from Redis, PostgreSQL and the logs',
			async () => {
				const dump = execFileSync(
					join(postgresBin, 'pg_dump'),
					['-h', '127.0.0.1', '-p', String(pg.port), '-U', 'postgres', '--data-only', 'n8n'],
					{
						maxBuffer: 1024 * 1024 * 1024,
						// pg_dump warns about n8n's circular foreign keys; irrelevant for a text search.
						stdio: ['ignore', 'pipe', 'ignore'],
					},
				).toString();
				const logs = ['main.log', 'worker1.log', 'worker2.log']
					.map((name) => readFileSync(join(folder, name), 'utf8'))
					.join('\n');
				const finalRedis = await redisText(redis.port);
				log(
					`      Redis read ${redisScans + 1} times while the load ran (${Math.round((redisBytes + finalRedis.length) / 1024)} KB in all), PostgreSQL dump ${Math.round(dump.length / 1024)} KB, logs ${Math.round(logs.length / 1024)} KB`,
				);
				assert(
					dump.includes('cmsg_queue_1'),
					'the dump does not hold the executions (wrong database?)',
				);
				assertEqual([...redisLeaks, ...secretsIn(finalRedis)], [], 'secrets found in Redis');
				assertEqual(secretsIn(dump), [], 'secrets found in the PostgreSQL dump');
				assertEqual(secretsIn(logs), [], 'secrets found in the logs');
			},
		);

		await check('both workers ran executions', async () => {
			const started = ['worker1.log', 'worker2.log'].map(
				(name) =>
					(readFileSync(join(folder, name), 'utf8').match(/started execution/gi) ?? []).length,
			);
			log(`      executions started per worker: ${started.join(' and ')}`);
			assert(
				started.every((count) => count > 0),
				`a worker ran nothing: ${started.join(', ')}`,
			);
		});
	} catch (error) {
		failed++;
		log(`queue setup failed: ${(error as Error).stack ?? error}`);
	} finally {
		await stopAll();
		if (failed === 0) rmSync(folder, { recursive: true, force: true });
		else keepFailedRun(folder);
		clearTimeout(guard);
	}
	log(`queue finished in ${Math.round((Date.now() - startedAt) / 1000)}s`);
	log(`${passed} passed, ${failed} failed`);
	process.exit(failed === 0 ? 0 : 1);
}

await main();
