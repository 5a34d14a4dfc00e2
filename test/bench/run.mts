/**
 * npm run bench: the Peach node as users configure it against n8n's own nodes, in ONE real n8n
 * (provisioned like the e2e suite), with interleaved rounds, each figure beside the machine's load.
 * Writes docs/performance/results.json and docs/performance/chart.svg.
 *
 *   (a) HTTP Request node with a fixed body vs Peach Send with its defaults (and one at a time)
 *   (b) the same mapped: HTTP Request with one expression body, Peach with phone, name, variable
 *   (c) against a mock answering after 100 ms, each item its own contact: Peach's defaults vs HTTP
 *       Request's defaults (every item at once), and Peach at ceilings 5 and 20 vs the ideal of a
 *       fixed width (PEACH_BENCH_CEILINGS=100,200 adds ceilings)
 *   (f) the same against a mock that answers 429 beyond 50 requests in flight: Peach finishes every
 *       item once; HTTP Request (defaults, and with Retry On Fail) in the same run; and Peach Send
 *       against the same mock refusing every request for its first 20 s: the 429s per second
 *   (d) Peach Trigger with its defaults (secret credential, Ignore Duplicates) vs Webhook v1 and v2,
 *       and the Peach Trigger without verification as a reference: 5 interleaved blocks of 100
 *       deliveries, one at a time and 10 at a time (until every execution is stored)
 *   (e) 10,000 items: time and n8n's RSS growth, Peach vs HTTP Request
 *   (g) the delivery record at the size the package is for (record.mts)
 *   (h) single-send executions, 100 one after another, Peach answering after 100 ms: Peach Send vs
 *       HTTP Request, with where a Peach execution's time goes (single.mts); (i) the same in queue
 *       mode, on a Redis, PostgreSQL, main and two workers of its own
 * plus the package's own time per trigger delivery (webhook() called in-process).
 *
 * Environment: PEACH_BENCH_ROUNDS (5; up to twice that when the load is above the core count),
 * PEACH_BENCH_ITEMS (1000), PEACH_BENCH_BIG (10000), PEACH_BENCH_ONLY (e.g. "d" or "a,b"),
 * PEACH_BENCH_DEFAULT_CEILING (the node's default Max Concurrent Requests, for the ideal in (c)),
 * PEACH_BENCH_SINGLE_ROUNDS (3) and PEACH_BENCH_SINGLE_COUNT (100) for (h) and (i).
 * Not a test: it prints and records what it measured, whatever it is.
 */
import { randomUUID } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';

import { recordAtSize, type RecordResults } from './record.mts';
import {
	type SingleSendResults,
	singleSends,
	singleSendsInQueueMode,
	timingsEnv,
} from './single.mts';
import {
	chain,
	codeNode,
	installPackage,
	type Json,
	log,
	N8N_VERSION,
	N8nClient,
	type N8nInstance,
	newUserFolder,
	packPackage,
	PACKAGE_NAME,
	peachNode,
	provisionHost,
	REPO_ROOT,
	startN8n,
	waitForTriggerWebhook,
	webhookNode,
} from '../e2e/n8n.mts';

const ROUNDS = Number(process.env.PEACH_BENCH_ROUNDS ?? 5);
const ITEMS = Number(process.env.PEACH_BENCH_ITEMS ?? 1000);
const BIG = Number(process.env.PEACH_BENCH_BIG ?? 10_000);
const SINGLE_ROUNDS = Number(process.env.PEACH_BENCH_SINGLE_ROUNDS ?? 3);
const SINGLE_COUNT = Number(process.env.PEACH_BENCH_SINGLE_COUNT ?? 100);
const KEY = 'bench-key';
const OUT = join(REPO_ROOT, 'docs/performance');
/** Max Concurrent Requests' default (the node's REQUEST_LIMITS.defaultConcurrency). */
const DEFAULT_CEILING = Number(process.env.PEACH_BENCH_DEFAULT_CEILING ?? 200);
/** Part (f): the rate-limited Peach's limit of requests in flight. */
const LIMITED_IN_FLIGHT = 50;
/** Part (f): how long the refusing Peach answers every request 429. */
const REFUSING_MS = 20_000;

/**
 * A loopback Peach stand-in: 201 with an event_id for every POST, and an approved template without
 * variables for every template read, each after `latencyMs` (as over a network). With `inFlight`,
 * a rate-limited Peach: a request beyond that many open at once gets 429 with Retry-After (and
 * nothing happens). It counts the messages it accepted per phone number.
 */
