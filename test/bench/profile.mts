/**
 * npm run bench:profile: a CPU profile of n8n while the Peach node sends 1,000 items four times
 * against a loopback mock (n8n started with --cpu-prof; PEACH_PROFILE_FIXED=1 for fixed parameters;
 * PEACH_PROFILE_TRIGGER=1 for 1,000 Peach Trigger deliveries with its defaults instead;
 * PEACH_PROFILE_SINGLE=1 for 1,000 single-send executions, one after another, instead), then the
 * functions with the most self time, grouped by package, the inclusive time of the node's calls into
 * n8n, and the package's own functions. Shows where per-item time goes. Not a test.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import {
	chain,
	codeNode,
	installPackage,
	log,
	N8nClient,
	newUserFolder,
	packPackage,
	peachNode,
	provisionHost,
	startN8n,
	waitForTriggerWebhook,
	webhookNode,
} from '../e2e/n8n.mts';

/** PEACH_PROFILE_FIXED=1 profiles fixed parameters (no expressions) instead of the mapped ones. */
const FIXED = process.env.PEACH_PROFILE_FIXED === '1';
/** PEACH_PROFILE_TRIGGER=1 profiles 1,000 Peach Trigger deliveries with its defaults instead. */
const TRIGGER = process.env.PEACH_PROFILE_TRIGGER === '1';
/** PEACH_PROFILE_SINGLE=1 profiles 1,000 webhook executions that each send one message instead. */
const SINGLE = process.env.PEACH_PROFILE_SINGLE === '1';

