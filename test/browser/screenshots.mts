/**
 * npm run screenshots: starts `npm run dev`'s stack, drives the real n8n editor in headless Chromium and
 * writes the README's pictures to docs/images/ (not in the npm package: `files` ships dist/ only) that the
 * browser suite does not (it makes those of the first five minutes and of Send and Wait's setup):
 *   broadcast-launch.png    the Broadcast → Launch panel
 *   trigger-panel.png       the Peach Trigger panel: its URLs, events and verification
 *   send-header-file.png    an executed send with Header Media From a Binary Field: the PDF in the header
 *   send-and-wait-page.png  the page a Send and Wait link opens on the contact's phone
 *   send-and-wait-waiting.png  the workflow waiting for that answer, in the editor
 *   send-and-wait-form.png  a Custom Form on the phone: an amount and a reason
 * No pixel assertions: it fails only when a step cannot be done (a changed selector says which one).
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';

import { log, REPO_ROOT } from '../e2e/n8n.mts';
import {
	openEditor,
	openNode,
	openOnPhone,
	openWorkflow,
	startApproval,
	workflowIdByName,
} from './editor.mts';
import { startDevStack } from './stack.mts';

const OUT = join(REPO_ROOT, 'docs/images');

async function main() {
	mkdirSync(OUT, { recursive: true });
	const stack = await startDevStack('.tmp/n8n-screenshots');
	const editor = await openEditor(stack.url, { width: 1440, height: 900 });
	const { page } = editor;
	const shot = async (name: string) => {
		await page.waitForTimeout(800); // let transitions finish
		await page.screenshot({ path: join(OUT, name) });
		log(`  wrote docs/images/${name}`);
	};
	const open = async (workflow: string, node: string) => {
		await openWorkflow(page, stack.url, await workflowIdByName(editor, stack.url, workflow));
		await openNode(page, node);
	};
	let status = 0;
	try {
		// The invoice example: HTTP Request downloads the PDF, one Peach node uploads and sends it.
		await open('Peach example: send an invoice PDF from a URL', 'Send the invoice');
		await page.getByText('Header Media').first().waitFor({ timeout: 30_000 });
		await page.locator('[data-test-id="node-execute-button"]').first().click();
		await page.locator('[data-test-id="radio-button-json"]').last().click({ timeout: 90_000 });
		await page.getByText('media_url').first().waitFor({ timeout: 90_000 });
		await shot('send-header-file.png');

		await open('Peach example: broadcast to a list', 'Launch one broadcast for all');
		await page.getByText('Contact Phone Number').first().waitFor({ timeout: 30_000 });
		await shot('broadcast-launch.png');

		await open('Peach example: react to failed deliveries', 'Peach Trigger');
		await page.getByText('Verification').first().waitFor({ timeout: 30_000 });
		await page.getByText('Webhook URLs', { exact: true }).first().click();
		await page.getByText('Production URL', { exact: true }).first().click();
		await page.getByText('/webhook/').first().waitFor({ timeout: 10_000 });
		await shot('trigger-panel.png');

		const { workflowId, executionId, link } = await startApproval(
			editor,
			stack.url,
			stack.sandboxUrl,
			'+919900000301',
		);
		const phone = await openOnPhone(editor, link);
		await phone.getByText('Refund ₹1,200 for order A-7?').waitFor({ timeout: 30_000 });
		await phone.waitForTimeout(500);
		await phone.screenshot({ path: join(OUT, 'send-and-wait-page.png') });
		log('  wrote docs/images/send-and-wait-page.png');
		await page.goto(`${stack.url}/workflow/${workflowId}/executions/${executionId}`);
		await page.getByText('Waiting', { exact: false }).first().waitFor({ timeout: 30_000 });
		await shot('send-and-wait-waiting.png');

		const form = await startApproval(editor, stack.url, stack.sandboxUrl, '+919900000302', {
			message: 'How much do we refund for order A-7?',
			responseType: 'customForm',
			formFields: {
				values: [
					{
						fieldLabel: 'Amount (₹)',
						fieldType: 'number',
						fieldName: 'amount',
						placeholder: 'e.g. 120.50',
						requiredField: true,
					},
					{
						fieldLabel: 'Reason',
						fieldType: 'dropdown',
						fieldName: 'reason',
						fieldOptions: { values: [{ option: 'Damaged' }, { option: 'Late' }] },
						requiredField: true,
					},
				],
			},
			options: { responseFormTitle: 'Refund', responseFormButtonLabel: 'Refund this amount' },
		});
		const formPage = await openOnPhone(editor, form.link);
		await formPage.getByLabel('Amount (₹) *').fill('120.50');
		await formPage.getByLabel('Reason *').selectOption('Damaged');
		await formPage.screenshot({ path: join(OUT, 'send-and-wait-form.png') });
		log('  wrote docs/images/send-and-wait-form.png');
	} catch (error) {
		status = 1;
		const failed = join(REPO_ROOT, '.tmp/screenshot-failed.png');
		await page.screenshot({ path: failed }).catch(() => undefined);
		log(
			`screenshots failed: ${(error as Error).message} at ${(error as Error).stack?.split('\n').find((line) => line.includes('screenshots.mts'))} (the page as it was: ${failed})`,
		);
	} finally {
		await editor.close();
		await stack.stop();
	}
	process.exit(status);
}

await main();