async function mock(
	latencyMs: number,
	limit?: { inFlight: number; retryAfter: number },
): Promise<{
	url: string;
	server: Server;
	count: () => number;
	accepted: Map<string, number>;
	stats: {
		open: number;
		mostOpen: number;
		rateLimited: number;
		refuseUntil: number;
		refusedAll: number;
	};
}> {
	let requests = 0;
	const accepted = new Map<string, number>();
	/** Until `refuseUntil` (performance.now), every request is answered 429. */
	const stats = { open: 0, mostOpen: 0, rateLimited: 0, refuseUntil: 0, refusedAll: 0 };
	const server = createServer((req, res) => {
		let text = '';
		req.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
		req.on('end', () => {
			if (req.method === 'GET' && req.url?.startsWith('/api/v1/whats_app_templates/')) {
				// The template a send is checked against, without variables.
				const template = `{"id":"${req.url.split('/').pop()}","status":"approved","components":[]}`;
				const read = () => {
					res.writeHead(200, { 'Content-Type': 'application/json' });
					res.end(template);
				};
				if (latencyMs) setTimeout(read, latencyMs);
				else read();
				return;
			}
			requests++;
			const refusingAll = performance.now() < stats.refuseUntil;
			if (limit && (stats.open >= limit.inFlight || refusingAll)) {
				stats.rateLimited++;
				if (refusingAll) stats.refusedAll++;
				res.writeHead(429, {
					'Content-Type': 'application/json',
					'Retry-After': String(limit.retryAfter),
				});
				res.end('{"message":"Too many requests"}');
				return;
			}
			stats.open++;
			stats.mostOpen = Math.max(stats.mostOpen, stats.open);
			const answer = () => {
				stats.open--;
				const phone = /"phone_number":\s*"([^"]+)"/.exec(text)?.[1] ?? '';
				accepted.set(phone, (accepted.get(phone) ?? 0) + 1);
				res.writeHead(201, { 'Content-Type': 'application/json' });
				res.end(`{"status":"success","event_id":"evt_${requests}"}`);
			};
			if (latencyMs) setTimeout(answer, latencyMs);
			else answer();
		});
	});
	server.keepAliveTimeout = 60_000;
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
	const { port } = server.address() as AddressInfo;
	return { url: `http://127.0.0.1:${port}`, server, count: () => requests, accepted, stats };
}

const items = (count: number) =>
	codeNode(
		`return Array.from({ length: ${count} }, (_, i) => ({ json: { phone: '+1415' + String(5550000 + (i % 9000)), name: 'Guest ' + i } }));`,
		'Items',
	);

const body = {
	event_type: 'send_template_message',
	contact: { phone_number: '+14155550123', name: 'Guest' },
	template_message: {
		whats_app_template_id: 'wat_welcome',
		liquid_values: { first_name: 'Guest' },
	},
};

function httpNode(url: string, mapped: boolean): Json {
	return {
		id: randomUUID(),
		name: 'Send',
		type: 'n8n-nodes-base.httpRequest',
		typeVersion: 4.2,
		position: [300, 0],
		parameters: {
			method: 'POST',
			url: `${url}/api/v1/events`,
			sendHeaders: true,
			headerParameters: { parameters: [{ name: 'Authorization', value: KEY }] },
			sendBody: true,
			specifyBody: 'json',
			jsonBody: mapped
				? '={ "event_type": "send_template_message", "contact": { "phone_number": "{{ $json.phone }}", "name": "{{ $json.name }}" }, "template_message": { "whats_app_template_id": "wat_welcome", "liquid_values": { "first_name": "{{ $json.name }}" } } }'
				: JSON.stringify(body),
			options: {},
		},
	};
}

/**
 * Peach → Send; `concurrency` sets Max Concurrent Requests, else the node's default. `mapped`: the
 * phone, name and variable from the item (three expressions), or `'phone'`: only the phone (one
 * expression per item, as many as HTTP Request's one-expression body costs n8n).
 */
function peachSend(
	credential: { id: string; name: string },
	mapped: boolean | 'phone',
	concurrency?: number,
): Json {
	const name = mapped === true ? '={{ $json.name }}' : 'Guest';
	return peachNode(
		{
			resource: 'templateMessage',
			operation: 'send',
			phoneNumber: mapped ? '={{ $json.phone }}' : '+14155550123',
			templateId: { __rl: true, mode: 'id', value: 'wat_welcome' },
			variablesInput: 'fields',
			variables: { values: [{ key: 'first_name', value: name }] },
			contactFields: { name },
			additionalFields: {},
			requestOptions: concurrency === undefined ? {} : { concurrency },
		},
		credential,
		'Send',
	);
}

interface Variant {
	name: string;
	path: string;
	workflowId?: string;
}

async function createSender(
	client: N8nClient,
	name: string,
	count: number,
	sender: Json,
	itemsNode = items(count),
): Promise<Variant> {
	const path = `bench-${randomUUID().slice(0, 8)}`;
	const hook = webhookNode(path, 'Webhook', { responseData: 'noData' });
	const workflowId = await client.createWorkflow({
		name: `bench ${name}`,
		nodes: [hook, itemsNode, sender],
		connections: chain('Webhook', 'Items', 'Send'),
	});
	await client.activate(workflowId);
	return { name, path, workflowId };
}

/** Runs a sender workflow once; seconds from the call to its answer (the workflow's end). */
async function runOnce(n8n: N8nInstance, variant: Variant): Promise<number> {
	const started = performance.now();
	for (let attempt = 0; ; attempt++) {
		const response = await fetch(`${n8n.url}/webhook/${variant.path}`, {
			method: 'POST',
			headers: { 'Content-Type': 'application/json' },
			body: '{}',
		});
		await response.arrayBuffer();
		if (response.status === 404 && attempt < 40) {
			await new Promise((resolve) => setTimeout(resolve, 250));
			continue;
		}
		// 503 "Database is not ready!": n8n's SQLite health ping timed out under the load of thousands of
		// stored executions; the request was refused before any workflow started, so it is sent again.
		if (response.status === 503 && attempt < 40) {
			log(`  ${variant.name}: n8n answered 503 (its database busy), sent again in 2 s`);
			await new Promise((resolve) => setTimeout(resolve, 2000));
			continue;
		}
		if (!response.ok) throw new Error(`${variant.name}: HTTP ${response.status}`);
		return (performance.now() - started) / 1000;
	}
}

/** The machine's 1-minute load average, rounded. */
const load = () => Math.round(loadavg()[0] * 100) / 100;

/** A load figure as printed: two decimals. */
const loadText = (value: number) => value.toFixed(2);