const server = createServer((req, res) => {
	req.resume();
	req.on('end', () => {
		if (req.method === 'GET') {
			// The template a send is checked against: approved, without variables.
			res.writeHead(200, { 'Content-Type': 'application/json' });
			res.end('{"id":"wat_welcome","status":"approved","components":[]}');
			return;
		}
		res.writeHead(201, { 'Content-Type': 'application/json' });
		res.end('{"status":"success","event_id":"evt_1"}');
	});
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
const mockUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
const profiles = mkdtempSync(join(tmpdir(), 'peach-profile-'));
const userFolder = newUserFolder('n8n-peach-profile-');
const { host, nodeBin } = await provisionHost();
await installPackage(userFolder, await packPackage(join(userFolder, 'pack')));
process.env.NODE_OPTIONS = `--cpu-prof --cpu-prof-dir=${profiles}`;
const n8n = await startN8n({ host, nodeBin, userFolder });
delete process.env.NODE_OPTIONS;
const client = new N8nClient(n8n.url);
await client.setupOwner();
const credential = await client.createCredential('profile', 'peachMessagingApi', {
	apiKey: 'k',
	baseUrl: mockUrl,
});
if (TRIGGER) {
	// The Peach Trigger as users get it: the secret in a credential, Ignore Duplicates on.
	const secret = await client.createCredential('profile secret', 'peachWebhookApi', {
		secret: 'profile-secret-0123456789',
	});
	const webhookId = randomUUID();
	const workflowId = await client.createWorkflow({
		name: 'profile trigger',
		nodes: [
			{
				id: randomUUID(),
				name: 'Peach Trigger',
				type: 'n8n-nodes-peach.peachTrigger',
				typeVersion: 1,
				position: [0, 0],
				webhookId,
				parameters: { events: ['*'], options: {} },
				credentials: { peachWebhookApi: secret },
			},
		],
		connections: {},
	});
	await client.activate(workflowId);
	const url = `${n8n.url}/webhook/${webhookId}/webhook?token=profile-secret-0123456789`;
	await waitForTriggerWebhook(url, { accept: [400, 422] });
	for (let run = 0; run < 4; run++) {
		const started = performance.now();
		for (let index = 0; index < 250; index++) {
			const response = await fetch(url, {
				method: 'POST',
				headers: { 'Content-Type': 'application/json' },
				body: JSON.stringify({
					type: 'message_delivery.delivered',
					data: {
						message: { id: `cmsg_${run}_${index}`, status: 'delivered', type: 'template_message' },
						contact: { phone_number: '+14155550123' },
					},
				}),
			});
			await response.arrayBuffer();
			if (!response.ok) throw new Error(`delivery answered ${response.status}`);
		}
		log(`run ${run + 1}: ${((performance.now() - started) / 250).toFixed(1)} ms per delivery`);
	}
} else if (SINGLE) {
	// The most common use: a webhook that sends one message per execution.
	const path = `profile-${randomUUID().slice(0, 8)}`;
	const workflowId = await client.createWorkflow({
		name: 'profile single',
		nodes: [
			webhookNode(path, 'Webhook'),
			peachNode(
				{
					resource: 'templateMessage',
					operation: 'send',
					phoneNumber: '={{ $json.body.phone }}',
					templateId: { __rl: true, mode: 'id', value: 'wat_welcome' },
					variablesInput: 'fields',
					variables: { values: [{ key: 'first_name', value: '={{ $json.body.name }}' }] },
					contactFields: { name: '={{ $json.body.name }}' },
					additionalFields: {},
				},
				credential,
				'Send',
			),
		],
		connections: chain('Webhook', 'Send'),
	});
	await client.activate(workflowId);
	for (let run = 0; run < 4; run++) {
		const started = performance.now();
		for (let index = 0; index < 250; index++) {
			const response = await client.callWebhook(path, {
				phone: `+1415555${String(1000 + run * 250 + index)}`,
				name: `Guest ${index}`,
			});
			if (response.status !== 200) throw new Error(`execution answered ${response.status}`);
		}
		log(`run ${run + 1}: ${((performance.now() - started) / 250).toFixed(1)} ms per execution`);
	}
} else {
	const path = `profile-${randomUUID().slice(0, 8)}`;
	const workflowId = await client.createWorkflow({
		name: 'profile',
		nodes: [
			webhookNode(path, 'Webhook', { responseData: 'noData' }),
			codeNode(
				"return Array.from({ length: 1000 }, (_, i) => ({ json: { phone: '+1415555' + String(1000 + i), name: 'Guest ' + i } }));",
				'Items',
			),
			peachNode(
				{
					resource: 'templateMessage',
					operation: 'send',
					phoneNumber: FIXED ? '+14155550123' : '={{ $json.phone }}',
					templateId: { __rl: true, mode: 'id', value: 'wat_welcome' },
					variablesInput: 'fields',
					variables: {
						values: [{ key: 'first_name', value: FIXED ? 'Guest' : '={{ $json.name }}' }],
					},
					contactFields: { name: FIXED ? 'Guest' : '={{ $json.name }}' },
					additionalFields: {},
				},
				credential,
				'Send',
			),
		],
		connections: chain('Webhook', 'Items', 'Send'),
	});
	await client.activate(workflowId);
	for (let run = 0; run < 4; run++) {
		const started = performance.now();
		await (
			await client.callWebhook(path, {})
		).json;
		log(`run ${run + 1}: ${((performance.now() - started) / 1000).toFixed(2)} s`);
	}
}
await n8n.stop();
server.close();

interface Node {
	id: number;
	callFrame: { functionName: string; url: string; lineNumber: number };
	children?: number[];
}
const file = readdirSync(profiles)
	.map((name) => join(profiles, name))
	.sort((a, b) => readFileSync(b).length - readFileSync(a).length)[0];
const profile = JSON.parse(readFileSync(file, 'utf8')) as {
	nodes: Node[];
	samples: number[];
	timeDeltas: number[];
};
/** The installed package's files (not n8n's cache folder, which is also named n8n-nodes-peach). */
const OWN = /node_modules\/n8n-nodes-peach\//;
const self = new Map<number, number>();
profile.samples.forEach((id, index) =>
	self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[index] ?? 0)),
);
const byFunction = new Map<string, number>();
const byPackage = new Map<string, number>();
for (const node of profile.nodes) {
	const us = self.get(node.id) ?? 0;
	const url = node.callFrame.url;
	const pkg =
		/node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url)?.[1] ??
		(url ? 'node internals / other' : '(native)');
	const key = `${node.callFrame.functionName || '(anonymous)'} ${pkg}${OWN.test(url) ? ` ${url.split(OWN)[1]}` : ''}`;
	byFunction.set(key, (byFunction.get(key) ?? 0) + us);
	byPackage.set(pkg, (byPackage.get(pkg) ?? 0) + us);
}
const top = (map: Map<string, number>, count: number) =>
	[...map.entries()]
		.sort((a, b) => b[1] - a[1])
		.slice(0, count)
		.map(([name, us]) => `${(us / 1000).toFixed(0).padStart(7)} ms  ${name}`);
