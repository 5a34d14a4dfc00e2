import type { IDataObject, IWebhookFunctions } from 'n8n-workflow';

import { deliveryKey, identicalWindowMs, seenBefore, windowMs } from './dedupe';
import {
	type decideEvent,
	EVENTS,
	isSelected,
	type MessageFilter,
	passesMessageFilter,
	type PeachEnvelope,
} from './events';
import type { Refusal } from './refusals';
import { verifySecret } from './verify';

type Verification = 'none' | 'queryToken' | 'header';

/** The trigger's Options, as the webhook reads them. */
export interface TriggerOptions {
	duplicateWindow?: number;
	identicalWindow?: number;
	includeRawBody?: boolean;
	messageTypes?: MessageFilter;
	reportRefused?: string[];
}

/**
 * The URL this delivery came to, for a fix to name: the Production URL, or while the editor listens
 * the Test URL (n8n's getNodeWebhookUrl gives the production one in both: the test path is read from
 * the request, on the production URL's origin).
 */
function urlOf(context: IWebhookFunctions): string {
	const production = context.getNodeWebhookUrl('default');
	if (production === undefined) return "this node's Production URL";
	if (context.getMode() !== 'manual') return production;
	const path = String(context.getRequestObject().originalUrl ?? '').split('?')[0];
	try {
		return path.startsWith('/') ? new URL(path, production).href : production;
	} catch {
		return production;
	}
}

/** Why a delivery without the right secret is refused, and how to send the right one; never the secret. */
function secretRefusal(
	context: IWebhookFunctions,
	missing: boolean,
	header: string | undefined,
	credential: string,
): Refusal {
	const refusal = { status: 401 as const, answer: 'Unauthorized' };
	const reason = missing ? ('missingSecret' as const) : ('wrongSecret' as const);
	if (header === undefined) {
		return {
			...refusal,
			reason,
			message: missing
				? 'The URL has no token'
				: `The token does not match the secret of credential "${credential}"`,
			fix: `Add ?token= and the secret of credential "${credential}" to the URL Peach calls: ${urlOf(context)}?token=<that secret>`,
		};
	}
	return {
		...refusal,
		reason,
		message: missing
			? `The delivery has no ${header} header`
			: `The ${header} header does not match the secret of credential "${credential}"`,
		fix: `In Peach's webhook settings, send the secret of credential "${credential}" in the ${header} header`,
	};
}

/**
 * Why a delivery does not carry the shared secret the chosen Verification asks for; undefined when it
 * does (always, under None).
 */
export async function verifyDelivery(context: IWebhookFunctions): Promise<Refusal | undefined> {
	const verification = context.getNodeParameter('verification', 'none') as Verification;
	if (verification === 'none') return undefined;
	const header =
		verification === 'header'
			? (context.getNodeParameter('headerName', 'X-Peach-Token') as string).trim()
			: undefined;
	// The secret lives in the credential (stored encrypted), never in the workflow.
	const received =
		header === undefined
			? (context.getQueryData() as IDataObject).token
			: context.getHeaderData()[header.toLowerCase()];
	const node = context.getNode();
	const credential = node.credentials?.peachWebhookApi;
	// n8n 1.x publishes a trigger whose required credential is missing: nothing can match then.
	if (!credential) {
		return {
			reason: 'wrongSecret',
			status: 401,
			answer: 'Unauthorized',
			message: 'This node has no Peach Webhook Secret credential',
			fix: 'Choose one in "Credential to connect with", then publish the workflow again',
		};
	}
	const scope = `${context.getWorkflow().id ?? ''}:${node.id ?? node.name}:${credential.id ?? ''}`;
	const matches = await verifySecret(received, scope, async () =>
		String((await context.getCredentials('peachWebhookApi')).secret ?? ''),
	);
	if (matches) return undefined;
	return secretRefusal(context, received === undefined || received === '', header, credential.name);
}

/** A body that is not Peach's envelope: answered 400 with the reason. */
export function notPeachBody(reason: string): Refusal {
	return {
		reason: 'notPeachBody',
		status: 400,
		answer: reason,
		message: reason,
		fix: 'Only Peach should post to this URL: check the URL in the Peach web app, or send a sample such as {"type": "message_delivery.failed", "data": {}} as JSON',
	};
}

/** Whether a delivery identical to this one was accepted before, within its window. */
function isDuplicate(
	context: IWebhookFunctions,
	envelope: PeachEnvelope,
	decision: ReturnType<typeof decideEvent>,
	options: TriggerOptions,
): 'id' | 'body' | undefined {
	const { key, basis } = deliveryKey(envelope, decision);
	const window =
		basis === 'id' ? windowMs(options.duplicateWindow) : identicalWindowMs(options.identicalWindow);
	const scope = `${context.getWorkflow().id ?? ''}:${context.getNode().id ?? context.getNode().name}`;
	return window > 0 && seenBefore(scope, key, window, context.getWorkflowStaticData('node'))
		? basis
		: undefined;
}

/** What a refusal of a delivery whose event is not selected in Events says, and how to fix it. */
function notSelected(event: string): Omit<Refusal, 'status' | 'event'> {
	const label = Object.prototype.hasOwnProperty.call(EVENTS, event)
		? EVENTS[event].label
		: undefined;
	return {
		reason: 'eventNotSelected',
		answer: `event ${event} is not selected`,
		message: `Event ${event} is not selected in Events`,
		fix: label
			? `Add "${label}" to Events, or choose All Events`
			: `Peach sent a type this node does not know: choose All Events to receive it`,
	};
}

/** What a refusal of a duplicate says (`basis`: what was the same), and how to fix it. */
function duplicate(basis: 'id' | 'body'): Omit<Refusal, 'status' | 'event'> {
	const same = basis === 'id' ? 'event, ID and status' : 'body';
	return {
		reason: 'duplicate',
		answer: `duplicate: the same ${same} was received before`,
		message: `A duplicate: the same ${same} was received before and started the workflow then`,
		fix: 'Nothing to do for a retry by Peach. To run every copy, turn off Ignore Duplicates or shorten Options → Duplicate Window',
	};
}

/**
 * Why a verified delivery starts nothing (answered 200 with the reason): its event is not selected
 * (`notSelected`), its message type is filtered out, or it was received before (`duplicate`);
 * undefined when it starts the workflow.
 */
export function ignoredReason(
	context: IWebhookFunctions,
	envelope: PeachEnvelope,
	decision: ReturnType<typeof decideEvent>,
	events: string[],
	options: TriggerOptions,
): Refusal | undefined {
	const { event } = decision;
	const ignored = { status: 200 as const, event };
	if (!isSelected(event, events)) return { ...ignored, ...notSelected(event) };
	if (!passesMessageFilter(envelope, decision.kind, options.messageTypes ?? 'all')) {
		return {
			...ignored,
			reason: 'messageTypeFilteredOut',
			answer: `message type filtered out (${options.messageTypes})`,
			message: `The message's type is filtered out by Options → Message Types (${options.messageTypes})`,
			fix: 'Set Options → Message Types to All Messages',
		};
	}
	// Test deliveries (the editor listening) are never ignored, so the same sample can be sent again.
	if (
		context.getNodeParameter('ignoreDuplicates', false) !== true ||
		context.getMode() === 'manual'
	) {
		return undefined;
	}
	const basis = isDuplicate(context, envelope, decision, options);
	return basis === undefined ? undefined : { ...ignored, ...duplicate(basis) };
}
