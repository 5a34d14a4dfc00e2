/**
 * Real-n8n end-to-end suite (npm run test:e2e): the packed package installed into a real n8n 2.x,
 * workflows created through n8n's public API and run against the Peach sandbox; each check looks at
 * both sides, the request the sandbox saw and the execution n8n recorded. The checks are in
 * checks/<resource>.e2e.mts.
 * Closes with "N passed, N failed"; exits non-zero on any failure; stops every process it started.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';

import { startSandbox, type Sandbox } from '../sandbox/server.mts';
import { automationChecks } from './checks/automation.e2e.mts';
import { automationMoreChecks } from './checks/automationMore.e2e.mts';
import { broadcastChecks } from './checks/broadcast.e2e.mts';
import { contactChecks } from './checks/contact.e2e.mts';
import { conversationChecks } from './checks/conversation.e2e.mts';
import { credentialChecks } from './checks/credential.e2e.mts';
import { edgeChecks } from './checks/edges.e2e.mts';
import { errorOutputChecks } from './checks/errorOutput.e2e.mts';
import { exampleChecks } from './checks/examples.e2e.mts';
import { migrationReportChecks, n8nThreeDefaultsChecks } from './checks/migrationReport.e2e.mts';
import { headerMediaChecks } from './checks/headerMedia.e2e.mts';
import { hostileChecks } from './checks/hostile.e2e.mts';
import { mediaChecks } from './checks/media.e2e.mts';
import { neverRepeatChecks } from './checks/neverRepeat.e2e.mts';
import { orderChecks } from './checks/order.e2e.mts';
import { peachTriggerChecks } from './checks/peachTrigger.e2e.mts';
import { recoveryChecks } from './checks/recovery.e2e.mts';
import { templateMessageChecks } from './checks/templateMessage.e2e.mts';
import { sendAndWaitChecks } from './checks/sendAndWait.e2e.mts';
import { templateMessageMoreChecks } from './checks/templateMessageMore.e2e.mts';
import { triggerChecks } from './checks/trigger.e2e.mts';
import { whatsAppTemplateChecks } from './checks/whatsAppTemplate.e2e.mts';
import {
	installPackage,
	keepFailedRun,
	log,
	N8nClient,
	type N8nInstance,
	newUserFolder,
	packPackage,
	provisionHost,
	startN8n,
} from './n8n.mts';
import { type Context, SANDBOX_KEY } from './suite.mts';

const SUITE_TIMEOUT_MS = Number(process.env.PEACH_E2E_TIMEOUT_MS ?? 25 * 60_000);

const checks = [
	...credentialChecks,
	...templateMessageChecks,
	...templateMessageMoreChecks,
	...sendAndWaitChecks,
	...broadcastChecks,
	...conversationChecks,
	...contactChecks,
	...orderChecks,
	...triggerChecks,
	...automationChecks,
	...automationMoreChecks,
	...mediaChecks,
	...headerMediaChecks,
	...neverRepeatChecks,
	...edgeChecks,
	...recoveryChecks,
	...errorOutputChecks,
	// Last among the action checks: it archives and pauses templates the others send.
	...whatsAppTemplateChecks,
	...peachTriggerChecks,
	...hostileChecks,
	...exampleChecks,
	...migrationReportChecks,
	...n8nThreeDefaultsChecks,
].filter(
	// PEACH_E2E_ONLY: a part of a check's name; several parts separated by " | ".
	(check) =>
		!process.env.PEACH_E2E_ONLY ||
		process.env.PEACH_E2E_ONLY.split(' | ').some((part) => check.name.includes(part)),
);

async function main() {
	const startedAt = Date.now();
	const guard = setTimeout(() => {
		log(`e2e: time limit of ${SUITE_TIMEOUT_MS / 1000}s reached; stopping`);
		log('0 passed, 1 failed');
		process.exit(1);
	}, SUITE_TIMEOUT_MS);
	guard.unref();

	let n8n: N8nInstance | undefined;
	let sandbox: Sandbox | undefined;
	const userFolder = newUserFolder();
	let passed = 0;
	let failed = 0;
	const stopAll = async () => {
		await n8n?.stop();
		await sandbox?.close();
	};
	process.on('SIGINT', () => void stopAll().then(() => process.exit(130)));
	process.on('SIGTERM', () => void stopAll().then(() => process.exit(143)));

	try {
		log('e2e: provisioning the n8n host (cached after the first run)');
		const { host, nodeBin } = await provisionHost();
		log('e2e: building and packing the package');
		const tgz = await packPackage(join(userFolder, 'pack'));
		await installPackage(userFolder, tgz);
		sandbox = await startSandbox({ apiKey: SANDBOX_KEY, deliveryDelayMs: 100 });
		log(`e2e: sandbox at ${sandbox.url}; starting n8n`);
		n8n = await startN8n({ host, nodeBin, userFolder });
		log(`e2e: n8n ready at ${n8n.url} after ${Math.round((Date.now() - startedAt) / 1000)}s`);
		const client = new N8nClient(n8n.url);
		await client.setupOwner();
		const credential = await client.createCredential('Peach sandbox', 'peachMessagingApi', {
			apiKey: SANDBOX_KEY,
			baseUrl: sandbox.url,
		});
		const ctx: Context = {
			n8n,
			client,
			sandbox,
			credential,
			crashAndRestart: async () => {
				const port = ctx.n8n.port;
				await ctx.n8n.kill();
				n8n = await startN8n({ host, nodeBin, userFolder, port });
				ctx.n8n = n8n;
			},
		};

		for (const check of checks) {
			const began = Date.now();
			try {
				await check.fn(ctx);
				passed++;
				log(`  ✓ ${check.name} (${Date.now() - began} ms)`);
			} catch (error) {
				failed++;
				log(`  ✗ ${check.name}\n      ${(error as Error).message}`);
			}
		}
	} catch (error) {
		failed++;
		log(`e2e setup failed: ${(error as Error).stack ?? error}`);
		if (n8n) log(`n8n log: ${n8n.logFile}`);
	} finally {
		await stopAll();
		if (failed === 0) rmSync(userFolder, { recursive: true, force: true });
		else keepFailedRun(userFolder);
		clearTimeout(guard);
	}
	log(`e2e finished in ${Math.round((Date.now() - startedAt) / 1000)}s`);
	log(`${passed} passed, ${failed} failed`);
	process.exit(failed === 0 ? 0 : 1);
}

await main();
