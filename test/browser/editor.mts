/**
 * The real n8n editor in headless Chromium (Debian's `chromium` package, driven by playwright-core; no
 * browser download): launch, sign in, open a workflow or a node. Shared by `npm run screenshots` and
 * `npm run test:browser`.
 */
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';

import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';

import { OWNER, PACKAGE_NAME } from '../e2e/n8n.mts';

const CHROMIUM_PATHS = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'];

/**
 * Where Chromium is; PEACH_CHROMIUM overrides. Without one, as root it installs Debian's `chromium` package
 * (a fresh CI machine), else it says how to install it.
 */
export function chromiumPath(): string {
	const candidates = [process.env.PEACH_CHROMIUM, ...CHROMIUM_PATHS].filter(Boolean) as string[];
	let found = candidates.find((path) => existsSync(path));
	if (!found && process.getuid?.() === 0) {
		process.stdout.write("browser: installing Debian's chromium package with apt-get\n");
		const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
		const install = () =>
			execFileSync('apt-get', ['install', '-y', '--no-install-recommends', 'chromium'], {
				env,
				stdio: 'ignore',
			});
		try {
			install();
		} catch {
			execFileSync('apt-get', ['update'], { env, stdio: 'ignore' });
			install();
		}
		found = candidates.find((path) => existsSync(path));
	}
	if (!found) {
		throw new Error(
			"no Chromium found: install Debian's package (sudo apt-get install -y chromium) or set PEACH_CHROMIUM to a Chrome or Chromium binary",
		);
	}
	return found;
}

export interface Editor {
	browser: Browser;
	context: BrowserContext;
	page: Page;
	close(): Promise<void>;
}

/** Chromium with a new profile and no background traffic (this machine has no internet), signed in to n8n. */
export async function openEditor(
	url: string,
	viewport = { width: 1440, height: 900 },
): Promise<Editor> {
	const browser = await chromium.launch({
		executablePath: chromiumPath(),
		headless: true,
		args: [
			'--no-sandbox',
			'--disable-gpu',
			'--disable-quic',
			'--no-first-run',
			'--disable-background-networking',
			'--disable-component-update',
			'--disable-sync',
			'--disable-dev-shm-usage',
		],
	});
	const context = await browser.newContext({ viewport, deviceScaleFactor: 1 });
	const page = await context.newPage();
	// Signed in through n8n's own login endpoint; the browser gets the session cookie it sets.
	const login = await context.request.post(`${url}/rest/login`, {
		data: { emailOrLdapLoginId: OWNER.email, password: OWNER.password },
	});
	if (!login.ok()) throw new Error(`n8n login failed: HTTP ${login.status()}`);
	return { browser, context, page, close: () => browser.close() };
}

/** A workflow id by its name, through the editor's API with the browser's session. */
export async function workflowIdByName(editor: Editor, url: string, name: string): Promise<string> {
	const response = await editor.context.request.get(`${url}/rest/workflows`);
	const { data } = (await response.json()) as { data: Array<{ id: string; name: string }> };
	const found = data.find((workflow) => workflow.name === name);
	if (!found)
		throw new Error(`no workflow named "${name}" (have: ${data.map((w) => w.name).join('; ')})`);
	return found.id;
}

/** Opens a workflow on the canvas and waits until its nodes are drawn. */
export async function openWorkflow(page: Page, url: string, id: string): Promise<void> {
	await page.goto(`${url}/workflow/${id}`);
	await page.locator('[data-test-id="canvas-node"]').first().waitFor({ timeout: 60_000 });
	await dismissPopups(page);
}

/** Closes the tours, banners and "what's new" dialogs a fresh n8n shows, if any. */
export async function dismissPopups(page: Page): Promise<void> {
	for (const selector of [
		'[data-test-id="close-whats-new-modal"]',
		'.el-dialog__headerbtn',
		'[data-test-id="banner-close-button"]',
	]) {
		const button = page.locator(selector);
		if ((await button.count()) > 0 && (await button.first().isVisible())) {
			await button
				.first()
				.click()
				.catch(() => undefined);
		}
	}
}

/** Opens a node's panel (NDV) by double-clicking it on the canvas. */
export async function openNode(page: Page, name: string): Promise<void> {
	await page.locator('[data-test-id="canvas-node"]').filter({ hasText: name }).first().dblclick();
	await page.locator('[data-test-id="ndv"]').first().waitFor({ timeout: 30_000 });
}

/** The n8n editor's REST API with the browser's session. */
async function rest(
	editor: Editor,
	url: string,
	method: 'GET' | 'POST',
	path: string,
	data?: unknown,
) {
	const response =
		method === 'GET'
			? await editor.context.request.get(`${url}/rest${path}`)
			: await editor.context.request.post(`${url}/rest${path}`, { data });
	if (!response.ok()) throw new Error(`${method} /rest${path}: HTTP ${response.status()}`);
	return ((await response.json()) as { data: unknown }).data as Record<string, unknown>;
}

const MANUAL = 'When clicking ‘Execute workflow’';

/**
 * A Send and Wait waiting for an answer: Manual → Peach (Send and Wait, approve or decline, on the
 * sandbox's approval template) created with the "Peach sandbox" credential `npm run dev` made, run as
 * the editor's Execute workflow does. Returns the workflow, the waiting execution and the link the
 * sandbox's phone received.
 */
/**
 * Creates and starts an approval workflow: Manual → Send and Wait to `phone`; or, given several phones,
 * Manual → Code (the phones) → Loop Over Items → Send and Wait → back to the loop (each asked in turn,
 * in one execution). Returns once the execution waits, with the link the first phone was sent.
 */