const median = (values: number[]) => {
	const sorted = [...values].sort((a, b) => a - b);
	const middle = Math.floor(sorted.length / 2);
	return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

/**
 * Interleaved rounds: each round runs every variant once, in an order that rotates. When the machine's
 * load is high (above its core count), up to as many rounds again are run, so the medians hold.
 */
async function rounds(n8n: N8nInstance, variants: Variant[], count: number) {
	const times: Record<string, number[]> = Object.fromEntries(variants.map((v) => [v.name, []]));
	const loads: number[] = [];
	for (const variant of variants) await runOnce(n8n, variant); // warm-up, not counted
	for (let round = 0; round < ROUNDS * 2; round++) {
		if (round >= ROUNDS && median(loads) <= cpus().length) break;
		const order = round % 2 ? [...variants].reverse() : variants;
		for (const variant of order) {
			times[variant.name].push(await runOnce(n8n, variant));
			loads.push(load());
		}
	}
	return {
		load: median(loads),
		rounds: times[variants[0].name].length,
		...Object.fromEntries(
			variants.map((v) => [
				v.name,
				{
					medianSeconds: median(times[v.name]),
					msPerItem: (median(times[v.name]) * 1000) / count,
					runs: times[v.name],
				},
			]),
		),
	} as { load: number; rounds: number } & Record<
		string,
		{ medianSeconds: number; msPerItem: number; runs: number[] }
	>;
}

function rssOf(pid: number): number {
	const status = readFileSync(`/proc/${pid}/status`, 'utf8');
	return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) * 1024;
}

/** One run with the n8n process's RSS sampled every 50 ms: seconds and the growth over the start. */
async function runWithRss(n8n: N8nInstance, variant: Variant) {
	const pid = n8n.process.pid as number;
	const start = rssOf(pid);
	let peak = start;
	const timer = setInterval(() => (peak = Math.max(peak, rssOf(pid))), 50);
	const seconds = await runOnce(n8n, variant);
	clearInterval(timer);
	return { seconds, rssGrowthMb: Math.round(((peak - start) / 1024 / 1024) * 10) / 10 };
}

/** The trigger variants: n8n's Webhook nodes, and the Peach Trigger with and without its defaults. */
type TriggerKind = 'webhook1' | 'webhook2' | 'peach defaults' | 'peach no verification';

const TRIGGER_SECRET = 'bench-secret-0123456789abcdef';

async function triggerWorkflow(
	client: N8nClient,
	kind: TriggerKind,
	secret: { id: string; name: string },
): Promise<Variant> {
	const webhookId = randomUUID();
	const node: Json = kind.startsWith('peach')
		? {
				id: randomUUID(),
				name: 'Start',
				type: `${PACKAGE_NAME}.peachTrigger`,
				typeVersion: 1,
				position: [0, 0],
				webhookId,
				// The defaults: the secret as ?token= checked against a credential, Ignore Duplicates on.
				parameters:
					kind === 'peach defaults'
						? { events: ['*'], options: {} }
						: { events: ['*'], verification: 'none', options: {} },
				...(kind === 'peach defaults' ? { credentials: { peachWebhookApi: secret } } : {}),
			}
		: {
				id: randomUUID(),
				name: 'Start',
				type: 'n8n-nodes-base.webhook',
				typeVersion: kind === 'webhook1' ? 1 : 2,
				position: [0, 0],
				webhookId,
				parameters: {
					httpMethod: 'POST',
					path: webhookId,
					responseMode: 'onReceived',
					options: {},
				},
			};
	const workflowId = await client.createWorkflow({
		name: `bench trigger ${kind}`,
		nodes: [node],
		connections: {},
	});
	await client.activate(workflowId);
	const path = kind.startsWith('peach')
		? `${webhookId}/webhook${kind === 'peach defaults' ? `?token=${TRIGGER_SECRET}` : ''}`
		: webhookId;
	return { name: kind, path, workflowId };
}

let deliveryNumber = 0;

/**
 * `count` deliveries, `parallel` at a time, each a different event (Ignore Duplicates lets each through);
 * seconds until every delivery was answered and every execution stored, and how many n8n recorded.
 */
async function deliver(
	n8n: N8nInstance,
	client: N8nClient,
	variant: Variant,
	count: number,
	parallel: number,
) {
	const before = await countExecutions(client, variant.workflowId as string);
	let next = 0;
	let failed = 0;
	const started = performance.now();
	await Promise.all(
		Array.from({ length: parallel }, async () => {
			while (next < count) {
				next++;
				const response = await fetch(`${n8n.url}/webhook/${variant.path}`, {
					method: 'POST',
					headers: { 'Content-Type': 'application/json' },
					body: JSON.stringify({
						type: 'message_delivery.delivered',
						data: {
							message: {
								id: `cmsg_bench_${++deliveryNumber}`,
								status: 'delivered',
								type: 'template_message',
							},
							contact: { phone_number: '+14155550123' },
						},
					}),
				});
				await response.arrayBuffer();
				if (!response.ok) failed++;
			}
		}),
	);
	// n8n 2.x answers after storing the execution; wait until the count has it anyway.
	let executions = 0;
	for (let tries = 0; tries < 600; tries++) {
		executions = (await countExecutions(client, variant.workflowId as string)) - before;
		if (executions >= count - failed) break;
		await new Promise((resolve) => setTimeout(resolve, 50));
	}
	const seconds = (performance.now() - started) / 1000;
	return {
		seconds,
		msPerDelivery: (seconds * 1000) / count,
		executions,
		lost: count - failed - executions,
		failed,
	};
}

