/**
 * npm run test:browser: what users do in the editor, in the real n8n editor in headless Chromium at 1440 ×
 * 900, against `npm run dev`'s stack (n8n + the packed package + the sandbox). It walks README's first five
 * minutes step by step (each step named after README's): find Peach by "send template" and "send WhatsApp
 * message", meet Send a template message first among its actions, the credential chosen, the Template
 * list with each template's message, the variables read from the template, a Dry Run and a real send
 * whose outputs lead with to, message and outcome, the message on the sandbox's phone page. Then what
 * a user typed surviving a change of operation, Send and Wait set up from a template without a link
 * variable, and a Send and Wait link opened as a phone opens it. README's pictures of those steps are
 * written to docs/images/, the others to .tmp/browser/. Then README's Trigger section (trigger.mts): the
 * notice naming n8n's button, a refused test event shown with its reason, npm run dev registering a
 * published trigger, and a failed delivery reacted to from a new workflow, its steps counted. Closes with
 * "N passed, N failed".
 *
 * PEACH_BROWSER_ONLY=<text> runs only the steps whose names include it (several parts separated by
 * " | "), after the first, which opens the editor. A step that builds on an earlier one's editor (README
 * 3 to 5 on README 2's node) is run with it or fails alone. E.g. PEACH_BROWSER_ONLY='README Trigger'.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import type { Page } from 'playwright-core';

import { log, REPO_ROOT } from '../e2e/n8n.mts';
import {
	dismissPopups,
	executionStatus,
	linkSentTo,
	openEditor,
	openOnPhone,
	startApproval,
} from './editor.mts';
import { searchWords } from './search.mts';
import { startDevStack } from './stack.mts';
import { triggerSteps } from './trigger.mts';

const ARTIFACTS = join(REPO_ROOT, '.tmp/browser');
/** README's pictures of the first five minutes and of Send and Wait's setup. */
const README_IMAGES = join(REPO_ROOT, 'docs/images');

/** The node creator's search box, and one of its entries (a node or an action) by its name. */
const creatorSearch = (page: Page) => page.locator('input[data-test-id="node-creator-search-bar"]');
const creatorItem = (page: Page, name: string) =>
	page.locator('[data-test-id="node-creator-item-name"]').getByText(name, { exact: true }).first();

/** The names of the node creator's entries, in the order shown. */
async function creatorNames(page: Page): Promise<string[]> {
	return (await page.locator('[data-test-id="node-creator-item-name"]').allInnerTexts()).map(
		(name) => name.trim(),
	);
}

/** The output panel's table: its column headers, in order. */
async function outputColumns(page: Page): Promise<string[]> {
	const panel = page.locator('[data-test-id="output-panel"]').first();
	await panel.getByRole('radio', { name: 'Table' }).click();
	const headers = panel.locator('table thead th');
	await headers.first().waitFor({ timeout: 30_000 });
	return (await headers.allInnerTexts()).map((header) => header.trim()).filter(Boolean);
}

/** A parameter's dropdown (an options field) set to the option named `name` (its description aside). */
async function choose(page: Page, parameter: string, name: string) {
	const field = page.locator(`[data-test-id="parameter-input-${parameter}"]`).first();
	await field.scrollIntoViewIfNeeded();
	await field.locator('input').first().click();
	await page
		.getByRole('option')
		.filter({ has: page.getByText(name, { exact: true }) })
		.first()
		.click();
}

/** The value typed in the first field of the template's variables list. */
async function firstVariableValue(page: Page): Promise<string> {
	const field = page.locator('[data-test-id="mapping-fields-container"] input').first();
	await field.waitFor({ timeout: 30_000 });
	return await field.inputValue();
}

/** A manual trigger, then the node found by `query` in the node creator (and its `action`, if given). */
async function addAfterManualTrigger(page: Page, query: string, node: string, action?: string) {
	const search = page.locator('input[data-test-id="node-creator-search-bar"]');
	const item = (name: string) =>
		page
			.locator('[data-test-id="node-creator-item-name"]')
			.getByText(name, { exact: true })
			.first();
	await page.locator('[data-test-id="canvas-add-button"]').first().click();
	await search.fill('manual');
	await item('Trigger manually').click();
	await page.locator('[data-test-id="canvas-handle-plus"]').first().click();
	await search.fill(query);
	await item(node).click();
	if (action) await item(action).click();
	await page.locator('[data-test-id="ndv"]').first().waitFor();
}

