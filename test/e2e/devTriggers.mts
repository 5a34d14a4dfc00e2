/**
 * `npm run dev`'s Peach Triggers: every few seconds, each published workflow's Peach Trigger is
 * registered with the sandbox (its Production URL with the token, or the header, of the dev secret
 * credential), so the sandbox's webhooks reach it at once; one unpublished or using another secret
 * gets a ready curl printed instead. A trigger unpublished or removed is unregistered.
 */
import type { Sandbox } from '../sandbox/server.mts';
import { type Json, log, type N8nClient, PACKAGE_NAME } from './n8n.mts';

type Target = Sandbox['targets'][number];

interface TriggerNode {
	key: string;
	workflow: string;
	active: boolean;
	webhookId: string;
	verification: string;
	headerName: string;
	credential?: { id: string; name: string };
}

/** A failed delivery as Peach posts it: the sample a printed curl sends. */
const SAMPLE = JSON.stringify({
	type: 'message_delivery.failed',
	data: {
		message: {
			id: 'cmsg_try_1',
			status: 'failed',
			type: 'template_message',
			reason: 'Undeliverable',
		},
		contact: { phone_number: '+919988776655', name: 'Asha Rao' },
	},
});

/** The Peach Trigger nodes of every workflow, as published (n8n 2.x: the active version) or saved. */
async function triggerNodes(client: N8nClient): Promise<TriggerNode[]> {
	const listed = await client.api('GET', '/workflows?limit=250');
	const found: TriggerNode[] = [];
	for (const workflow of (listed.data as Json[]) ?? []) {
		const active = workflow.active === true;
		const version = workflow.activeVersion as Json | undefined;
		const nodes = ((active && version?.nodes) || workflow.nodes) as Json[];
		for (const node of nodes ?? []) {
			if (node.type !== `${PACKAGE_NAME}.peachTrigger` || node.disabled === true) continue;
			const parameters = (node.parameters as Json) ?? {};
			const credential = (node.credentials as Json | undefined)?.peachWebhookApi as
				| { id: string; name: string }
				| undefined;
			found.push({
				key: `${String(workflow.id)}:${String(node.id ?? node.name)}`,
				workflow: String(workflow.name),
				active,
				webhookId: String(node.webhookId),
				verification: String(parameters.verification ?? 'queryToken'),
				headerName: String(parameters.headerName ?? 'X-Peach-Token'),
				credential,
			});
		}
	}
	return found;
}

/** The URL and headers the trigger needs, when its secret is the dev one (or it wants none). */
function targetOf(
	node: TriggerNode,
	base: string,
	dev: { credentialId: string; secret: string },
): Target | undefined {
	if (node.verification === 'none') return { url: base, headers: {} };
	if (node.credential?.id !== dev.credentialId) return undefined;
	return node.verification === 'header'
		? { url: base, headers: { [node.headerName]: dev.secret } }
		: { url: `${base}?token=${encodeURIComponent(dev.secret)}`, headers: {} };
}

/** A curl that posts the sample to `url` as Peach would, with the token or header it needs. */
function curlFor(node: TriggerNode, url: string, dev: { credentialId: string; secret: string }) {
	const known = node.credential?.id === dev.credentialId;
	const secret = known
		? dev.secret
		: `<the secret of credential "${node.credential?.name ?? '…'}">`;
	const header = node.verification === 'header' ? ` -H '${node.headerName}: ${secret}'` : '';
	const query = node.verification === 'queryToken' ? `?token=${secret}` : '';
	return `curl -X POST '${url}${query}'${header} -H 'Content-Type: application/json' -d '${SAMPLE}'`;
}

/**
 * Registers every published Peach Trigger with the sandbox now, then every `everyMs`; prints what it
 * did once per trigger and change. Returns a function that stops it.
 */
export function registerPeachTriggers(
	client: N8nClient,
	sandbox: Sandbox,
	dev: { credentialId: string; secret: string },
	everyMs = 5000,
): { synced: Promise<void>; stop: () => void } {
	const registered = new Map<string, Target>();
	const told = new Map<string, string>();
	const tell = (key: string, line: string) => {
		if (told.get(key) !== line) log(line);
		told.set(key, line);
	};
	const sync = async () => {
		const nodes = await triggerNodes(client);
		const seen = new Set<string>();
		for (const node of nodes) {
			const production = `${client.url}/webhook/${node.webhookId}/webhook`;
			const target = node.active ? targetOf(node, production, dev) : undefined;
			if (target) {
				seen.add(node.key);
				if (registered.get(node.key)?.url !== target.url) {
					const old = registered.get(node.key);
					if (old) sandbox.targets.splice(sandbox.targets.indexOf(old), 1);
					sandbox.targets.push(target);
					registered.set(node.key, target);
				}
				tell(
					node.key,
					`[trigger] "${node.workflow}" is published: the sandbox posts its webhooks to ${target.url}. Fire one now: curl -X POST ${sandbox.url}/__sandbox/emit -H 'Content-Type: application/json' -d '{"type": "message_delivery.failed"}'`,
				);
			} else if (node.active) {
				tell(
					node.key,
					`[trigger] "${node.workflow}" is published with another secret credential than "Peach webhook secret", so the sandbox cannot post to it; post a sample with: ${curlFor(node, production, dev)}`,
				);
			} else {
				const test = `${client.url}/webhook-test/${node.webhookId}/webhook`;
				tell(
					node.key,
					`[trigger] "${node.workflow}" is not published: in its Peach Trigger click 'Execute step', then: ${curlFor(node, test, dev)} (publish it and the sandbox posts to it)`,
				);
			}
		}
		for (const [key, target] of registered) {
			if (seen.has(key)) continue;
			const index = sandbox.targets.indexOf(target);
			if (index >= 0) sandbox.targets.splice(index, 1);
			registered.delete(key);
		}
	};
	const synced = sync();
	let running = false;
	const timer = setInterval(() => {
		if (running) return;
		running = true;
		sync()
			.catch((error: Error) => log(`[trigger] could not read the workflows: ${error.message}`))
			.finally(() => {
				running = false;
			});
	}, everyMs);
	timer.unref();
	return { synced, stop: () => clearInterval(timer) };
}