/**
 * Trigger deliveries in interleaved blocks: each block sends `size` deliveries to every variant in
 * turn (the order rotating), one at a time or `parallel` at a time. Per variant: the median time per
 * delivery over the blocks, and the load the machine had meanwhile.
 */
async function deliveryBlocks(
	n8n: N8nInstance,
	client: N8nClient,
	variants: Variant[],
	blocks: number,
	size: number,
	parallel: number,
) {
	const times: Record<string, number[]> = Object.fromEntries(variants.map((v) => [v.name, []]));
	const loads: number[] = [];
	let lost = 0;
	for (let block = 0; block < blocks; block++) {
		const order = block % 2 ? [...variants].reverse() : variants;
		for (const variant of order) {
			const result = await deliver(n8n, client, variant, size, parallel);
			times[variant.name].push(result.msPerDelivery);
			lost += result.lost + result.failed;
			loads.push(load());
		}
	}
	return {
		perVariant: Object.fromEntries(
			variants.map((v) => [
				v.name,
				{ msPerDelivery: median(times[v.name]), blocks: times[v.name] },
			]),
		),
		load: median(loads),
		lost,
	};
}

async function countExecutions(client: N8nClient, workflowId: string): Promise<number> {
	let total = 0;
	let cursor = '';
	for (;;) {
		const page = await client.api(
			'GET',
			`/executions?workflowId=${workflowId}&limit=250${cursor ? `&cursor=${cursor}` : ''}`,
		);
		total += ((page.data as unknown[]) ?? []).length;
		if (!page.nextCursor) return total;
		cursor = String(page.nextCursor);
	}
}

/** The package's own time per delivery: the trigger's webhook() with a minimal n8n context. */
async function packageTimePerDelivery(): Promise<number> {
	const { PeachTrigger } = (await import(
		join(REPO_ROOT, 'dist/nodes/PeachTrigger/PeachTrigger.node.js')
	)) as {
		PeachTrigger: new () => { webhook(this: unknown): Promise<unknown> };
	};
	const trigger = new PeachTrigger();
	const raw = Buffer.from(
		JSON.stringify({
			type: 'message_delivery.delivered',
			data: {
				message: { id: 'cmsg_1', status: 'delivered', type: 'template_message' },
				contact: { phone_number: '+14155550123' },
			},
		}),
	);
	const parameters: Record<string, unknown> = { verification: 'none', events: ['*'], options: {} };
	const context = {
		getRequestObject: () => ({ rawBody: raw }),
		getResponseObject: () => ({ status: () => ({ json: () => undefined }) }),
		getNodeParameter: (name: string, fallback: unknown) => parameters[name] ?? fallback,
		getBodyData: () => JSON.parse(raw.toString()),
		getHeaderData: () => ({}),
		getQueryData: () => ({}),
		helpers: { returnJsonArray: (data: unknown[]) => data.map((json) => ({ json })) },
	};
	for (let i = 0; i < 2000; i++) await trigger.webhook.call(context);
	const runs = 20_000;
	const started = performance.now();
	for (let i = 0; i < runs; i++) await trigger.webhook.call(context);
	return (performance.now() - started) / runs;
}

type Rounds = Awaited<ReturnType<typeof rounds>>;
type Blocks = Awaited<ReturnType<typeof deliveryBlocks>>;

interface Results {
	meta: Record<string, string>;
	a?: Rounds;
	b?: Rounds;
	c?: Rounds;
	d?: { sequential: Blocks; concurrent: Blocks; packageMsPerDelivery: number };
	e?: Record<string, { seconds: number; rssGrowthMb: number }>;
	f?: Record<string, Record<string, number | string>>;
	g?: RecordResults & { load: number };
	h?: SingleSendResults;
	i?: SingleSendResults;
}

