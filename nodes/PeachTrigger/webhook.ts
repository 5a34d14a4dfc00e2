import type { IDataObject, IWebhookFunctions } from 'n8n-workflow';

import { deliveryKey, identicalWindowMs, seenBefore, windowMs } from './dedupe';
import {
	type decideEvent,
	isSelected,
	type MessageFilter,
	passesMessageFilter,
	type PeachEnvelope,
} from './events';
import { verifySecret } from './verify';

type Verification = 'none' | 'queryToken' | 'header';

/** The trigger's Options, as the webhook reads them. */
export interface TriggerOptions {
	duplicateWindow?: number;
	identicalWindow?: number;
	includeRawBody?: boolean;
	messageTypes?: MessageFilter;
}

/** Whether a delivery carries the shared secret the chosen Verification asks for (always, under None). */
export async function verifyDelivery(context: IWebhookFunctions): Promise<boolean> {
	const verification = context.getNodeParameter('verification', 'none') as Verification;
	if (verification === 'none') return true;
	// The secret lives in the credential (stored encrypted), never in the workflow.
	const received =
		verification === 'queryToken'
			? (context.getQueryData() as IDataObject).token
			: context.getHeaderData()[
					(context.getNodeParameter('headerName', 'X-Peach-Token') as string).trim().toLowerCase()
				];
	const node = context.getNode();
	// n8n 1.x publishes a trigger whose required credential is missing: nothing can match then.
	if (!node.credentials?.peachWebhookApi) return false;
	const scope = `${context.getWorkflow().id ?? ''}:${node.id ?? node.name}:${node.credentials.peachWebhookApi.id ?? ''}`;
	return verifySecret(received, scope, async () =>
		String((await context.getCredentials('peachWebhookApi')).secret ?? ''),
	);
}

/**
 * Why a verified delivery starts nothing (answered 200 with this reason): its event is not selected,
 * its message type is filtered out, or it was received before; undefined when it starts the workflow.
 */
export function ignoredReason(
	context: IWebhookFunctions,
	envelope: PeachEnvelope,
	decision: ReturnType<typeof decideEvent>,
	events: string[],
	options: TriggerOptions,
): string | undefined {
	if (!isSelected(decision.event, events)) return `event ${decision.event} is not selected`;
	if (!passesMessageFilter(envelope, decision.kind, options.messageTypes ?? 'all')) {
		return `message type filtered out (${options.messageTypes})`;
	}
	// Test deliveries ("Listen for test event") are never ignored, so the same sample can be sent again.
	if (
		context.getNodeParameter('ignoreDuplicates', false) !== true ||
		context.getMode() === 'manual'
	) {
		return undefined;
	}
	const { key, basis } = deliveryKey(envelope, decision);
	const window =
		basis === 'id' ? windowMs(options.duplicateWindow) : identicalWindowMs(options.identicalWindow);
	const scope = `${context.getWorkflow().id ?? ''}:${context.getNode().id ?? context.getNode().name}`;
	if (window > 0 && seenBefore(scope, key, window, context.getWorkflowStaticData('node'))) {
		return `duplicate: the same ${basis === 'id' ? 'event, ID and status' : 'body'} was received before`;
	}
	return undefined;
}
