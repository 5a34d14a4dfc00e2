/**
 * npm run dev: builds the package, starts the Peach sandbox and a real n8n 2.x with the package
 * installed, a credential pointing at the sandbox and example workflows, then prints the editor URL
 * and login. Every published Peach Trigger is registered with the sandbox as it is published
 * (devTriggers.mts). Ctrl-C stops everything. `npm run dev -- --smoke` starts it all, checks it, and stops
 * (what CI runs). `--fresh` starts from an empty n8n folder.
 *
 * Environment: PEACH_DEV_PORT (n8n's editor, default 5678), PEACH_SANDBOX_PORT (default 4010),
 * PEACH_DEV_BROKER_PORT (n8n's task broker, default: a free port, never n8n's own 5679),
 * PEACH_SANDBOX_API_KEY (default sandbox-key), PEACH_DEV_FOLDER (default .tmp/n8n-dev),
 * PEACH_DEV_WEBHOOK_SECRET (the example trigger's secret credential, default peach-dev-webhook-secret).
 * The fixed ports are checked before anything starts; a taken one is named with its variable.
 * `--smoke` picks free ports for all three unless the variables are set.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

import {
	DEFAULT_API_KEY,
	rateLimitFromEnvironment,
	startSandbox,
	type Sandbox,
} from '../sandbox/server.mts';
import {
	assertPortsFree,
	installPackage,
	log,
	N8nClient,
	type N8nInstance,
	OWNER,
	packPackage,
	provisionHost,
	REPO_ROOT,
	startN8n,
	waitForTriggerWebhook,
} from './n8n.mts';
import { registerPeachTriggers } from './devTriggers.mts';
import { exampleTriggerWebhookId, loadExamples } from './workflows/examples.mts';

const smoke = process.argv.includes('--smoke');
const fresh = process.argv.includes('--fresh') || smoke;
const n8nPort = Number(process.env.PEACH_DEV_PORT ?? (smoke ? 0 : 5678));
const sandboxPort = Number(process.env.PEACH_SANDBOX_PORT ?? (smoke ? 0 : 4010));
const brokerPort = Number(process.env.PEACH_DEV_BROKER_PORT ?? 0);
const apiKey = process.env.PEACH_SANDBOX_API_KEY ?? DEFAULT_API_KEY;
/** The example trigger's secret (a local credential; the sandbox posts with ?token=). */
const DEV_WEBHOOK_SECRET = process.env.PEACH_DEV_WEBHOOK_SECRET ?? 'peach-dev-webhook-secret';
const folder = resolve(
	REPO_ROOT,
	process.env.PEACH_DEV_FOLDER ?? (smoke ? '.tmp/n8n-dev-smoke' : '.tmp/n8n-dev'),
);
const markerFile = join(folder, 'peach-dev.json');

let n8n: N8nInstance | undefined;
let sandbox: Sandbox | undefined;
let stopTriggers: (() => void) | undefined;
let stopping = false;

async function stopAll(code: number) {
	if (stopping) return;
	stopping = true;
	stopTriggers?.();
	if (n8n || sandbox) log('\nStopping n8n and the sandbox...');
	await n8n?.stop();
	await sandbox?.close();
	if (smoke) rmSync(folder, { recursive: true, force: true });
	process.exit(code);
}

