/**
 * npm run test:browser: what users do in the editor, in the real n8n editor in headless Chromium, against
 * `npm run dev`'s stack (n8n + the packed package + the sandbox): find Peach in the node panel by searching
 * "WhatsApp" (its entry says what the package does), add the node by searching "Peach", pick the action,
 * read where its Docs link goes, see the sandbox's approved templates in the Template list, pick one, see
 * its variables, run the node and see Peach's answer in the output and on the sandbox's phone page. This
 * proves the list searches and the node's UI where users use them, which the API-level suite cannot. Then a
 * Send and Wait link opened as a phone opens it: the question page, the tap on a button, the workflow going on.
 * Closes with "N passed, N failed".
 */
import { mkdirSync } from 'node:fs';
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
import { startDevStack } from './stack.mts';

const ARTIFACTS = join(REPO_ROOT, '.tmp/browser');

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

async function addPeachSend(page: Page) {
	await addAfterManualTrigger(page, 'Peach', 'Peach', 'Send a template message');
}

async function main() {
	mkdirSync(ARTIFACTS, { recursive: true });
	const stack = await startDevStack('.tmp/n8n-browser');
	let passed = 0;
	let failed = 0;
	const editor = await openEditor(stack.url);
	const { page } = editor;
	const step = async (name: string, fn: () => Promise<void>) => {
		try {
			await fn();
			passed++;
			log(`  ✓ ${name}`);
		} catch (error) {
			failed++;
			const shot = join(ARTIFACTS, `failed-${passed + failed}.png`);
			await page.screenshot({ path: shot }).catch(() => undefined);
			log(
				`  ✗ ${name}\n      ${(error as Error).message.split('\n')[0]}\n      screenshot: ${shot}`,
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
			'searching "Peach" in the node panel offers the node; "Send a template message" adds it',
			async () => {
				await addPeachSend(page);
				const resource = await page
					.locator('[data-test-id="parameter-input-resource"] input')
					.inputValue();
				const operation = await page
					.locator('[data-test-id="parameter-input-operation"] input')
					.inputValue();
				if (resource !== 'Template Message' || operation !== 'Send')
					throw new Error(`resource/operation shown as ${resource}/${operation}`);
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
		await step("the Template list shows the sandbox's approved templates only", async () => {
			await page
				.locator('[data-test-id="resource-locator-templateId"] [data-test-id="rlc-input"]')
				.first()
				.click();
			const items = page.locator('[data-test-id="rlc-item"]');
			await items.first().waitFor({ timeout: 30_000 });
			const names = (await items.allInnerTexts()).map((text) => text.trim()).sort();
			const expected = [
				'approval_request (en, approved)',
				'invoice_ready (en, approved)',
				'order_update (en, approved)',
				'spring_offer (en, approved)',
				'welcome (en, approved)',
			];
			if (JSON.stringify(names) !== JSON.stringify(expected))
				throw new Error(
					`list shows ${JSON.stringify(names)}, expected ${JSON.stringify(expected)}`,
				);
		});
		await step(
			'picking "welcome" shows its variable first_name, read from the template',
			async () => {
				await page.locator('[data-test-id="rlc-item"]').getByText('welcome (en, approved)').click();
				await page.getByText('first_name (e.g. Asha)').first().waitFor({ timeout: 30_000 });
			},
		);
		await step(
			"with a phone number and the variable filled, Execute step shows Peach's answer",
			async () => {
				await page
					.locator('[data-test-id="parameter-input-phoneNumber"] input')
					.first()
					.fill('+919988776655');
				const variable = page
					.locator(
						'[data-test-id="parameter-input-list-wrapper"], .resource-mapper, [data-test-id="mapping-fields-container"]',
					)
					.locator('input')
					.last();
				await page.getByText('first_name (e.g. Asha)').first().scrollIntoViewIfNeeded();
				await variable.fill('Asha');
				await page.locator('[data-test-id="node-execute-button"]').first().click();
				const output = page
					.locator('[data-test-id="ndv-output-panel"], [data-test-id="output-panel"]')
					.first();
				await output.getByText('event_id').first().waitFor({ timeout: 60_000 });
				await page.screenshot({ path: join(ARTIFACTS, 'executed-send.png') });
				const sends = (await stack.sandboxRequests()).filter(
					(request) => request.method === 'POST' && request.path === '/api/v1/events',
				);
				const last = sends.at(-1);
				const body = JSON.stringify(last?.body ?? {});
				if (
					!body.includes('+919988776655') ||
					!body.includes('"first_name":"Asha"') ||
					!body.includes('wat_welcome')
				)
					throw new Error(`the sandbox received ${body}`);
			},
		);
		await step(
			"the sandbox's phone page, with + typed as is, shows that message as the contact reads it",
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
	} catch {
		// reported by step()
	} finally {
		await editor.close();
		await stack.stop();
	}
	log(`${passed} passed, ${failed} failed`);
	process.exit(failed === 0 ? 0 : 1);
}

await main();
