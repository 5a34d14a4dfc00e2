/**
 * README's Trigger section in the editor: a Peach Trigger made with `npm run dev`'s "Peach webhook
 * secret" credential says how to try it in the words of n8n 2.40's own button; listening for a test
 * event, a delivery without the token shows its reason and fix on the Refused output (never the
 * secret); published, `npm run dev` registers it with the sandbox, whose webhook starts it.
 */
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';

import { log, N8nClient, nodeOutput, PACKAGE_NAME } from '../e2e/n8n.mts';
import { dismissPopups, type Editor, openNode, openWorkflow } from './editor.mts';
import type { DevStack } from './stack.mts';

type Step = (name: string, fn: () => Promise<void>) => Promise<void>;

/** `npm run dev`'s secret of the "Peach webhook secret" credential (PEACH_DEV_WEBHOOK_SECRET). */
const DEV_SECRET = process.env.PEACH_DEV_WEBHOOK_SECRET ?? 'peach-dev-webhook-secret';

const SAMPLE = {
	type: 'message_delivery.failed',
	data: {
		message: { id: 'cmsg_browser_1', status: 'failed', type: 'template_message' },
		contact: { phone_number: '+919988776655' },
	},
};

async function eventually<T>(what: string, read: () => Promise<T | undefined>, ms = 30_000) {
	for (const deadline = Date.now() + ms; ; ) {
		const value = await read();
		if (value !== undefined) return value;
		if (Date.now() > deadline) throw new Error(`${what}: not within ${ms / 1000} s`);
		await new Promise((resolve) => setTimeout(resolve, 500));
	}
}

/**
 * README's first five minutes, "React to what happens": from a new workflow to a started execution
 * on a failed delivery, as a person does it; returns the steps taken, each named.
 */
async function reactToAFailedDelivery(editor: Editor, stack: DevStack, client: N8nClient) {
	const { page } = editor;
	const steps: string[] = [];
	await page.goto(`${stack.url}/workflow/new`);
	await page.locator('[data-test-id="canvas-add-button"]').first().waitFor({ timeout: 60_000 });
	await dismissPopups(page);
	const item = (name: string | RegExp) =>
		page.locator('[data-test-id="node-creator-item-name"]').getByText(name).first();
	await page.locator('[data-test-id="canvas-add-button"]').first().click();
	steps.push('click + (Add first step)');
	await page.locator('input[data-test-id="node-creator-search-bar"]').fill('Peach');
	steps.push('type "Peach"');
	await item(/^Peach$/).click();
	steps.push('click Peach');
	const event = item(/^On message delivery:? failed$/i);
	await event.waitFor({ timeout: 15_000 });
	steps.push(`click "${(await event.innerText()).trim()}"`);
	await event.click();
	const ndv = page.locator('[data-test-id="ndv"]').first();
	await ndv.waitFor({ timeout: 15_000 });
	await ndv.getByText('Message Delivery: Failed').first().waitFor({ timeout: 10_000 });
	await ndv.getByText('Peach webhook secret').first().waitFor({ timeout: 10_000 });
	await page.keyboard.press('Escape');
	steps.push('close the node (Escape)');
	await page
		.getByRole('button', { name: /^Publish$/ })
		.first()
		.click();
	steps.push('click Publish');
	const confirm = page.getByRole('dialog').getByRole('button', { name: /^Publish$/ });
	if (
		await confirm
			.first()
			.isVisible({ timeout: 3_000 })
			.catch(() => false)
	) {
		await confirm.first().click();
		steps.push('confirm Publish');
	}
	await page.waitForURL(/\/workflow\/[A-Za-z0-9]+/, { timeout: 15_000 });
	const workflowId = /\/workflow\/([A-Za-z0-9]+)/.exec(page.url())?.[1] ?? '';
	const workflow = await client.api('GET', `/workflows/${workflowId}`);
	const node = (workflow.nodes as Array<{ type: string; webhookId?: string }>).find((entry) =>
		entry.type.endsWith('.peachTrigger'),
	);
	const url = `${stack.url}/webhook/${String(node?.webhookId)}/webhook?token=${DEV_SECRET}`;
	await eventually('npm run dev registers the new trigger', async () => {
		const listed = (await (await fetch(`${stack.sandboxUrl}/__sandbox/webhooks`)).json()) as {
			targets: Array<{ url: string }>;
		};
		return listed.targets.some((target) => target.url === url) ? true : undefined;
	});
	// The line README quotes, with the token and the curl to run.
	await eventually('npm run dev prints the registration', async () =>
		stack
			.output()
			.includes(
				`is published: the sandbox posts its webhooks to ${url}. Fire one now: curl -X POST ${stack.sandboxUrl}/__sandbox/emit`,
			)
			? true
			: undefined,
	);
	await fetch(`${stack.sandboxUrl}/__sandbox/emit`, {
		method: 'POST',
		headers: { 'Content-Type': 'application/json' },
		body: JSON.stringify({ type: 'message_delivery.failed' }),
	});
	steps.push('run the printed curl (POST /__sandbox/emit {"type": "message_delivery.failed"})');
	const [execution] = await client.waitForExecutions(workflowId, 1, 30_000);
	const started = nodeOutput(execution, 'Peach Trigger')[0]?.event;
	if (started !== 'message_delivery.failed')
		throw new Error(`the execution started on ${String(started)}, not the failed delivery`);
	await client.deactivate(workflowId);
	return steps;
}