/**
 * Inclusive time (the function and everything it called, each call counted once however deep it
 * recurses) of the calls the node makes into n8n per item, and of n8n's deduplication store, which
 * the delivery record uses: what a change of the node's own code can save.
 */
const byId = new Map(profile.nodes.map((node) => [node.id, node]));
const parentOf = new Map<number, number>();
for (const node of profile.nodes)
	for (const child of node.children ?? []) parentOf.set(child, node.id);
const subtree = (id: number): number =>
	(self.get(id) ?? 0) +
	(byId.get(id)?.children ?? []).reduce((sum, child) => sum + subtree(child), 0);
const insideOf = (id: number, name: string): boolean => {
	for (let at = parentOf.get(id); at !== undefined; at = parentOf.get(at))
		if (byId.get(at)?.callFrame.functionName === name) return true;
	return false;
};
const INCLUSIVE = [
	'_getNodeParameter',
	'getParameterValue',
	'validateValueAgainstSchema',
	'getAdditionalKeys',
	'extractValue',
	'cleanupParameterData',
	'httpRequestWithAuthentication',
	'getCredentials',
];
log('\ninclusive time of calls into n8n (each outermost call once):');
for (const name of INCLUSIVE) {
	const total = profile.nodes
		.filter((node) => node.callFrame.functionName === name && !insideOf(node.id, name))
		.reduce((sum, node) => sum + subtree(node.id), 0);
	log(`${(total / 1000).toFixed(0).padStart(7)} ms  ${name}`);
}
/**
 * The same time of `_getNodeParameter`, by the package's function that asked for it (its nearest
 * caller in the package): which of the node's readings cost n8n's expression evaluation.
 */
const byReader = new Map<string, number>();
for (const node of profile.nodes) {
	if (node.callFrame.functionName !== '_getNodeParameter' || insideOf(node.id, '_getNodeParameter'))
		continue;
	let reader = '(not the package)';
	for (let at = parentOf.get(node.id); at !== undefined; at = parentOf.get(at)) {
		const frame = byId.get(at)?.callFrame;
		if (frame && OWN.test(frame.url)) {
			reader = `${frame.functionName || '(anonymous)'} ${frame.url.split(OWN)[1]}:${frame.lineNumber + 1}`;
			break;
		}
	}
	byReader.set(reader, (byReader.get(reader) ?? 0) + subtree(node.id));
}
log('\n_getNodeParameter by the package function that read the parameter:');
for (const line of top(byReader, 12)) log(line);
const ownFunctions = new Map<string, number>();
for (const node of profile.nodes) {
	if (!OWN.test(node.callFrame.url)) continue;
	const key = `${node.callFrame.functionName || '(anonymous)'} ${node.callFrame.url.split(OWN)[1]}:${node.callFrame.lineNumber + 1}`;
	ownFunctions.set(key, (ownFunctions.get(key) ?? 0) + (self.get(node.id) ?? 0));
}
log('\nn8n-nodes-peach functions by self time:');
for (const line of top(ownFunctions, 20)) log(line);
log('\nself time by package (whole profile):');
for (const line of top(byPackage, 12)) log(line);
log('\nself time by function:');
for (const line of top(byFunction, 30)) log(line);
rmSync(profiles, { recursive: true, force: true });
rmSync(userFolder, { recursive: true, force: true });
process.exit(0);
