import type {
	ICredentialsDecrypted,
	ICredentialTestFunctions,
	INodeCredentialTestResult,
	IHookFunctions,
	INodeType,
	INodeTypeDescription,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { ALL_EVENTS, buildOutput, decideEvent, EVENT_OPTIONS, parseEnvelope } from './events';
import { ignoreDuplicatesField, optionsField, verificationField } from './fields';
import { refuse } from './refusals';
import { TRIGGER_PANEL } from './triggerPanel';
import { ignoredReason, notPeachBody, type TriggerOptions, verifyDelivery } from './webhook';

export class PeachTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Peach Trigger',
		name: 'peachTrigger',
		icon: { light: 'file:../../icons/peach.svg', dark: 'file:../../icons/peach.dark.svg' },
		group: ['trigger'],
		version: 1,
		subtitle:
			'={{($parameter["events"] || []).includes("*") ? "All events" : ($parameter["events"] || []).join(", ")}}',
		// n8n's nodes panel shows Peach and Peach Trigger as one entry with this description, so it says
		// what the package does (n8n 2.40 editor, useActionsGeneration: "default to trigger description").
		description:
			'Send WhatsApp templates and messages with Peach, ask for approvals, manage contacts, orders and broadcasts, and start workflows from its webhooks',
		documentationUrl: 'https://github.com/n8n-nodes-peach/n8n-nodes-peach#trigger',
		defaults: { name: 'Peach Trigger' },
		inputs: [],
		credentials: [
			{
				name: 'peachWebhookApi',
				required: true,
				testedBy: 'peachWebhookSecretTest',
				displayOptions: { show: { verification: ['queryToken', 'header'] } },
			},
		],
		// The second output gets one item per refused delivery that is reported: always while the
		// editor listens for a test event, in production only under Options → Report Refused Deliveries.
		outputs: [NodeConnectionTypes.Main, NodeConnectionTypes.Main],
		outputNames: ['Event', 'Refused'],
		triggerPanel: TRIGGER_PANEL,
		webhooks: [
			{
				name: 'default',
				httpMethod: 'POST',
				responseMode: 'onReceived',
				// Empty, so n8n answers with the webhook's own response ({"received": true}), and only once
				// it has stored the execution (n8n 2.x); its default would be the text "firstEntryJson".
				responseData: '',
				path: 'webhook',
			},
		],
		properties: [
			{
				displayName:
					"Peach calls the URL with the secret: copy the Production URL (above, under Webhook URLs), add <code>?token=</code> and your credential's secret, paste it into the Peach web app's webhook settings and publish this workflow. To try it first, click 'Execute step' and post an event to the Test URL with the same <code>?token=</code>: a delivery the node refuses shows here on the Refused output, with the reason and the fix.",
				name: 'setupNotice',
				type: 'notice',
				default: '',
				displayOptions: { show: { verification: ['queryToken'] } },
			},
			{
				displayName:
					"Copy the Production URL (above, under Webhook URLs) into the Peach web app's webhook settings, with the header and your credential's secret, and publish this workflow. To try it first, click 'Execute step' and post an event to the Test URL: a delivery the node refuses shows here on the Refused output, with the reason and the fix.",
				name: 'setupNoticeHeader',
				type: 'notice',
				default: '',
				displayOptions: { show: { verification: ['header'] } },
			},
			{
				displayName:
					"Copy the Production URL (above, under Webhook URLs) into the Peach web app's webhook settings and publish this workflow. To try it first, click 'Execute step' and post an event to the Test URL: a delivery the node refuses shows here on the Refused output, with the reason and the fix.",
				name: 'setupNoticeNone',
				type: 'notice',
				default: '',
				displayOptions: { show: { verification: ['none'] } },
			},
			{
				displayName: 'Events',
				name: 'events',
				type: 'multiOptions',
				required: true,
				options: EVENT_OPTIONS,
				default: [ALL_EVENTS],
				description:
					"The events that start the workflow. Other events are acknowledged and ignored. For message delivery, the message's status decides the event.",
			},
			verificationField,
			{
				displayName:
					'Without verification, anyone who knows this URL can post events to it and start the workflow. Choose a verification method to require a shared secret.',
				name: 'noVerificationNotice',
				type: 'notice',
				default: '',
				displayOptions: { show: { verification: ['none'] } },
			},
			{
				displayName: 'Header Name',
				name: 'headerName',
				type: 'string',
				required: true,
				default: 'X-Peach-Token',
				placeholder: 'e.g. X-Peach-Token',
				description: 'The header that carries the secret',
				displayOptions: { show: { verification: ['header'] } },
			},
			ignoreDuplicatesField,
			optionsField,
		],
	};

	methods = {
		credentialTest: {
			/** Peach has no endpoint to check a secret against: the test checks that it is long and plain. */
			async peachWebhookSecretTest(
				this: ICredentialTestFunctions,
				credential: ICredentialsDecrypted,
			): Promise<INodeCredentialTestResult> {
				const secret = String(credential.data?.secret ?? '');
				if (secret.length < 16) {
					return { status: 'Error', message: 'Use a secret of 16 characters or more.' };
				}
				if (!/^[\x21-\x7e]+$/.test(secret)) {
					return {
						status: 'Error',
						message:
							'Use printable characters without spaces, so the secret survives a URL or a header.',
					};
				}
				return {
					status: 'OK',
					message: 'The secret can be used. Peach must send exactly this text.',
				};
			},
		},
	};

	webhookMethods = {
		default: {
			// Peach has no API to register webhooks: the URL is pasted into the Peach web app by hand.
			// These only keep the URL in the workflow's static data: when it changed, checkExists says
			// false and create() stores the new one; nothing tells Peach, so the user pastes it again.
			async checkExists(this: IHookFunctions): Promise<boolean> {
				const staticData = this.getWorkflowStaticData('node');
				return staticData.webhookUrl === this.getNodeWebhookUrl('default');
			},
			async create(this: IHookFunctions): Promise<boolean> {
				const staticData = this.getWorkflowStaticData('node');
				staticData.webhookUrl = this.getNodeWebhookUrl('default');
				return true;
			},
			async delete(this: IHookFunctions): Promise<boolean> {
				const staticData = this.getWorkflowStaticData('node');
				delete staticData.webhookUrl;
				return true;
			},
		},
	};

	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		const request = this.getRequestObject();
		const unverified = await verifyDelivery(this);
		if (unverified) return refuse(this, unverified);

		const rawBody = (request as { rawBody?: unknown }).rawBody;
		const parsed = parseEnvelope(rawBody, this.getBodyData());
		if (!parsed.ok) return refuse(this, notPeachBody(parsed.reason));

		const { envelope } = parsed;
		const decision = decideEvent(envelope);
		const events = this.getNodeParameter('events', []) as string[];
		const options = this.getNodeParameter('options', {}) as TriggerOptions;
		const ignored = ignoredReason(this, envelope, decision, events, options);
		if (ignored) return refuse(this, ignored);

		const raw = options.includeRawBody
			? Buffer.isBuffer(rawBody)
				? rawBody.toString('utf8')
				: JSON.stringify(this.getBodyData())
			: undefined;
		const output = buildOutput(envelope, decision, new Date().toISOString(), raw);
		// n8n sends this answer itself, after it has stored the execution (n8n 2.x), so a delivery
		// answered "received" is never lost when n8n stops right after.
		return {
			workflowData: [this.helpers.returnJsonArray([output])],
			webhookResponse: { received: true },
		};
	}
}