async function main() {
	await assertPortsFree([
		[n8nPort, "n8n's editor", 'PEACH_DEV_PORT'],
		[sandboxPort, 'the Peach sandbox', 'PEACH_SANDBOX_PORT'],
		[brokerPort, "n8n's task broker", 'PEACH_DEV_BROKER_PORT'],
	]);
	if (fresh) rmSync(folder, { recursive: true, force: true });
	mkdirSync(folder, { recursive: true });
	log(
		'Provisioning n8n (Node 24 + n8n, cached after the first run: about 5 minutes the first time)...',
	);
	const { host, nodeBin } = await provisionHost();
	log('Building and installing n8n-nodes-peach into n8n...');
	const tgz = await packPackage(join(folder, 'pack'));
	await installPackage(folder, tgz);

	sandbox = await startSandbox({
		port: sandboxPort,
		apiKey,
		rateLimit: rateLimitFromEnvironment(),
		log: smoke ? undefined : (line) => log(`[sandbox] ${line}`),
	});
	log(`Peach sandbox at ${sandbox.url}`);
	n8n = await startN8n({
		host,
		nodeBin,
		userFolder: folder,
		port: n8nPort,
		brokerPort,
		logFile: join(folder, 'n8n.log'),
	});

	const client = new N8nClient(n8n.url);
	await client.setupOwner();
	const marker = existsSync(markerFile)
		? (JSON.parse(readFileSync(markerFile, 'utf8')) as {
				credentialId: string;
				secretCredentialId?: string;
				workflowIds: string[];
				sandboxUrl: string;
			})
		: undefined;
	let credential: { id: string; name: string };
	let secretCredential: { id: string; name: string };
	let workflowIds: string[];
	if (marker?.secretCredentialId && marker.sandboxUrl === sandbox.url) {
		credential = { id: marker.credentialId, name: 'Peach sandbox' };
		secretCredential = { id: marker.secretCredentialId, name: 'Peach webhook secret' };
		workflowIds = marker.workflowIds;
		log(
			'Reusing the credential and example workflows from the last run (use --fresh to start over).',
		);
	} else {
		credential = await client.createCredential('Peach sandbox', 'peachMessagingApi', {
			apiKey,
			baseUrl: sandbox.url,
		});
		secretCredential = await client.createCredential('Peach webhook secret', 'peachWebhookApi', {
			secret: DEV_WEBHOOK_SECRET,
		});
		workflowIds = [];
		// examples/*.json, the files users import: webhook and trigger examples are published.
		for (const { workflow, how } of loadExamples(
			{ peachMessagingApi: credential, peachWebhookApi: secretCredential },
			sandbox.url,
		)) {
			const id = await client.createWorkflow(workflow);
			workflowIds.push(id);
			if (how.run === 'webhook' || how.run === 'trigger') await client.activate(id);
		}
		writeFileSync(
			markerFile,
			JSON.stringify(
				{
					credentialId: credential.id,
					secretCredentialId: secretCredential.id,
					workflowIds,
					sandboxUrl: sandbox.url,
				},
				null,
				2,
			),
		);
	}
	// Every published Peach Trigger (the example's, and any made in the editor with the "Peach webhook
	// secret" credential) is registered with the sandbox, which posts its webhooks to each.
	const triggers = registerPeachTriggers(client, sandbox, {
		credentialId: secretCredential.id,
		secret: DEV_WEBHOOK_SECRET,
	});
	stopTriggers = triggers.stop;
	await triggers.synced;
	const triggerUrl = `${n8n.url}/webhook/${exampleTriggerWebhookId(loadExamples({ peachMessagingApi: credential, peachWebhookApi: secretCredential }))}/webhook?token=${DEV_WEBHOOK_SECRET}`;

	const test = await client.testCredential(credential, 'peachMessagingApi', {
		apiKey,
		baseUrl: sandbox.url,
	});
	if (test.status !== 'OK')
		throw new Error(`the Peach credential does not pass its test: ${test.message}`);
	// The published example trigger answers a body it refuses with 400, without starting anything.
	await waitForTriggerWebhook(triggerUrl, { what: 'the example Peach Trigger' });
	const editor = await fetch(n8n.url);
	if (!editor.ok) throw new Error(`the editor did not answer (${editor.status})`);
	const listed = await client.api('GET', '/workflows?limit=50');
	const names = ((listed.data as Array<{ id: string; name: string }>) ?? [])
		.filter((w) => workflowIds.includes(w.id))
		.map((w) => w.name);
	if (names.length !== workflowIds.length) throw new Error('example workflows are missing');

	const examples = loadExamples(
		{ peachMessagingApi: credential, peachWebhookApi: secretCredential },
		sandbox.url,
	);
	log('');
	log('n8n-nodes-peach is running against the Peach sandbox.');
	log(`  Editor:       ${n8n.url}`);
	log(`  Login:        ${OWNER.email} / ${OWNER.password}`);
	log(
		`  Sandbox:      ${sandbox.url}  (API key "${apiKey}"; credential "Peach sandbox" points here)`,
	);
	log(
		`  Phone page:   ${sandbox.url}/__sandbox/phone  (what each contact received, with its links)`,
	);
	log(
		'  Published webhooks (POST JSON to these Production URLs; README, Usage, says what to send):',
	);
	for (const { workflow, how } of examples) {
		if (how.run === 'webhook')
			log(`    ${workflow.name.replace(/^Peach example: /, '')}: ${n8n.url}/webhook/${how.path}`);
	}
	log(
		`  Triggers:     every published Peach Trigger with the "Peach webhook secret" credential (secret "${DEV_WEBHOOK_SECRET}", a local one) gets the sandbox's webhooks; lines starting [trigger] say where, or print a curl`,
	);
	log(`  Workflows:    ${names.join('; ')}`);
	log(
		`  n8n log:      ${n8n.logFile} (offline, n8n also logs that api.n8n.io cannot be reached, that no Python runner is installed, and a deprecation notice for its internal task runner: all harmless here)`,
	);
	log(
		'Open a workflow and click "Execute workflow". A send makes the sandbox post delivery webhooks to the',
	);
	log(
		'published "react to failed deliveries" workflow (failed ones start it). Paid orders to refund:',
	);
	log('wa_ord_demo_paid_1, _2 and _3. Ctrl-C stops everything.');

	if (smoke) {
		log('Smoke check passed: n8n, the package, the credential and the example workflows are up.');
		await stopAll(0);
	}
}

process.on('SIGINT', () => void stopAll(0));
process.on('SIGTERM', () => void stopAll(0));
main().catch(async (error: Error) => {
	log(`npm run dev failed: ${error.message}`);
	if (n8n) log(`n8n log: ${n8n.logFile}`);
	await stopAll(1);
});
