/**
 * npm run bench: the Peach node against n8n's own nodes, in ONE real n8n (provisioned like the e2e
 * suite), with interleaved rounds. Writes docs/performance/results.json and docs/performance/chart.svg.
 *
 *   (a) HTTP Request node vs Peach Send, fixed parameters          1,000 items, 5 rounds
 *   (b) the same with an expression mapping (phone, name, variable)  1,000 items, 5 rounds
 *   (c) against a mock answering after 100 ms: Peach sequential vs Max Concurrent Requests 10
 *   (d) Peach Trigger vs Webhook v1 and v2: 1,000 deliveries, sequential and 10 at a time
 *   (e) 10,000 items: time and n8n's RSS growth, Peach vs HTTP Request
 * plus the package's own time per trigger delivery (webhook() called in-process).
 *
 * Environment: PEACH_BENCH_ROUNDS (5), PEACH_BENCH_ITEMS (1000), PEACH_BENCH_BIG (10000).
 * Not a test: it prints and records what it measured, whatever it is.
 */
import { randomUUID } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cpus, totalmem } from 'node:os';
import { join } from 'node:path';

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
	webhookNode,
} from '../e2e/n8n.mts';

const ROUNDS = Number(process.env.PEACH_BENCH_ROUNDS ?? 5);
const ITEMS = Number(process.env.PEACH_BENCH_ITEMS ?? 1000);
const BIG = Number(process.env.PEACH_BENCH_BIG ?? 10_000);
const KEY = 'bench-key';
const OUT = join(REPO_ROOT, 'docs/performance');

