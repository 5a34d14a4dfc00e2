/**
 * README's Trigger section in the editor: a Peach Trigger made with `npm run dev`'s "Peach webhook
 * secret" credential says how to try it in the words of n8n 2.40's own button; listening for a test
 * event, a delivery without the token shows its reason and fix on the Refused output (never the
 * secret); published, `npm run dev` registers it with the sandbox, whose webhook starts it.
 */
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';

import { N8nClient, PACKAGE_NAME } from '../e2e/n8n.mts';
import { type Editor, openNode, openWorkflow } from './editor.mts';
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
}