export async function triggerSteps(
	editor: Editor,
	stack: DevStack,
	step: Step,
	images: string,
): Promise<void> {
	const { page } = editor;
	const client = new N8nClient(stack.url);
	const webhookId = randomUUID();
	let workflowId = '';
	let buttonText = '';
	await step(
		"README Trigger: the Peach Trigger's notice names n8n 2.40's button by its text and the ?token= Peach needs",
		async () => {
			await client.setupOwner();
			const credentials = (await client.api('GET', '/credentials?limit=100')).data as Array<{
				id: string;
				name: string;
			}>;
			const secret = credentials.find((entry) => entry.name === 'Peach webhook secret');
			if (!secret) throw new Error('no "Peach webhook secret" credential');
			workflowId = await client.createWorkflow({
				name: `Alert on failed deliveries ${webhookId.slice(0, 6)}`,
				nodes: [
					{
						id: randomUUID(),
						name: 'Peach Trigger',
						type: `${PACKAGE_NAME}.peachTrigger`,
						typeVersion: 1,
						position: [0, 0],
						webhookId,
						parameters: { events: ['message_delivery.failed'], options: {} },
						credentials: { peachWebhookApi: { id: secret.id, name: secret.name } },
					},
				],
				connections: {},
			});
			await openWorkflow(page, stack.url, workflowId);
			await openNode(page, 'Peach Trigger');
			const button = page.locator('[data-test-id="node-execute-button"]').first();
			await button.waitFor({ timeout: 15_000 });
			buttonText = (await button.innerText()).trim();
			const notice = page.getByText('Peach calls the URL with the secret', { exact: false });
			const said = await notice.first().innerText();
			if (!said.includes(`'${buttonText}'`))
				throw new Error(`the notice does not name the button "${buttonText}": ${said}`);
			if (!said.includes('?token=')) throw new Error(`the notice does not say ?token=: ${said}`);
		},
	);
	await step(
		'README Trigger: listening for a test event, a delivery without the token shows its reason and fix on the Refused output, never the secret',
		async () => {
			await page.locator('[data-test-id="node-execute-button"]').first().click();
			await page.locator('[data-test-id="trigger-listening"]').first().waitFor({ timeout: 30_000 });
			const answer = await fetch(`${stack.url}/webhook-test/${webhookId}/webhook`, {
				method: 'POST',
				headers: { 'Content-Type': 'application/json' },
				body: JSON.stringify(SAMPLE),
			});
			if (answer.status !== 401) throw new Error(`the Test URL answered ${answer.status}, not 401`);
			const output = page.locator('[data-test-id="output-panel"]').first();
			const refusedTab = output.getByText(/^Refused/).first();
			await refusedTab.waitFor({ timeout: 30_000 });
			await refusedTab.click();
			await output.getByText('missingSecret').first().waitFor({ timeout: 15_000 });
			await output.getByText('The URL has no token').first().waitFor({ timeout: 5_000 });
			const shown = await output.innerText();
			if (shown.includes(DEV_SECRET)) throw new Error('the output shows the secret');
			if (!shown.includes('?token=<that secret>'))
				throw new Error(`the fix does not show the URL with ?token=: ${shown.slice(0, 400)}`);
			await page.screenshot({ path: join(images, 'trigger-refused-test-event.png') });
			await page.keyboard.press('Escape');
		},
	);
	await step(
		'README Trigger: published, npm run dev registers it with the sandbox, with its token, and the sandbox starts it',
		async () => {
			await client.activate(workflowId);
			const url = `${stack.url}/webhook/${webhookId}/webhook?token=${DEV_SECRET}`;
			await eventually('the sandbox lists the trigger', async () => {
				const listed = (await (await fetch(`${stack.sandboxUrl}/__sandbox/webhooks`)).json()) as {
					targets: Array<{ url: string }>;
				};
				return listed.targets.some((target) => target.url === url) ? true : undefined;
			});
			await fetch(`${stack.sandboxUrl}/__sandbox/emit`, {
				method: 'POST',
				headers: { 'Content-Type': 'application/json' },
				body: JSON.stringify({ type: 'message_delivery.failed' }),
			});
			await client.waitForExecutions(workflowId, 1, 30_000);
			await client.deactivate(workflowId);
		},
	);
	await step(
		'README Trigger: from "I want to react to a failed delivery" to the workflow started, following README',
		async () => {
			const steps = await reactToAFailedDelivery(editor, stack, client);
			log(`      ${steps.length} steps: ${steps.join('; ')}`);
		},
	);
}