/** A loopback Peach stand-in: 201 with an event_id for every POST, after `latencyMs`. */
async function mock(
	latencyMs: number,
): Promise<{ url: string; server: Server; count: () => number }> {
	let requests = 0;
	const server = createServer((req, res) => {
		req.resume();
		req.on('end', () => {
			requests++;
			const answer = () => {
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
	return { url: `http://127.0.0.1:${port}`, server, count: () => requests };
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

function peachSend(
	credential: { id: string; name: string },
	mapped: boolean,
	concurrency = 1,
): Json {
	return peachNode(
		{
			resource: 'templateMessage',
			operation: 'send',
			phoneNumber: mapped ? '={{ $json.phone }}' : '+14155550123',
			templateId: { __rl: true, mode: 'id', value: 'wat_welcome' },
			variablesInput: 'fields',
			variables: { values: [{ key: 'first_name', value: mapped ? '={{ $json.name }}' : 'Guest' }] },
			contactFields: { name: mapped ? '={{ $json.name }}' : 'Guest' },
			additionalFields: {},
			requestOptions: concurrency > 1 ? { concurrency } : {},
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
): Promise<Variant> {
	const path = `bench-${randomUUID().slice(0, 8)}`;
	const hook = {
		...webhookNode(path),
		parameters: {
			httpMethod: 'POST',
			path,
			responseMode: 'lastNode',
			responseData: 'noData',
			options: {},
		},
	};
	const workflowId = await client.createWorkflow({
		name: `bench ${name}`,
		nodes: [hook, items(count), sender],
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
		if (!response.ok) throw new Error(`${variant.name}: HTTP ${response.status}`);
		return (performance.now() - started) / 1000;
	}
}

const median = (values: number[]) => {
	const sorted = [...values].sort((a, b) => a - b);
	const middle = Math.floor(sorted.length / 2);
	return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

/** Interleaved rounds: each round runs every variant once, in an order that rotates. */
async function rounds(n8n: N8nInstance, variants: Variant[], count: number) {
	const times: Record<string, number[]> = Object.fromEntries(variants.map((v) => [v.name, []]));
	for (const variant of variants) await runOnce(n8n, variant); // warm-up, not counted
	for (let round = 0; round < ROUNDS; round++) {
		const order = round % 2 ? [...variants].reverse() : variants;
		for (const variant of order) times[variant.name].push(await runOnce(n8n, variant));
	}
	return Object.fromEntries(
		variants.map((v) => [
			v.name,
			{
				medianSeconds: median(times[v.name]),
				msPerItem: (median(times[v.name]) * 1000) / count,
				runs: times[v.name],
			},
		]),
	);
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

async function triggerWorkflow(
	client: N8nClient,
	kind: 'peach' | 'webhook1' | 'webhook2',
): Promise<Variant> {
	const webhookId = randomUUID();
	const node: Json =
		kind === 'peach'
			? {
					id: randomUUID(),
					name: 'Start',
					type: `${PACKAGE_NAME}.peachTrigger`,
					typeVersion: 1,
					position: [0, 0],
					webhookId,
					parameters: { events: ['*'], verification: 'none', options: {} },
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
	return { name: kind, path: kind === 'peach' ? `${webhookId}/webhook` : webhookId, workflowId };
}

/** `count` deliveries, `parallel` at a time; seconds, and how many executions n8n recorded. */
async function deliver(
	n8n: N8nInstance,
	client: N8nClient,
	variant: Variant,
	count: number,
	parallel: number,
) {
	const payload = JSON.stringify({
		type: 'message_delivery.delivered',
		data: {
			message: { id: 'cmsg_1', status: 'delivered', type: 'template_message' },
			contact: { phone_number: '+14155550123' },
		},
	});
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
					body: payload,
				});
				await response.arrayBuffer();
				if (!response.ok) failed++;
			}
		}),
	);
	const seconds = (performance.now() - started) / 1000;
	// Executions are saved after the answer: wait until the count settles.
	let executions = 0;
	for (let tries = 0; tries < 60; tries++) {
		executions = (await countExecutions(client, variant.workflowId as string)) - before;
		if (executions >= count - failed) break;
		await new Promise((resolve) => setTimeout(resolve, 500));
	}
	return {
		seconds,
		msPerDelivery: (seconds * 1000) / count,
		executions,
		lost: count - failed - executions,
		failed,
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

function chart(results: Record<string, unknown>, meta: Record<string, string>): string {
	const bars: Array<[string, number, string]> = [];
	const a = results.a as Record<string, { msPerItem: number }>;
	const b = results.b as Record<string, { msPerItem: number }>;
	bars.push(
		['(a) HTTP Request, fixed', a.http.msPerItem, '#8a8f98'],
		['(a) Peach Send, fixed', a.peach.msPerItem, '#f07a4a'],
		['(a) Peach Send, 5 at once', a['peach concurrency 5'].msPerItem, '#f4a582'],
	);
	bars.push(
		['(b) HTTP Request, mapped', b.http.msPerItem, '#8a8f98'],
		['(b) Peach Send, mapped', b.peach.msPerItem, '#f07a4a'],
	);
	const d = results.d as Record<string, { msPerDelivery: number }>;
	for (const [key, label] of [
		['webhook1 sequential', '(d) Webhook v1'],
		['webhook2 sequential', '(d) Webhook v2'],
		['peach sequential', '(d) Peach Trigger'],
	] as const)
		bars.push([label, d[key].msPerDelivery, key.startsWith('peach') ? '#f07a4a' : '#8a8f98']);
	// Sends and deliveries differ by an order of magnitude: each group has its own scale.
	const groupMax = (label: string) =>
		Math.max(
			...bars
				.filter(([name]) => name.startsWith('(d)') === label.startsWith('(d)'))
				.map(([, value]) => value),
		);
	const rowHeight = 28;
	const width = 760;
	const left = 210;
	const height = 70 + bars.length * rowHeight + 30;
	const rows = bars
		.map(([label, value, color], index) => {
			const y = 60 + index * rowHeight;
			const w = Math.max(2, ((width - left - 90) * value) / groupMax(label));
			return `<text x="${left - 8}" y="${y + 15}" text-anchor="end" font-size="13">${label}</text><rect x="${left}" y="${y}" width="${w.toFixed(1)}" height="20" fill="${color}"/><text x="${(left + w + 6).toFixed(1)}" y="${y + 15}" font-size="13">${value.toFixed(2)} ms</text>`;
		})
		.join('\n');
	return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" font-family="sans-serif">
<rect width="100%" height="100%" fill="white"/>
<text x="20" y="26" font-size="16" font-weight="bold">n8n-nodes-peach: time per item (a, b) and per trigger delivery (d); lower is better</text>
<text x="20" y="46" font-size="12" fill="#555">${meta.date}, n8n ${meta.n8n}, ${meta.machine}; median of ${meta.rounds} interleaved rounds, ${meta.items} items</text>
${rows}
</svg>
`;
}

async function main() {
	const userFolder = newUserFolder('n8n-peach-bench-');
	let n8n: N8nInstance | undefined;
	const mocks = [await mock(0), await mock(100)];
	try {
		log('bench: provisioning n8n and installing the package');
		const { host, nodeBin } = await provisionHost();
		const tgz = await packPackage(join(userFolder, 'pack'));
		await installPackage(userFolder, tgz);
		n8n = await startN8n({ host, nodeBin, userFolder });
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

		log(`bench (a)/(b): ${ITEMS} items, ${ROUNDS} interleaved rounds`);
		const a = await rounds(
			n8n,
			[
				await createSender(client, 'http', ITEMS, httpNode(mocks[0].url, false)),
				await createSender(client, 'peach', ITEMS, peachSend(fast, false)),
				// n8n's HTTP Request node sends all items at once; the Peach node one at a time unless told.
				await createSender(client, 'peach concurrency 5', ITEMS, peachSend(fast, false, 5)),
			],
			ITEMS,
		);
		const b = await rounds(
			n8n,
			[
				await createSender(client, 'http', ITEMS, httpNode(mocks[0].url, true)),
				await createSender(client, 'peach', ITEMS, peachSend(fast, true)),
			],
			ITEMS,
		);
		log(
			`  (a) http ${a.http.msPerItem.toFixed(2)} ms/item, peach ${a.peach.msPerItem.toFixed(2)} ms/item, peach with 5 at once ${a['peach concurrency 5'].msPerItem.toFixed(2)} ms/item`,
		);
		log(
			`  (b) http ${b.http.msPerItem.toFixed(2)} ms/item, peach ${b.peach.msPerItem.toFixed(2)} ms/item`,
		);

		log('bench (c): 1,000 sends against a mock answering after 100 ms');
		const sequential = await runOnce(
			n8n,
			await createSender(client, 'sequential', 1000, peachSend(slow, false)),
		);
		const concurrent = await runOnce(
			n8n,
			await createSender(client, 'concurrency 10', 1000, peachSend(slow, false, 10)),
		);
		const c = { sequentialSeconds: sequential, concurrency10Seconds: concurrent };
		log(`  (c) sequential ${sequential.toFixed(1)} s, concurrency 10 ${concurrent.toFixed(1)} s`);

		log('bench (d): trigger deliveries');
		const d: Record<string, Awaited<ReturnType<typeof deliver>>> = {};
		const triggers = {
			peach: await triggerWorkflow(client, 'peach'),
			webhook1: await triggerWorkflow(client, 'webhook1'),
			webhook2: await triggerWorkflow(client, 'webhook2'),
		};
		for (const variant of Object.values(triggers)) await deliver(n8n, client, variant, 50, 5); // warm-up
		for (const parallel of [1, 10]) {
			for (const [name, variant] of Object.entries(triggers)) {
				d[`${name} ${parallel === 1 ? 'sequential' : 'concurrent 10'}`] = await deliver(
					n8n,
					client,
					variant,
					ITEMS,
					parallel,
				);
			}
		}
		for (const [name, result] of Object.entries(d))
			log(
				`  (d) ${name}: ${result.msPerDelivery.toFixed(2)} ms/delivery, ${result.executions} executions, ${result.lost} lost`,
			);
		const ownMs = await packageTimePerDelivery();
		log(`  (d) the package's own time per delivery: ${ownMs.toFixed(4)} ms`);

		log(`bench (e): ${BIG} items, time and RSS growth`);
		const bigHttp = await createSender(client, 'http', BIG, httpNode(mocks[0].url, true));
		const bigPeach = await createSender(client, 'peach', BIG, peachSend(fast, true));
		const e = { http: await runWithRss(n8n, bigHttp), peach: await runWithRss(n8n, bigPeach) };
		log(
			`  (e) http ${e.http.seconds.toFixed(1)} s +${e.http.rssGrowthMb} MB, peach ${e.peach.seconds.toFixed(1)} s +${e.peach.rssGrowthMb} MB`,
		);

		const meta = {
			date: new Date().toISOString().slice(0, 10),
			n8n: N8N_VERSION,
			machine: `${cpus().length} × ${cpus()[0]?.model ?? 'CPU'}, ${Math.round(totalmem() / 1024 ** 3)} GiB, Node ${process.versions.node} (bench), n8n on Node 24`,
			rounds: String(ROUNDS),
			items: String(ITEMS),
		};
		const ratios = {
			a: a.peach.msPerItem / a.http.msPerItem,
			aConcurrency5: a['peach concurrency 5'].msPerItem / a.http.msPerItem,
			b: b.peach.msPerItem / b.http.msPerItem,
			c: c.concurrency10Seconds,
			d: d['peach sequential'].msPerDelivery / d['webhook1 sequential'].msPerDelivery,
			e: e.peach.rssGrowthMb - e.http.rssGrowthMb,
		};
		const results = { meta, a, b, c, d, packageMsPerDelivery: ownMs, e, ratios };
		mkdirSync(OUT, { recursive: true });
		writeFileSync(join(OUT, 'results.json'), `${JSON.stringify(results, null, 2)}\n`);
		writeFileSync(join(OUT, 'chart.svg'), chart(results, meta));
		log('');
		log('| Measure | Target | Measured |');
		log('|---|---|---|');
		log(
			`| (a) Peach / HTTP Request, fixed | ≤ 1.0× | ${ratios.a.toFixed(2)}× (with Max Concurrent Requests 5: ${ratios.aConcurrency5.toFixed(2)}×) |`,
		);
		log(`| (b) Peach / HTTP Request, mapped | ≤ 1.5× | ${ratios.b.toFixed(2)}× |`);
		log(
			`| (c) 1,000 sends at 100 ms, concurrency 10 | ≤ 12 s | ${c.concurrency10Seconds.toFixed(1)} s (sequential ${c.sequentialSeconds.toFixed(1)} s) |`,
		);
		log(
			`| (d) Peach Trigger / Webhook v1 | ≤ 1.05× | ${ratios.d.toFixed(2)}× (package's own ${ownMs.toFixed(4)} ms/delivery; lost ${Object.values(d).reduce((sum, r) => sum + r.lost, 0)}) |`,
		);
		log(
			`| (e) RSS growth at ${BIG} items, Peach − HTTP Request | ≤ 0 MB | ${ratios.e.toFixed(1)} MB |`,
		);
		log(`results: ${join(OUT, 'results.json')}, chart: ${join(OUT, 'chart.svg')}`);
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
	writeFileSync(join(OUT, 'chart.svg'), chart(results, results.meta as Record<string, string>));
} else {
	await main();
}
process.exit(0);