async function main() {
	mkdirSync(ARTIFACTS, { recursive: true });
	const stack = await startDevStack('.tmp/n8n-browser');
	let passed = 0;
	let failed = 0;
	const editor = await openEditor(stack.url);
	const { page } = editor;
	const only = process.env.PEACH_BROWSER_ONLY?.split(' | ');
	let skipped = 0;
	// README's first five minutes, timed from its first step in the editor to the message on the phone.
	let walkBegan: number | undefined;
	const step = async (name: string, fn: () => Promise<void>) => {
		if (only && passed + failed > 0 && !only.some((part) => name.includes(part))) {
			skipped++;
			return;
		}
		const began = Date.now();
		if (name.startsWith('README 2') && walkBegan === undefined) walkBegan = began;
		try {
			await fn();
			passed++;
			log(`  ✓ ${name} (${Date.now() - began} ms)`);
			if (name.startsWith('README 5: the sandbox') && walkBegan !== undefined)
				log(
					`      README's first five minutes, nodes panel to the message on the phone: ${Math.round((Date.now() - walkBegan) / 1000)} s in the browser`,
				);
		} catch (error) {
			failed++;
			const shot = join(ARTIFACTS, `failed-${passed + failed}.png`);
			await page.screenshot({ path: shot }).catch(() => undefined);
			log(
				`  ✗ ${name}\n      ${(error as Error).message.split('\n').slice(0, 4).join(' ')}\n      screenshot: ${shot}`,
			);
			throw error;
		}
	};
	try {
		await step('a new workflow opens in the editor', async () => {
			await page.goto(`${stack.url}/workflow/new`);
			await page.locator('[data-test-id="canvas-add-button"]').first().waitFor({ timeout: 60_000 });
			await dismissPopups(page);
		});
		await step(
			'searching "WhatsApp" in the node panel finds Peach, its entry saying what the package does',
			async () => {
				await page.locator('[data-test-id="canvas-add-button"]').first().click();
				await page.locator('input[data-test-id="node-creator-search-bar"]').fill('WhatsApp');
				await page
					.locator('[data-test-id="node-creator-item-name"]')
					.getByText('Peach', { exact: true })
					.first()
					.waitFor({ timeout: 15_000 });
				// n8n shows Peach and Peach Trigger as one entry, with the trigger's description.
				await page
					.locator('[data-test-id="node-creator-item-description"]')
					.getByText(
						'Send WhatsApp templates and messages with Peach, ask for approvals, manage contacts, orders and broadcasts, and start workflows from its webhooks',
						{ exact: true },
					)
					.waitFor({ timeout: 5_000 });
				await page.screenshot({ path: join(ARTIFACTS, 'nodes-panel-whatsapp.png') });
				await page.keyboard.press('Escape');
			},
		);
		await step(
			'the words people type find the Peach action they mean: send and wait, approval, ask for approval, human in the loop, whatsapp approval, refund, order, broadcast',
			async () => {
				const results = await searchWords(page, stack.url);
				writeFileSync(
					join(ARTIFACTS, 'search-ranks.json'),
					`${JSON.stringify(results, null, 2)}\n`,
				);
				for (const { word, rank, actionAt, actionSearchAt, found } of results)
					log(
						`      "${word}": Peach ${rank === null ? 'not found' : `#${rank}`} of ${found.length}${found.length === 10 ? '+' : ''} (${found.slice(0, 6).join(', ')}); action ${actionAt === null ? 'not listed' : `#${actionAt}`}; typed among the actions: ${actionSearchAt === null ? 'not found' : `#${actionSearchAt}`}`,
					);
				const missing = results.filter(
					(result) => result.rank === null || result.actionAt === null,
				);
				if (missing.length)
					throw new Error(`not found: ${missing.map((result) => result.word).join(', ')}`);
			},
		);
		await step(
			'README 2: "send template" and "send WhatsApp message" in the nodes panel find Peach',
			async () => {
				await page.keyboard.press('Escape');
				await page.goto(`${stack.url}/workflow/new`);
				await page
					.locator('[data-test-id="canvas-add-button"]')
					.first()
					.waitFor({ timeout: 60_000 });
				await dismissPopups(page);
				await page.locator('[data-test-id="canvas-add-button"]').first().click();
				await creatorSearch(page).fill('manual');
				await creatorItem(page, 'Trigger manually').click();
				await page.locator('[data-test-id="canvas-handle-plus"]').first().click();
				for (const words of ['send WhatsApp message', 'send template']) {
					await creatorSearch(page).fill(words);
					await creatorItem(page, 'Peach').waitFor({ timeout: 15_000 });
				}
				await page.waitForTimeout(500);
				await page.screenshot({ path: join(README_IMAGES, 'nodes-panel-send-template.png') });
			},
		);
		await step(
			"README 2: clicking Peach lists its actions, Send a template message first; it opens on Template Message → Send with the sandbox's credential",
			async () => {
				await creatorItem(page, 'Peach').click();
				const first = creatorItem(page, 'Send a template message');
				await first.waitFor({ timeout: 15_000 });
				// The panel shows the node's entry (Peach) above its actions.
				const actions = (await creatorNames(page)).filter((name) => name !== 'Peach');
				if (
					actions[0] !== 'Send a template message' ||
					actions[1] !== 'Send a template message and wait for approval or an answer'
				)
					throw new Error(`the actions listed first: ${actions.slice(0, 4).join(' | ')}`);
				await page.waitForTimeout(500);
				await page.screenshot({ path: join(README_IMAGES, 'actions-send-first.png') });
				await first.click();
				await page.locator('[data-test-id="ndv"]').first().waitFor();
				const resource = await page
					.locator('[data-test-id="parameter-input-resource"] input')
					.inputValue();
				const operation = await page
					.locator('[data-test-id="parameter-input-operation"] input')
					.inputValue();
				if (resource !== 'Template Message' || operation !== 'Send')
					throw new Error(`resource/operation shown as ${resource}/${operation}`);
				const credential = await page
					.locator('[data-test-id="node-credentials-select"] input')
					.first()
					.inputValue();
				if (credential !== 'Peach sandbox') throw new Error(`the credential is "${credential}"`);
			},
		);
		await step(
			"the node's Docs link opens README's Operations section (its anchor last)",
			async () => {
				const link = page
					.locator('[data-test-id="ndv"] a[href*="github.com/n8n-nodes-peach"]')
					.first();
				const href = await link.getAttribute('href', { timeout: 15_000 });
				if (href !== 'https://github.com/n8n-nodes-peach/n8n-nodes-peach#operations')
					throw new Error(`the Docs link is ${String(href)}`);
			},
		);
		await step(
			"README 3: the Template list shows the sandbox's approved templates only, each with its message",
			async () => {
				await page
					.locator('[data-test-id="parameter-input-phoneNumber"] input')
					.first()
					.fill('+919988776655');
				await page
					.locator('[data-test-id="resource-locator-templateId"] [data-test-id="rlc-input"]')
					.first()
					.click();
				const items = page.locator('[data-test-id="rlc-item"]');
				await items.first().waitFor({ timeout: 30_000 });
				const names = (await items.allInnerTexts()).map((text) => text.trim()).sort();
				const expected = [
					'approval_request (en, approved) · Approval needed: {{message}} Please answer here: {{approval_link}} Thank you.',
					'invoice_ready (en, approved) · Hi {{first_name}}, your invoice {{invoice_number}} is attached.',
					'order_update (en, approved) · Order {{order_id}} is on its way.',
					'spring_offer (en, approved) · Our spring offer is here, {{first_name}}.',
					'welcome (en, approved) · Hi {{first_name}}, welcome!',
				];
				if (JSON.stringify(names) !== JSON.stringify(expected))
					throw new Error(
						`list shows ${JSON.stringify(names)}, expected ${JSON.stringify(expected)}`,
					);
				await page.waitForTimeout(500);
				await page.screenshot({ path: join(README_IMAGES, 'template-list.png') });
			},
		);
		await step(
			'README 3: picking "welcome" shows its variable first_name with Peach\'s example, read from the template',
			async () => {
				await page.locator('[data-test-id="rlc-item"]').getByText('welcome (en, approved)').click();
				await page.getByText('first_name (e.g. Asha)').first().waitFor({ timeout: 30_000 });
				const variable = page.locator('[data-test-id="mapping-fields-container"] input').first();
				await page.getByText('first_name (e.g. Asha)').first().scrollIntoViewIfNeeded();
				await variable.fill('Asha');
				await page.waitForTimeout(800);
				await page.screenshot({ path: join(README_IMAGES, 'send-panel.png') });
			},
		);
		await step(
			'README 4: the Dry Run switch (in sight, no Add Option), Execute step: the output leads with to, message and outcome (not sent: Dry Run), the notice above it, the request beneath; nothing sent',
			async () => {
				const before = (await stack.sandboxRequests()).length;
				// Dry Run is a switch of its own, shown off, above Request Options.
				await page.keyboard.press('Tab');
				const dryRun = page.locator('[data-test-id="parameter-input-dryRun"] .el-switch').first();
				await dryRun.scrollIntoViewIfNeeded();
				await dryRun.click();
				await page.locator('[data-test-id="node-execute-button"]').first().click();
				const output = page.locator('[data-test-id="output-panel"]').first();
				await output.getByText('not sent: Dry Run').first().waitFor({ timeout: 60_000 });
				const columns = await outputColumns(page);
				if (JSON.stringify(columns.slice(0, 3)) !== JSON.stringify(['to', 'message', 'outcome']))
					throw new Error(`the output's columns are ${columns.join(', ')}`);
				await output.getByText('Hi Asha, welcome!').first().waitFor({ timeout: 5_000 });
				// README says where n8n shows the node's notice: above the output's data.
				const notice = output.getByText('Turn off Dry Run to send.').first();
				await notice.waitFor({ timeout: 5_000 });
				const noticeBox = await notice.boundingBox();
				const dataBox = await output.getByText('Hi Asha, welcome!').first().boundingBox();
				if (!noticeBox || !dataBox || noticeBox.y >= dataBox.y)
					throw new Error(
						`the Dry Run notice is not above the output (${JSON.stringify({ noticeBox, dataBox })})`,
					);
				await page.waitForTimeout(500);
				await page.screenshot({ path: join(README_IMAGES, 'dry-run-output.png') });
				const sends = (await stack.sandboxRequests())
					.slice(before)
					.filter((request) => request.method === 'POST');
				if (sends.length) throw new Error(`the Dry Run sent ${JSON.stringify(sends)}`);
			},
		);
		await step(
			"README 5: Dry Run off, Execute step: the message is sent; the output leads with to, message, outcome queued and Peach's ID",
			async () => {
				await page.locator('[data-test-id="parameter-input-dryRun"] .el-switch').first().click();
				await page.locator('[data-test-id="node-execute-button"]').first().click();
				const output = page.locator('[data-test-id="output-panel"]').first();
				await output.getByText('queued', { exact: true }).first().waitFor({ timeout: 60_000 });
				const columns = await outputColumns(page);
				if (
					JSON.stringify(columns.slice(0, 4)) !==
					JSON.stringify(['to', 'message', 'outcome', 'peachId'])
				)
					throw new Error(`the output's columns are ${columns.join(', ')}`);
				await page.waitForTimeout(500);
				await page.screenshot({ path: join(README_IMAGES, 'send-output.png') });
				const sends = (await stack.sandboxRequests()).filter(
					(request) => request.method === 'POST' && request.path === '/api/v1/events',
				);
				const body = JSON.stringify(sends.at(-1)?.body ?? {});
				if (
					!body.includes('+919988776655') ||
					!body.includes('"first_name":"Asha"') ||
					!body.includes('wat_welcome')
				)
					throw new Error(`the sandbox received ${body}`);
			},
		);
		await step(
			"README 5: the sandbox's phone page, with + typed as is, shows that message as the contact reads it",
			async () => {
				const phone = await openOnPhone(
					editor,
					`${stack.sandboxUrl}/__sandbox/phone?phone=+919988776655`,
				);
				await phone.getByRole('heading', { name: '+919988776655' }).waitFor({ timeout: 15_000 });
				await phone.getByText('Hi Asha, welcome!').first().waitFor({ timeout: 5_000 });
				await phone.screenshot({ path: join(ARTIFACTS, 'sandbox-phone-page.png') });
				await phone.close();
			},
		);
		await step(
			'what a user typed survives: Send → Send and Wait → Send, and a Message Variable chosen in between, keep first_name = Asha',
			async () => {
				if ((await firstVariableValue(page)) !== 'Asha') throw new Error('Asha is not typed');
				await choose(page, 'operation', 'Send and Wait for Response');
				await page
					.locator('[data-test-id="parameter-input-messageVariable"]')
					.first()
					.waitFor({ timeout: 15_000 });
				await choose(page, 'messageVariable', 'None');
				await choose(page, 'operation', 'Send');
				await page.getByText('first_name (e.g. Asha)').first().waitFor({ timeout: 30_000 });
				const value = await firstVariableValue(page);
				if (value !== 'Asha') throw new Error(`first_name is now "${value}"`);
			},
		);
		await step(
			'Send and Wait set up from a template without a link variable: the list says so at once and names approval_request; picking it offers approval_link to carry the link',
			async () => {
				await choose(page, 'operation', 'Send and Wait for Response');
				const pick = async (name: string) => {
					await page
						.locator('[data-test-id="resource-locator-templateId"] [data-test-id="rlc-input"]')
						.first()
						.click();
					await page.locator('[data-test-id="rlc-item"]').getByText(name).first().click();
				};
				await pick('approval_request (en, approved)');
				await pick('welcome (en, approved)');
				const notice = page.getByText(
					'Template welcome has no {{approval_link}} in its text for the answer link, so Send and Wait cannot use it. Pick approval_request, or choose the Link Variable that should carry the link.',
				);
				await notice.first().waitFor({ timeout: 30_000 });
				await notice.first().scrollIntoViewIfNeeded();
				await page.waitForTimeout(500);
				await page.screenshot({ path: join(README_IMAGES, 'send-and-wait-setup.png') });
				await pick('approval_request (en, approved)');
				// The lists read the new template: its approval_link (in the body) carries the link.
				const shown = () =>
					page.locator('[data-test-id="parameter-input-linkVariable"] input').first().inputValue();
				const deadline = Date.now() + 15_000;
				while ((await shown()) !== 'approval_link (body)') {
					if (Date.now() > deadline) throw new Error(`Link Variable shows ${await shown()}`);
					await page.waitForTimeout(300);
				}
				// Other Template Variables no longer says "Pick a template first": the node fills the rest.
				await page
					.getByText('Template approval_request has no other variables', { exact: false })
					.first()
					.waitFor({ timeout: 30_000 });
				if ((await page.getByText('Pick a template first').count()) !== 0)
					throw new Error('Other Template Variables still says "Pick a template first"');
			},
		);
		await step(
			'a Send and Wait link opens on a phone as a page with who is asked and the question; tapping Refund resumes the workflow, whose loop asks the next manager; the first link opened again shows the question is closed and resumes nothing',
			async () => {
				const [first, second] = ['+919900000201', '+919900000202'];
				const { workflowId, link } = await startApproval(editor, stack.url, stack.sandboxUrl, [
					first,
					second,
				]);
				const phone = await openOnPhone(editor, link);
				await phone.getByText('Refund ₹1,200 for order A-7?').waitFor({ timeout: 30_000 });
				await phone.getByText(`Asked of ${first}`).waitFor({ timeout: 5_000 });
				await phone.screenshot({ path: join(ARTIFACTS, 'send-and-wait-page.png') });
				await executionStatus(editor, stack.url, workflowId, ['waiting']);
				await phone.getByRole('button', { name: 'Refund', exact: true }).tap();
				await phone.getByText('Recorded: approved (Refund)').waitFor({ timeout: 30_000 });
				const next = await linkSentTo(stack.sandboxUrl, second);
				await executionStatus(editor, stack.url, workflowId, ['waiting']);
				const stale = await openOnPhone(editor, link);
				await stale.getByText('This question is closed').waitFor({ timeout: 30_000 });
				await stale.getByText('Nothing was recorded.').waitFor({ timeout: 5_000 });
				if ((await stale.getByRole('button').count()) !== 0)
					throw new Error('the closed question still offers buttons');
				await stale.screenshot({ path: join(ARTIFACTS, 'send-and-wait-closed.png') });
				await executionStatus(editor, stack.url, workflowId, ['waiting']);
				const secondPhone = await openOnPhone(editor, next);
				await secondPhone.getByText(`Asked of ${second}`).waitFor({ timeout: 30_000 });
				await secondPhone.getByRole('button', { name: 'Refund', exact: true }).tap();
				await secondPhone.getByText('Recorded: approved (Refund)').waitFor({ timeout: 30_000 });
				const done = await executionStatus(editor, stack.url, workflowId, ['success', 'error']);
				if (done.status !== 'success')
					throw new Error(`the execution ended ${String(done.status)}`);
			},
		);
		await step(
			'a Custom Form opens at phone size; the amount typed and the reason chosen resume the workflow with them',
			async () => {
				const { workflowId, link } = await startApproval(
					editor,
					stack.url,
					stack.sandboxUrl,
					'+919900000203',
					{
						responseType: 'customForm',
						formFields: {
							values: [
								{
									fieldLabel: 'Amount (₹)',
									fieldType: 'number',
									fieldName: 'amount',
									requiredField: true,
								},
								{
									fieldLabel: 'Reason',
									fieldType: 'dropdown',
									fieldOptions: { values: [{ option: 'Damaged' }, { option: 'Late' }] },
									requiredField: true,
								},
							],
						},
						options: { responseFormButtonLabel: 'Refund this amount' },
					},
				);
				const phone = await openOnPhone(editor, link);
				await phone.getByLabel('Amount (₹) *').fill('120.50');
				await phone.getByLabel('Reason *').selectOption('Damaged');
				await phone.screenshot({ path: join(ARTIFACTS, 'send-and-wait-form.png') });
				await phone.getByRole('button', { name: 'Refund this amount' }).tap();
				await phone.getByText('Your answers were recorded').waitFor({ timeout: 30_000 });
				await phone.getByText('Amount (₹): 120.5').waitFor({ timeout: 5_000 });
				const done = await executionStatus(editor, stack.url, workflowId, ['success', 'error']);
				if (done.status !== 'success')
					throw new Error(`the execution ended ${String(done.status)}`);
			},
		);
		await step(
			'the HTTP Request node offers the Peach API credential under Predefined Credential Type (a custom API call)',
			async () => {
				await page.goto(`${stack.url}/workflow/new`);
				await page
					.locator('[data-test-id="canvas-add-button"]')
					.first()
					.waitFor({ timeout: 60_000 });
				await dismissPopups(page);
				await addAfterManualTrigger(page, 'HTTP Request', 'HTTP Request');
				await page.locator('[data-test-id="parameter-input-authentication"]').first().click();
				await page.getByRole('option', { name: 'Predefined Credential Type' }).first().click();
				const type = page
					.locator('[data-test-id="parameter-input-nodeCredentialType"] input')
					.first();
				await type.click();
				await type.fill('Peach');
				await page.getByRole('option', { name: 'Peach API' }).first().waitFor({ timeout: 15_000 });
				await page.screenshot({ path: join(ARTIFACTS, 'http-request-peach-credential.png') });
			},
		);
		await triggerSteps(editor, stack, step, README_IMAGES);
	} catch {
		// reported by step()
	} finally {
		await editor.close();
		await stack.stop();
	}
	log(
		`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped (PEACH_BROWSER_ONLY)` : ''}`,
	);
	process.exit(failed === 0 ? 0 : 1);
}

await main();