function chart(results: Results): string {
	const { meta } = results;
	const bars: Array<[string, number, string, string]> = [];
	const grey = '#8a8f98';
	const peach = '#f07a4a';
	if (results.a)
		bars.push(
			['(a) HTTP Request, fixed body', results.a.http.msPerItem, grey, 'a'],
			['(a) Peach Send, defaults', results.a.peach.msPerItem, peach, 'a'],
			['(a) Peach Send, 1 at a time', results.a['peach one at a time'].msPerItem, '#f4a582', 'a'],
		);
	if (results.b)
		bars.push(
			['(b) HTTP Request, expression body', results.b.http.msPerItem, grey, 'a'],
			['(b) Peach Send, mapped, defaults', results.b.peach.msPerItem, peach, 'a'],
		);
	if (results.d) {
		for (const [mode, label] of [
			['sequential', 'one at a time'],
			['concurrent', '10 at a time'],
		] as const) {
			const blocks = results.d[mode].perVariant;
			bars.push(
				[`(d) Webhook v1, ${label}`, blocks.webhook1.msPerDelivery, grey, mode],
				[
					`(d) Peach Trigger defaults, ${label}`,
					blocks['peach defaults'].msPerDelivery,
					peach,
					mode,
				],
			);
		}
	}
	// Sends and deliveries differ by an order of magnitude: each group has its own scale.
	const groupMax = (group: string) =>
		Math.max(...bars.filter((bar) => bar[3] === group).map(([, value]) => value));
	const rowHeight = 28;
	const width = 820;
	const left = 280;
	const height = 70 + bars.length * rowHeight + 30;
	const rows = bars
		.map(([label, value, color, group], index) => {
			const y = 60 + index * rowHeight;
			const w = Math.max(2, ((width - left - 90) * value) / groupMax(group));
			return `<text x="${left - 8}" y="${y + 15}" text-anchor="end" font-size="13">${label}</text><rect x="${left}" y="${y}" width="${w.toFixed(1)}" height="20" fill="${color}"/><text x="${(left + w + 6).toFixed(1)}" y="${y + 15}" font-size="13">${value.toFixed(2)} ms</text>`;
		})
		.join('\n');
	return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" font-family="sans-serif">
<rect width="100%" height="100%" fill="white"/>
<text x="20" y="26" font-size="16" font-weight="bold">n8n-nodes-peach: time per item (a, b) and per trigger delivery (d); lower is better</text>
<text x="20" y="46" font-size="12" fill="#555">${meta.date}, n8n ${meta.n8n}, ${meta.machine}; medians of interleaved rounds and blocks</text>
${rows}
</svg>
`;
}

/** PEACH_BENCH_ONLY=a,d runs only those parts (all by default). */
const PARTS = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i'];
const ONLY = (process.env.PEACH_BENCH_ONLY ?? PARTS.join(','))
	.split(',')
	.map((part) => part.trim());

const ratio = (value: number, reference: number) => `${(value / reference).toFixed(2)}×`;

async function main() {
	const userFolder = newUserFolder('n8n-peach-bench-');
	let n8n: N8nInstance | undefined;
	const mocks = [await mock(0), await mock(100)];
	try {
		log('bench: provisioning n8n and installing the package');
		const { host, nodeBin } = await provisionHost();
		const tgz = await packPackage(join(userFolder, 'pack'));
		await installPackage(userFolder, tgz);
		// The log outlives the run (the n8n folder is removed): read it when a run fails.
		const logFile = join(tmpdir(), 'n8n-peach-bench.log');
		rmSync(logFile, { force: true });
		log(`bench: n8n's log is ${logFile}`);
		// n8n's store calls and credential reads timed inside n8n, for (h)'s breakdown (timings.cjs).
		const timings = join(userFolder, 'timings');
		n8n = await startN8n({ host, nodeBin, userFolder, logFile, env: timingsEnv(timings) });
		const client = new N8nClient(n8n.url);
		await client.setupOwner();
		const fast = await client.createCredential('bench fast', 'peachMessagingApi', {
			apiKey: KEY,
			baseUrl: mocks[0].url,
		});
		const slow = await client.createCredential('bench slow', 'peachMessagingApi', {
			apiKey: KEY,
			baseUrl: mocks[1].url,
		});
		const results: Results = {
			meta: {
				date: new Date().toISOString().slice(0, 10),
				n8n: N8N_VERSION,
				machine: `${cpus().length} × ${cpus()[0]?.model ?? 'CPU'}, ${Math.round(totalmem() / 1024 ** 3)} GiB, Node ${process.versions.node} (bench), n8n on Node 24`,
				rounds: String(ROUNDS),
				items: String(ITEMS),
			},
		};
		const table: string[] = [];

		if (ONLY.includes('a')) {
			log(`bench (a): ${ITEMS} items, fixed parameters, ${ROUNDS}+ interleaved rounds`);
			const a = await rounds(
				n8n,
				[
					await createSender(client, 'http', ITEMS, httpNode(mocks[0].url, false)),
					await createSender(client, 'peach', ITEMS, peachSend(fast, false)),
					await createSender(client, 'peach one at a time', ITEMS, peachSend(fast, false, 1)),
				],
				ITEMS,
			);
			results.a = a;
			table.push(
				`| (a) Peach Send with its defaults / HTTP Request node, fixed body, ${ITEMS} items | ≤ 1.0× | ${ratio(a.peach.msPerItem, a.http.msPerItem)} (${a.peach.msPerItem.toFixed(2)} vs ${a.http.msPerItem.toFixed(2)} ms per item); one at a time ${ratio(a['peach one at a time'].msPerItem, a.http.msPerItem)} | ${loadText(a.load)} (${a.rounds} rounds) |`,
			);
		}
		if (ONLY.includes('b')) {
			log(`bench (b): ${ITEMS} items, mapped by expressions`);
			const b = await rounds(
				n8n,
				[
					await createSender(client, 'http', ITEMS, httpNode(mocks[0].url, true)),
					await createSender(client, 'peach', ITEMS, peachSend(fast, true)),
				],
				ITEMS,
			);
			results.b = b;
			table.push(
				`| (b) the same mapped (Peach: phone, name, one variable; HTTP Request: one expression body) | reported | ${ratio(b.peach.msPerItem, b.http.msPerItem)} (${b.peach.msPerItem.toFixed(2)} vs ${b.http.msPerItem.toFixed(2)} ms per item) | ${loadText(b.load)} (${b.rounds} rounds) |`,
			);
		}
		if (ONLY.includes('c')) {
			log(
				`bench (c): ${ITEMS} sends (each item its own contact) against a mock answering after 100 ms, ${ROUNDS}+ interleaved rounds`,
			);
			const extra = (process.env.PEACH_BENCH_CEILINGS ?? '').split(',').filter(Boolean).map(Number);
			const c = await rounds(
				n8n,
				[
					await createSender(client, 'http', ITEMS, httpNode(mocks[1].url, true)),
					await createSender(client, 'peach', ITEMS, peachSend(slow, true)),
					// The same against a mock that answers at once: n8n's and the node's own time.
					await createSender(client, 'peach no latency', ITEMS, peachSend(fast, true)),
					await createSender(client, 'http no latency', ITEMS, httpNode(mocks[0].url, true)),
					// One expression per item each: what n8n's expression sandbox costs both alike.
					await createSender(client, 'peach one expression', ITEMS, peachSend(slow, 'phone')),
					await createSender(
						client,
						'peach one expression no latency',
						ITEMS,
						peachSend(fast, 'phone'),
					),
					await createSender(client, 'peach ceiling 5', ITEMS, peachSend(slow, true, 5)),
					await createSender(client, 'peach ceiling 20', ITEMS, peachSend(slow, true, 20)),
					...(await Promise.all(
						extra.map((ceiling) =>
							createSender(
								client,
								`peach ceiling ${ceiling}`,
								ITEMS,
								peachSend(slow, true, ceiling),
							),
						),
					)),
				],
				ITEMS,
			);
			// The ideal at a fixed width N: n8n's and the node's own time (the same items against a mock
			// that answers at once) plus ITEMS / N round trips of 100 ms.
			const own = c['peach no latency'].medianSeconds;
			const ideal = (width: number) => own + (Math.ceil(ITEMS / width) * 100) / 1000;
			results.c = c;
			table.push(
				`| (c) ${ITEMS} sends at 100 ms latency: Peach Send with its defaults (ceiling ${DEFAULT_CEILING}) / HTTP Request with its defaults (all at once) | ≤ 2× | ${ratio(c.peach.medianSeconds, c.http.medianSeconds)} (${c.peach.medianSeconds.toFixed(2)} s vs ${c.http.medianSeconds.toFixed(2)} s) | ${loadText(c.load)} (${c.rounds} rounds) |`,
				`| (c) where the difference goes: n8n's and the node's time without latency (Peach / HTTP Request) | reported | ${ratio(c['peach no latency'].medianSeconds, c['http no latency'].medianSeconds)} (${c['peach no latency'].medianSeconds.toFixed(2)} s vs ${c['http no latency'].medianSeconds.toFixed(2)} s); latency added: Peach ${(c.peach.medianSeconds - c['peach no latency'].medianSeconds).toFixed(2)} s (every item checked before the first request, then ${Math.ceil(ITEMS / DEFAULT_CEILING)} round trips at the ceiling), HTTP Request ${(c.http.medianSeconds - c['http no latency'].medianSeconds).toFixed(2)} s (sends while it reads items) | ${loadText(c.load)} |`,
				`| (c) the same with one expression per item each (Peach: the phone mapped; HTTP Request: its one-expression body) | reported | ${ratio(c['peach one expression'].medianSeconds, c.http.medianSeconds)} (${c['peach one expression'].medianSeconds.toFixed(2)} s vs ${c.http.medianSeconds.toFixed(2)} s); without latency ${ratio(c['peach one expression no latency'].medianSeconds, c['http no latency'].medianSeconds)} | ${loadText(c.load)} |`,
				`| (c) the same against the ideal at a fixed width N (the node's own ${own.toFixed(2)} s + ${ITEMS}/N × 100 ms) | ≤ 1.1× | ceiling 5: ${ratio(c['peach ceiling 5'].medianSeconds, ideal(5))} (${c['peach ceiling 5'].medianSeconds.toFixed(2)} s vs ${ideal(5).toFixed(1)} s); ceiling 20: ${ratio(c['peach ceiling 20'].medianSeconds, ideal(20))} (${c['peach ceiling 20'].medianSeconds.toFixed(2)} s vs ${ideal(20).toFixed(1)} s); defaults: ${ratio(c.peach.medianSeconds, ideal(DEFAULT_CEILING))} (vs ${ideal(DEFAULT_CEILING).toFixed(1)} s)${extra.map((ceiling) => `; ceiling ${ceiling}: ${c[`peach ceiling ${ceiling}`].medianSeconds.toFixed(2)} s (${ratio(c[`peach ceiling ${ceiling}`].medianSeconds, c.http.medianSeconds)} HTTP Request)`).join('')} | ${loadText(c.load)} |`,
			);
		}
		if (ONLY.includes('f')) {
			log(
				`bench (f): ${ITEMS} sends against a Peach answering after 100 ms that answers 429 (Retry-After 1 s) beyond ${LIMITED_IN_FLIGHT} requests in flight`,
			);
			const limited = await mock(100, { inFlight: LIMITED_IN_FLIGHT, retryAfter: 1 });
			mocks.push(limited);
			const credential = await client.createCredential('bench limited', 'peachMessagingApi', {
				apiKey: KEY,
				baseUrl: limited.url,
			});
			const measure = async (name: string, sender: Json, refusingMs = 0) => {
				const variant = await createSender(client, name, ITEMS, sender);
				limited.accepted.clear();
				Object.assign(limited.stats, {
					mostOpen: 0,
					rateLimited: 0,
					refusedAll: 0,
					refuseUntil: performance.now() + refusingMs,
				});
				const before = load();
				const started = performance.now();
				let status = 'success';
				try {
					await runOnce(n8n as N8nInstance, variant);
				} catch (error) {
					status = (error as Error).message;
				}
				const seconds = (performance.now() - started) / 1000;
				const counts = [...limited.accepted.values()];
				return {
					seconds,
					status,
					sent: counts.length,
					twice: counts.filter((count) => count > 1).length,
					notSent: ITEMS - counts.length,
					rateLimited: limited.stats.rateLimited,
					refusedAll: limited.stats.refusedAll,
					mostOpen: limited.stats.mostOpen,
					load: before,
				};
			};
			const retryOnFail = { retryOnFail: true, maxTries: 3, waitBetweenTries: 1000 };
			// n8n's and the node's own time: the same items against a mock that answers at once.
			const own = await runOnce(
				n8n,
				await createSender(client, 'peach own time', ITEMS, peachSend(fast, true)),
			);
			const f = {
				peach: await measure('peach limited', peachSend(credential, true)),
				refusing: await measure('peach refusing', peachSend(credential, true), REFUSING_MS),
				http: await measure('http limited', httpNode(limited.url, true)),
				httpRetry: await measure('http limited retry', {
					...httpNode(limited.url, true),
					...retryOnFail,
				}),
			};
			results.f = f;
			const allows = own + (Math.ceil(ITEMS / LIMITED_IN_FLIGHT) * 100) / 1000;
			const line = (label: string, run: (typeof f)['peach']) =>
				`${label}: ${run.seconds.toFixed(2)} s, ${run.sent} sent, ${run.notSent} not sent, ${run.twice} twice, ${run.rateLimited} answered 429, at most ${run.mostOpen} open`;
			table.push(
				`| (f) ${ITEMS} sends, Peach answering 429 beyond ${LIMITED_IN_FLIGHT} in flight: Peach Send with its defaults / the time the limit allows (the node's own ${own.toFixed(2)} s + ${ITEMS}/${LIMITED_IN_FLIGHT} × 100 ms = ${allows.toFixed(1)} s) | ≤ 1.5×, 0 failed, 0 twice | ${ratio(f.peach.seconds, allows)}; ${line('Peach', f.peach)} | ${loadText(f.peach.load)} |`,
				`| (f) ${ITEMS} sends, Peach answering every request 429 (Retry-After 1 s) for its first ${REFUSING_MS / 1000} s, then as above: Peach Send with its defaults | reported: 429s per second while Peach refuses | ${(f.refusing.refusedAll / (REFUSING_MS / 1000)).toFixed(1)} per second; ${line('Peach', f.refusing)} | ${loadText(f.refusing.load)} |`,
				`| (f) HTTP Request in the same run | reported | ${line('defaults', f.http)} (${f.http.status === 'success' ? 'succeeded' : 'the workflow failed'}); ${line('Retry On Fail (3 tries, 1 s)', f.httpRetry)} (${f.httpRetry.status === 'success' ? 'succeeded' : 'the workflow failed'}) | ${loadText(f.http.load)} |`,
			);
		}
		if (ONLY.includes('d')) {
			log('bench (d): trigger deliveries, 5 interleaved blocks of 100');
			const secret = await client.createCredential('bench secret', 'peachWebhookApi', {
				secret: TRIGGER_SECRET,
			});
			const kinds: TriggerKind[] = [
				'webhook1',
				'webhook2',
				'peach defaults',
				'peach no verification',
			];
			const triggers: Variant[] = [];
			for (const kind of kinds) triggers.push(await triggerWorkflow(client, kind, secret));
			for (const variant of triggers) {
				await waitForTriggerWebhook(`${n8n.url}/webhook/${variant.path}`, {
					accept: [200, 400, 422],
				});
				await deliver(n8n, client, variant, 50, 5); // warm-up
			}
			const sequential = await deliveryBlocks(n8n, client, triggers, 5, 100, 1);
			const concurrent = await deliveryBlocks(n8n, client, triggers, 5, 100, 10);
			const packageMsPerDelivery = await packageTimePerDelivery();
			results.d = { sequential, concurrent, packageMsPerDelivery };
			for (const [label, blocks] of [
				['one at a time', sequential],
				['10 at a time', concurrent],
			] as const) {
				const v1 = blocks.perVariant.webhook1.msPerDelivery;
				const cell = (name: string) =>
					`${blocks.perVariant[name].msPerDelivery.toFixed(1)} ms (${ratio(blocks.perVariant[name].msPerDelivery, v1)})`;
				table.push(
					`| (d) Peach Trigger with its defaults (secret credential, Ignore Duplicates) / Webhook v1, ${label} | ≤ 1.1× | ${cell('peach defaults')} vs ${v1.toFixed(1)} ms; Webhook v2 ${cell('webhook2')}; Peach Trigger without verification ${cell('peach no verification')}; ${blocks.lost} lost | ${loadText(blocks.load)} |`,
				);
			}
			log(`  (d) the package's own time per delivery: ${packageMsPerDelivery.toFixed(4)} ms`);
		}
		if (ONLY.includes('e')) {
			log(`bench (e): ${BIG} items, time and RSS growth`);
			const before = load();
			const bigHttp = await createSender(client, 'http', BIG, httpNode(mocks[0].url, true));
			const bigPeach = await createSender(client, 'peach', BIG, peachSend(fast, true));
			const e = { http: await runWithRss(n8n, bigHttp), peach: await runWithRss(n8n, bigPeach) };
			results.e = e;
			table.push(
				`| (e) n8n's RSS growth at ${BIG} items, Peach (defaults, mapped) vs HTTP Request | no worse | +${e.peach.rssGrowthMb} MB vs +${e.http.rssGrowthMb} MB (${e.peach.seconds.toFixed(1)} s vs ${e.http.seconds.toFixed(1)} s) | ${loadText(before)} |`,
			);
		}

		mkdirSync(OUT, { recursive: true });
		if (ONLY.includes('g')) {
			const g = await recordAtSize({
				n8n,
				userFolder,
				createSender: async (name, count, sender, itemsNode) =>
					await createSender(client, name, count, sender, itemsNode),
				runOnce: async (variant) => await runOnce(n8n as N8nInstance, variant),
				rounds: async (variants) => {
					const measured = await rounds(n8n as N8nInstance, variants, 1);
					return Object.fromEntries(variants.map((v) => [v.name, measured[v.name].medianSeconds]));
				},
				http: (mapped) => httpNode(mocks[0].url, mapped),
				peach: (mapped) => peachSend(fast, mapped),
			});
			results.g = { ...g, load: load() };
			const { oneContact: one, manyContacts: many, bytes } = g;
			table.push(
				`| (g) one contact's messages: Peach ms per item at 5,000 / at 1,000 | ≤ 1.1× | ${ratio(one.peach5k, one.peach1k)} (${one.peach5k.toFixed(2)} vs ${one.peach1k.toFixed(2)} ms) | ${loadText(results.g.load)} |`,
				`| (g) one contact, 1,000: Peach / HTTP Request (fixed body) | ≤ 3× | ${ratio(one.peach1k, one.http1k)} (${one.peach1k.toFixed(2)} vs ${one.http1k.toFixed(2)} ms per item) | |`,
				`| (g) many contacts: Peach ms per item at 50,000 / at 1,000 | ≤ 1.1× | ${ratio(many.peach50k, many.peach1k)} (${many.peach50k.toFixed(2)} vs ${many.peach1k.toFixed(2)} ms) | |`,
				`| (g) many contacts, 1,000: Peach / HTTP Request (mapped body) | ≤ 1.2× | ${ratio(many.peach1k, many.http1k)} (${many.peach1k.toFixed(2)} vs ${many.http1k.toFixed(2)} ms per item) | |`,
				`| (g) bytes n8n wrote per delivery, after ${bytes.recordedBefore.toLocaleString('en')} deliveries recorded / on a fresh workflow | within 10 % | ${ratio(bytes.after, bytes.fresh)} (${Math.round(bytes.after)} vs ${Math.round(bytes.fresh)} bytes; the record's rows: ${bytes.rowAfter.entries} entries, ${bytes.rowAfter.bytes} bytes after, ${bytes.rowFresh.entries} entries before) | |`,
			);
		}
		const single = (part: 'h' | 'i', mode: string, results: SingleSendResults) => {
			const ms = (name: string) => results.variants[name].msPerExecution;
			const { n8nOwn, send, credentialRead, templateRead, storeCalls, nodeOther } =
				results.breakdown;
			table.push(
				`| (${part}) ${results.count} single-send executions one after another, ${mode}, Peach answering after 100 ms: Peach Send with its defaults / HTTP Request | ≤ 1.15× | ${ratio(ms('peach'), ms('http'))} (${ms('peach').toFixed(1)} vs ${ms('http').toFixed(1)} ms per execution); against HTTP Request with the Peach credential ${ratio(ms('peach'), ms('http with credential'))} | ${loadText(results.load)} (${results.rounds} rounds) |`,
				`| (${part}) where a Peach execution's time goes, ms | reported | n8n's own ${n8nOwn.toFixed(1)} (Webhook → Wait 100 ms, less the 100 ms); the send ${send.toFixed(1)} (HTTP Request − n8n's own); n8n's reading of the credential ${credentialRead.toFixed(1)} (timed in n8n; HTTP Request with the Peach credential ${ms('http with credential').toFixed(1)}); the template read when made ${templateRead.toFixed(1)} (a template per execution − kept); the record's store calls ${storeCalls.toFixed(1)} (${results.variants.peach.store.calls.toFixed(1)} calls, timed in n8n); the node's other time ${nodeOther.toFixed(1)}; HTTP Request at once ${ms('http at once').toFixed(1)} | |`,
			);
		};
		if (ONLY.includes('h')) {
			log(
				`bench (h): ${SINGLE_COUNT} single-send executions one after another per variant, ${SINGLE_ROUNDS} interleaved rounds`,
			);
			results.h = await singleSends(n8n.url, client, {
				slowUrl: mocks[1].url,
				fastUrl: mocks[0].url,
				rounds: SINGLE_ROUNDS,
				count: SINGLE_COUNT,
				timings,
			});
			single('h', "n8n's regular mode", results.h);
		}
		if (ONLY.includes('i')) {
			log('bench (i): the same in queue mode (the regular n8n stopped meanwhile)');
			await n8n.stop();
			try {
				results.i = await singleSendsInQueueMode({
					slowUrl: mocks[1].url,
					fastUrl: mocks[0].url,
					rounds: SINGLE_ROUNDS,
					count: SINGLE_COUNT,
				});
				single('i', 'queue mode (main + 2 workers, PostgreSQL)', results.i);
			} catch (error) {
				// The parts measured before are written all the same.
				log(`bench (i) failed: ${(error as Error).message}`);
				table.push(`| (i) queue mode | | failed: ${(error as Error).message} | |`);
			}
		}
		const file = ONLY.length === PARTS.length ? 'results.json' : `results-${ONLY.join('')}.json`;
		writeFileSync(join(OUT, file), `${JSON.stringify(results, null, 2)}\n`);
		if (ONLY.length === PARTS.length) writeFileSync(join(OUT, 'chart.svg'), chart(results));
		log('');
		log(`${results.meta.date}, n8n ${results.meta.n8n}, ${results.meta.machine}`);
		log('| Measure | Target | Measured | Load (1 min) |');
		log('|---|---|---|---|');
		for (const line of table) log(line);
		log(`results: ${join(OUT, file)}`);
	} finally {
		await n8n?.stop();
		for (const m of mocks) m.server.close();
		rmSync(userFolder, { recursive: true, force: true });
	}
}

if (process.env.PEACH_BENCH_CHART_ONLY === '1') {
	// Redraws the chart from the last results, without running anything.
	const results = JSON.parse(readFileSync(join(OUT, 'results.json'), 'utf8')) as Record<
		string,
		unknown
	>;
	writeFileSync(join(OUT, 'chart.svg'), chart(results as unknown as Results));
} else {
	await main();
}
process.exit(0);
