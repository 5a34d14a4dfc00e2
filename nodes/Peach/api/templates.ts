import { createHmac, randomBytes } from 'crypto';
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { isPlainObject } from '../helpers/json';
import { perExecution } from '../helpers/perExecution';
import { credentialsOf } from '../transport/credentials';
import { apiPath, segment } from '../transport/path';
import { type postDelivery, peachApiRequest } from '../transport/request';
import { dryRunOf } from '../transport/requestOptions';
import type { PeachContext } from '../transport/types';

/**
 * How long this n8n process keeps a template it read, and for how many templates at most: the
 * executions that follow within that time check their items against the kept copy instead of
 * reading it again (a webhook that sends one message per execution makes one request, not two).
 * Within one execution, every item is checked against one copy.
 */
export const TEMPLATE_KEPT = { ms: 60_000, templates: 500 };

/**
 * The templates this process read, by a digest of the credential they were read with (its ID, API
 * key and Base URL: a changed key or Base URL reads again) and the template ID. The digest is keyed
 * by a secret of this process only, so the kept entries hold no key nor anything to test a key
 * against. Only a template Peach calls approved is kept: one in any other status (pending, paused…)
 * is read again by the next execution, so a template approved meanwhile is sent at once.
 */
const kept = new Map<string, { template: IDataObject; readAt: number }>();
const digestSecret = randomBytes(32);

/** This execution's reads: the credential's digest and each template's copy (one per execution). */
const readsOf = perExecution((context: PeachContext) => ({
	scope: scopeOf(context),
	templates: new Map<string, Promise<IDataObject>>(),
}));

/** The digest of the credential, or undefined when it cannot be read (then nothing is kept). */
async function scopeOf(context: PeachContext): Promise<string | undefined> {
	try {
		const { id, data } = await credentialsOf(context);
		return createHmac('sha256', digestSecret)
			.update(JSON.stringify([id, data?.apiKey ?? '', data?.baseUrl ?? '']))
			.digest('base64url');
	} catch {
		return undefined;
	}
}

const keyOf = (scope: string, templateId: string) => `${scope} ${templateId}`;

/** The copy kept from an earlier read within TEMPLATE_KEPT.ms, else Peach's answer now. */
async function keptOrRead(
	context: PeachContext,
	scope: string | undefined,
	templateId: string,
	itemIndex: number | undefined,
): Promise<IDataObject> {
	const readAt = performance.now();
	const known = scope === undefined ? undefined : kept.get(keyOf(scope, templateId));
	// Dry Run is how a user looks at what Peach has now: it reads afresh.
	if (known && readAt - known.readAt < TEMPLATE_KEPT.ms && !dryRunOf(context))
		return known.template;
	const answer = await peachApiRequest.call(context, {
		method: 'GET',
		path: apiPath`/whats_app_templates/${segment('Template', templateId)}`,
		itemIndex,
		notFound: { label: 'Template', id: templateId },
	});
	const template = isPlainObject(answer) ? answer : {};
	if (scope !== undefined) {
		const key = keyOf(scope, templateId);
		kept.delete(key);
		const status = typeof template.status === 'string' ? template.status.toLowerCase() : '';
		if (status === 'approved') kept.set(key, { template, readAt });
		while (kept.size > TEMPLATE_KEPT.templates) kept.delete(kept.keys().next().value as string);
	}
	return template;
}

/**
 * A WhatsApp template as Peach returns it (`GET /whats_app_templates/{id}`): read once per execution
 * whatever the number of items that send it, or the copy this process kept from an earlier execution
 * (TEMPLATE_KEPT). A copy is shared: it is only read, never changed.
 */
export async function templateOf(
	context: PeachContext,
	templateId: string,
	itemIndex?: number,
): Promise<IDataObject> {
	const reads = readsOf(context);
	let template = reads.templates.get(templateId);
	if (!template) {
		template = reads.scope.then(
			async (scope) => await keptOrRead(context, scope, templateId, itemIndex),
		);
		reads.templates.set(templateId, template);
	}
	return await template;
}

/** The next execution reads the template afresh (a change made to it, a refusal naming it). */
export async function forgetTemplate(context: PeachContext, templateId: string): Promise<void> {
	const scope = await readsOf(context).scope;
	if (scope !== undefined) kept.delete(keyOf(scope, templateId));
}

/**
 * Whether Peach answered and refused, naming the template or its variables (in the node's words:
 * Template, Fallback Template, Variables, Global Variables; or the template's ID): the template may
 * have changed since it was read.
 */
function refusalNamesTemplate(error: unknown, templateId: string): boolean {
	if (!(error instanceof NodeApiError) || error.httpCode === null) return false;
	const status = Number(error.httpCode);
	if (!(status < 500) || status === 429) return false;
	return /template|variables/i.test(error.message) || error.message.includes(templateId);
}

/**
 * A delivering request that sends a template (`postDelivery`'s): when Peach refuses it naming the
 * template or its variables, the copy this process keeps is dropped, so the next execution checks
 * its items against the template as Peach has it now.
 */
export function readAgainWhenRefused<Plan>(
	deliver: ReturnType<typeof postDelivery<Plan>>,
	templateIdOf: (plan: Plan) => unknown,
): ReturnType<typeof postDelivery<Plan>> {
	async function deliverTemplate(
		this: IExecuteFunctions,
		...args: Parameters<typeof deliver>
	): Promise<IDataObject> {
		return await deliver.apply(this, args).catch(async (error: unknown) => {
			const templateId = templateIdOf(args[0]);
			if (typeof templateId === 'string' && refusalNamesTemplate(error, templateId))
				await forgetTemplate(this, templateId);
			throw error;
		});
	}
	return Object.assign(deliverTemplate, { wouldSend: deliver.wouldSend });
}
