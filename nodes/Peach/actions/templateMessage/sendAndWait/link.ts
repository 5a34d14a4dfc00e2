import { createHash, randomBytes } from 'crypto';

import type { IExecuteFunctions, IWebhookFunctions } from 'n8n-workflow';

import { isLoopback } from '../../../helpers/address';
import { waitingWebhookBase } from '../../../helpers/fields';
import { PeachInputError } from '../../../helpers/inputError';
import { isPlainObject } from '../../../helpers/json';
import { placesOf } from '../../../helpers/templateVariables';
import { baseUrlOf } from '../../../transport/credentials';

/**
 * The answer link of Send and Wait: made, checked and recognised here.
 *
 * - **Made**: n8n's signed resume link for this execution and node, plus this wait's own ID
 *   (`peachWait`). n8n's resume link is the same for every wait of the node in one execution (Loop
 *   Over Items, an AI agent asking twice); the ID tells them apart. n8n 2.x signs it with the rest of
 *   the link; on n8n 1.x, which checks no signature, the ID (16 random bytes) is what keeps the link
 *   private.
 * - **Checked** before anything is sent: it must reach the person (not this machine's loopback address,
 *   unless Peach is a sandbox on this machine too), and fit the template (a variable of its text, or the
 *   end of a URL button to this n8n).
 * - **Recognised** when it is opened: the wait the execution is waiting on is kept in the execution's
 *   custom data (saved with the waiting execution) as a digest of its ID, so the custom data (shown in
 *   the executions list) never holds a link; a link whose ID is not that one answers nothing.
 */

export const WAIT_PARAMETER = 'peachWait';

/** The link, its wait's ID and this n8n's waiting-webhook address. */
export interface AnswerLink {
	url: string;
	waitId: string;
	waitingBase: string;
}

/** The wait the execution is waiting on, as kept in its custom data. */
export interface CurrentWait {
	/** The wait's public identity: a digest of its link's ID (shown in the output as `link.id`). */
	id: string;
	/** When the question was sent (ISO). */
	askedAt: string;
	/** Who was asked (the contact's name, else the number). */
	who: string;
}

/** A new answer link for one wait of this node. */
export function makeAnswerLink(context: IExecuteFunctions): AnswerLink {
	const waitId = randomBytes(16).toString('base64url');
	const url = context.getSignedResumeUrl({ [WAIT_PARAMETER]: waitId });
	return { url, waitId, waitingBase: waitingWebhookBase(url, context.getExecutionId()) };
}

/**
 * Refuses, before anything is sent, a link the person's phone cannot open: one on this machine's
 * loopback address (n8n makes those when N8N_WEBHOOK_URL / WEBHOOK_URL is not set, also on a queue-mode worker without
 * it), unless the credential's Base URL is on this machine too (a local sandbox, `npm run dev`).
 */
export async function checkReachable(context: IExecuteFunctions, link: AnswerLink): Promise<void> {
	if (!isLoopback(link.url)) return;
	if (isLoopback(await baseUrlOf(context))) return;
	let origin = link.url;
	try {
		origin = new URL(link.url).origin;
	} catch {
		// Shown as it is.
	}
	throw new PeachInputError(
		'Answer Link',
		origin,
		"points at this machine, so the person's phone cannot open it",
		'Set N8N_WEBHOOK_URL (WEBHOOK_URL on n8n 1.x) to the public address of this n8n (e.g. https://n8n.example.com/) and restart it; in queue mode on every worker too (the worker that sends makes the link).',
	);
}

/**
 * Where the answer link goes, checked against the template: a variable of its text, or a URL button
 * that ends with the variable and starts with this n8n's waiting-webhook address. Returns the value
 * of the link variable: the whole link, or the part after that address. Pure.
 */
export function linkValue(input: {
	template: unknown;
	placement: string;
	variable: string;
	link: AnswerLink;
}): string {
	const { template, placement, variable, link } = input;
	const { waitingBase } = link;
	const places = placesOf(template, variable);
	if (placement === 'urlButton') {
		const buttonUrl = `${waitingBase}/{{${variable}}}`;
		const button = places.find((place) => place.component === 'url button');
		if (!button || !button.atEnd || button.urlBefore !== `${waitingBase}/`) {
			throw new PeachInputError(
				'Link Placement',
				'In a URL Button',
				button
					? `does not fit the template's URL button (${button.urlBefore ?? ''}{{${variable}}})`
					: `needs a URL button ending with {{${variable}}}, which the template has not`,
				`The template's URL button must be exactly ${buttonUrl}: this n8n's waiting-webhook address, then the variable. WhatsApp Template → Create → Approval Request (In a URL Button) makes such a template; or choose In a Template Variable.`,
			);
		}
		return link.url.slice(waitingBase.length + 1);
	}
	if (!places.some((place) => place.component !== 'url button')) {
		throw new PeachInputError(
			'Link Variable',
			variable,
			'is not a variable of the template text',
			`Pick the Link Variable that should carry the link from the template's own (the list shows them), or use a template with {{${variable}}} in its body: WhatsApp Template → Create → Approval Request makes one.`,
		);
	}
	return link.url;
}