export async function startApproval(
	editor: Editor,
	url: string,
	sandboxUrl: string,
	phones: string | string[],
	/** More parameters of the Send and Wait node (e.g. a Custom Form). */
	parameters: Record<string, unknown> = {},
): Promise<{ workflowId: string; executionId: string; link: string }> {
	const loop = Array.isArray(phones);
	const phone = loop ? phones[0] : phones;
	const credentials = (await rest(editor, url, 'GET', '/credentials')) as unknown as Array<{
		id: string;
		name: string;
	}>;
	const credential = credentials.find((entry) => entry.name === 'Peach sandbox');
	if (!credential) throw new Error('no "Peach sandbox" credential');
	const workflow = await rest(editor, url, 'POST', '/workflows', {
		name: `Approve a refund on WhatsApp (${loop ? phones.join(', ') : phone})`,
		nodes: [
			...(loop
				? [
						{
							id: randomUUID(),
							name: 'Managers',
							type: 'n8n-nodes-base.code',
							typeVersion: 2,
							position: [130, 0],
							parameters: {
								jsCode: `return ${JSON.stringify(phones.map((entry) => ({ json: { phone: entry } })))};`,
							},
						},
						{
							id: randomUUID(),
							name: 'Loop Over Items',
							type: 'n8n-nodes-base.splitInBatches',
							typeVersion: 3,
							position: [200, 0],
							parameters: { options: {} },
						},
					]
				: []),
			{
				id: randomUUID(),
				name: MANUAL,
				type: 'n8n-nodes-base.manualTrigger',
				typeVersion: 1,
				position: [0, 0],
				parameters: {},
			},
			{
				id: randomUUID(),
				name: 'Ask on WhatsApp',
				type: `${PACKAGE_NAME}.peach`,
				typeVersion: 1,
				position: [260, 0],
				parameters: {
					resource: 'templateMessage',
					operation: 'sendAndWait',
					phoneNumber: loop ? '={{ $json.phone }}' : phone,
					templateId: {
						__rl: true,
						mode: 'list',
						value: 'wat_approval',
						cachedResultName: 'approval_request',
					},
					message: 'Refund ₹1,200 for order A-7?',
					variablesInput: 'fields',
					approvalOptions: {
						values: {
							approvalType: 'double',
							approveLabel: 'Refund',
							disapproveLabel: "Don't refund",
						},
					},
					...parameters,
				},
				credentials: { peachMessagingApi: { id: credential.id, name: credential.name } },
			},
		],
		connections: loop
			? {
					[MANUAL]: { main: [[{ node: 'Managers', type: 'main', index: 0 }]] },
					Managers: { main: [[{ node: 'Loop Over Items', type: 'main', index: 0 }]] },
					'Loop Over Items': {
						main: [[], [{ node: 'Ask on WhatsApp', type: 'main', index: 0 }]],
					},
					'Ask on WhatsApp': { main: [[{ node: 'Loop Over Items', type: 'main', index: 0 }]] },
				}
			: { [MANUAL]: { main: [[{ node: 'Ask on WhatsApp', type: 'main', index: 0 }]] } },
		settings: { executionOrder: 'v1' },
	});
	const workflowId = String(workflow.id);
	await rest(editor, url, 'POST', `/workflows/${workflowId}/run`, {
		workflowData: workflow,
		triggerToStartFrom: { name: MANUAL },
	});
	const execution = await executionStatus(editor, url, workflowId, ['waiting']);
	return {
		workflowId,
		executionId: String(execution.id),
		link: await linkSentTo(sandboxUrl, phone),
	};
}

/** The link of the newest message the sandbox's phone shows `phone`, once there is one (30 s). */
export async function linkSentTo(sandboxUrl: string, phone: string): Promise<string> {
	const deadline = Date.now() + 30_000;
	for (;;) {
		const messages = (await (
			await fetch(`${sandboxUrl}/__sandbox/phone?phone=${encodeURIComponent(phone)}`)
		).json()) as Array<{ links: string[] }>;
		const link = messages.at(-1)?.links[0];
		if (link) return link;
		if (Date.now() > deadline) throw new Error(`the sandbox's phone ${phone} received no link`);
		await new Promise((resolve) => setTimeout(resolve, 300));
	}
}

/** The newest execution of the workflow once its status is one of `statuses` (60 s at most). */
export async function executionStatus(
	editor: Editor,
	url: string,
	workflowId: string,
	statuses: string[],
): Promise<Record<string, unknown>> {
	const filter = encodeURIComponent(JSON.stringify({ workflowId }));
	const deadline = Date.now() + 60_000;
	for (;;) {
		const page = await rest(editor, url, 'GET', `/executions?filter=${filter}&limit=1`);
		const [execution] = (page.results ?? []) as Array<Record<string, unknown>>;
		if (execution && statuses.includes(String(execution.status))) return execution;
		if (Date.now() > deadline)
			throw new Error(
				`execution is ${String(execution?.status)}, expected ${statuses.join(' or ')}`,
			);
		await new Promise((resolve) => setTimeout(resolve, 500));
	}
}

/** A link opened as the contact's phone opens it: a phone-sized browser window of its own. */
export async function openOnPhone(editor: Editor, link: string): Promise<Page> {
	const phone = await editor.browser.newContext({
		viewport: { width: 390, height: 780 },
		deviceScaleFactor: 2,
		isMobile: true,
		hasTouch: true,
		userAgent:
			'Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Mobile Safari/537.36',
	});
	const page = await phone.newPage();
	await page.goto(link);
	return page;
}