/** n8n keeps at most 10 custom-data keys per execution; a key beyond them is dropped silently. */
const CUSTOM_DATA_KEYS = 10;

/**
 * The custom-data key of this node's wait: n8n takes only letters, digits and underscores (anything
 * else is dropped silently outside manual runs), at most 50 characters.
 */
const keyOf = (nodeId: string) =>
	`peachWait_${nodeId.replace(/[^\p{L}\p{N}_]/gu, '')}`.slice(0, 50);

/** A wait's public identity: a digest of the link's ID, which is the link's secret on n8n 1.x. */
export const waitIdentity = (waitId: string) =>
	createHash('sha256').update(waitId).digest('base64url').slice(0, 22);

type CustomData = IExecuteFunctions['customData'];

/** A context as either n8n line makes it: n8n 1.x's have no customData (the types are n8n 2.x's). */
type OfEitherLine<T> = Omit<T, 'customData'> & { customData?: CustomData };

/** The execution's custom data, as each n8n line offers it to an executing node. */
function customDataOf(context: OfEitherLine<IExecuteFunctions>): CustomData {
	// n8n 2.x: this.customData; n8n 1.x: only through the data proxy ($execution.customData).
	return (
		context.customData ??
		(context.getWorkflowDataProxy(0).$execution as { customData: CustomData }).customData
	);
}

/**
 * Refuses, before anything is sent, a wait n8n could not keep: the execution's custom data already
 * has n8n's 10 keys (set by Execution Data nodes or Code), so the wait would be dropped and its link
 * would answer nothing.
 */
export function checkCanRemember(context: IExecuteFunctions): void {
	const keys = Object.keys(customDataOf(context).getAll());
	const key = keyOf(context.getNode().id);
	if (keys.includes(key) || keys.length < CUSTOM_DATA_KEYS) return;
	throw new PeachInputError(
		'Send and Wait',
		`${keys.length} custom data keys`,
		'leave no room for the wait: n8n keeps at most 10 per execution, and the answer link needs one',
		`Set one key fewer with the Execution Data node (or $execution.customData in Code) before this node. Keys set now: ${keys.join(', ')}.`,
	);
}

/**
 * Keeps this wait as the one the execution waits on (saved with the waiting execution). Returns
 * false when n8n did not keep it (the link would then answer nothing).
 */
export function rememberWait(context: IExecuteFunctions, waitId: string, who: string): boolean {
	const value = JSON.stringify([waitIdentity(waitId), new Date().toISOString(), who.slice(0, 60)]);
	const customData = customDataOf(context);
	const key = keyOf(context.getNode().id);
	customData.set(key, value);
	return customData.get(key) === value;
}

/**
 * The execution's custom data where the webhook that answers the link can reach it. n8n 2.x: the
 * context's customData. n8n 1.x gives a webhook no customData, and its expressions there cannot call
 * `$execution.customData`'s functions (measured on 1.123.81: they give undefined); the execution's
 * data is the context's runExecutionData, whose resultData.metadata is the custom data. Without
 * either, no wait is known, and the link answers nothing.
 */
function webhookCustomData(context: OfEitherLine<IWebhookFunctions>): {
	get(key: string): unknown;
	set(key: string, value: string): void;
} {
	if (context.customData) return context.customData;
	const execution = (context as { runExecutionData?: unknown }).runExecutionData;
	const result = isPlainObject(execution) ? execution.resultData : undefined;
	const metadata = isPlainObject(result) && isPlainObject(result.metadata) ? result.metadata : {};
	return {
		get: (key) => (Object.prototype.hasOwnProperty.call(metadata, key) ? metadata[key] : undefined),
		set: (key, value) => {
			if (Object.prototype.hasOwnProperty.call(metadata, key)) metadata[key] = value;
		},
	};
}

/** The wait this node's execution waits on, if any. */
export function currentWait(context: IWebhookFunctions): CurrentWait | undefined {
	const stored = webhookCustomData(context).get(keyOf(context.getNode().id));
	if (typeof stored !== 'string' || stored === '') return undefined;
	try {
		const [id, askedAt, who] = JSON.parse(stored) as unknown[];
		return typeof id === 'string' && id !== ''
			? { id, askedAt: String(askedAt ?? ''), who: String(who ?? '') }
			: undefined;
	} catch {
		// Not what rememberWait wrote: no wait of this node.
		return undefined;
	}
}

/** Whether the opened link belongs to the wait: its ID (from the link's query) has the wait's digest. */
export function answersWait(context: IWebhookFunctions, wait: CurrentWait): boolean {
	const value = (context.getQueryData() as Record<string, unknown>)[WAIT_PARAMETER];
	return typeof value === 'string' && value !== '' && waitIdentity(value) === wait.id;
}

/** The answer was taken: no link answers this wait again, even before the execution moves on. */
export function forgetWait(context: OfEitherLine<IWebhookFunctions>): void {
	webhookCustomData(context).set(keyOf(context.getNode().id), '');
}
