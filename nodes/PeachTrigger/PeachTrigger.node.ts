import type {
	ICredentialsDecrypted,
	ICredentialTestFunctions,
	IDataObject,
	INodeCredentialTestResult,
	INodeProperties,
	IHookFunctions,
	INodeType,
	INodeTypeDescription,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import {
	ALL_EVENTS,
	buildOutput,
	decideEvent,
	EVENT_OPTIONS,
	isSelected,
	type MessageFilter,
	parseEnvelope,
	passesMessageFilter,
} from './events';
import {
	DEFAULT_WINDOW_MINUTES,
	deliveryKey,
	identicalWindowMs,
	seenBefore,
	windowMs,
} from './dedupe';
import { verifySecret } from './verify';

type Verification = 'none' | 'queryToken' | 'header';

/** How Peach proves a delivery is its own: a shared secret, required unless None is chosen. */
const verificationField: INodeProperties = {
	displayName: 'Verification',
	name: 'verification',
	type: 'options',
	options: [
		{
			name: 'Header',
			value: 'header',
			description: 'Peach must send the secret in a header you name',
		},
		{
			name: 'None',
			value: 'none',
			description:
				'Accept every POST to the URL (not recommended: anyone who has it can start the workflow)',
		},
		{
			name: 'Token Query Parameter',
			value: 'queryToken',
			description: 'Peach must call the URL with the secret in a token query parameter (?token=…)',
		},
	],
	default: 'queryToken',
	description:
		'Peach documents no webhook signature; a shared secret in the URL or a header keeps strangers out',
};

/** Whether a delivery seen before starts nothing. */
const ignoreDuplicatesField: INodeProperties = {
	displayName: 'Ignore Duplicates',
	name: 'ignoreDuplicates',
	type: 'boolean',
	default: true,
	description:
		'Whether a delivery seen before within the Duplicate Window starts nothing (answered 200 so Peach stops retrying). A delivery is the same when its event, message/order/flow execution ID and status are. Events without an ID of their own (AI agent events, replies) are never duplicates unless Identical Events Window is set.',
};

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
		outputs: [NodeConnectionTypes.Main],
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
					'In the Peach web app, paste this node\'s Production URL (above, under Webhook URLs) into the webhook settings, then publish this workflow. The Test URL only answers while you click "Listen for test event" here; Peach keeps posting to whichever URL you pasted.',
				name: 'setupNotice',
				type: 'notice',
				default: '',
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
			{
				displayName: 'Options',
				name: 'options',
				type: 'collection',
				placeholder: 'Add Option',
				default: {},
				options: [
					{
						displayName: 'Duplicate Window (Minutes)',
						name: 'duplicateWindow',
						type: 'number',
						typeOptions: { minValue: 1 },
						default: DEFAULT_WINDOW_MINUTES,
						description:
							'How long a delivery is remembered for Ignore Duplicates (the last 10,000 per trigger in memory, the last 1,000 across restarts)',
						displayOptions: { show: { '/ignoreDuplicates': [true] } },
					},
					{
						displayName: 'Identical Events Window (Minutes)',
						name: 'identicalWindow',
						type: 'number',
						typeOptions: { minValue: 0 },
						default: 0,
						description:
							"For events without an ID of their own (AI agent events, replies): ignore one whose whole body was received within this many minutes, e.g. 5 for Peach's retries. 0 (the default) never ignores them: two real escalations by one agent look the same.",
						displayOptions: { show: { '/ignoreDuplicates': [true] } },
					},
					{
						displayName: 'Include Raw Body',
						name: 'includeRawBody',
						type: 'boolean',
						default: false,
						description:
							'Whether to add the body as text in rawBody: the bytes Peach sent, or the parsed JSON written out again when n8n did not keep them',
					},
					{
						displayName: 'Message Types',
						name: 'messageTypes',
						type: 'options',
						options: [
							{ name: 'All Messages', value: 'all' },
							{
								name: 'Interactive Messages Only',
								value: 'interactive',
								description: 'Messages of conversations (type "message")',
							},
							{
								name: 'Template Messages Only',
								value: 'templateMessage',
								description: 'Template messages (type "template_message")',
							},
						],
						default: 'all',
						description: 'Which message delivery events start the workflow',
					},
				],
			},
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
		const response = this.getResponseObject();
		const reject = (status: number, message: string): IWebhookResponseData => {
			response.status(status).json({ message });
			return { noWebhookResponse: true };
		};

		const verification = this.getNodeParameter('verification', 'none') as Verification;
		if (verification !== 'none') {
			// The secret lives in the credential (stored encrypted), never in the workflow.
			const received =
				verification === 'queryToken'
					? (this.getQueryData() as IDataObject).token
					: this.getHeaderData()[
							(this.getNodeParameter('headerName', 'X-Peach-Token') as string).trim().toLowerCase()
						];
			const node = this.getNode();
			// n8n 1.x publishes a trigger whose required credential is missing: nothing can match then.
			if (!node.credentials?.peachWebhookApi) return reject(401, 'Unauthorized');
			const scope = `${this.getWorkflow().id ?? ''}:${node.id ?? node.name}:${node.credentials.peachWebhookApi.id ?? ''}`;
			const verified = await verifySecret(received, scope, async () =>
				String((await this.getCredentials('peachWebhookApi')).secret ?? ''),
			);
			if (!verified) return reject(401, 'Unauthorized');
		}

		const rawBody = (request as { rawBody?: unknown }).rawBody;
		const parsed = parseEnvelope(rawBody, this.getBodyData());
		if (!parsed.ok) return reject(400, parsed.reason);

		const { envelope } = parsed;
		const decision = decideEvent(envelope);
		const events = this.getNodeParameter('events', []) as string[];
		const options = this.getNodeParameter('options', {}) as {
			duplicateWindow?: number;
			identicalWindow?: number;
			includeRawBody?: boolean;
			messageTypes?: MessageFilter;
		};
		if (!isSelected(decision.event, events)) {
			return {
				webhookResponse: { received: true, ignored: `event ${decision.event} is not selected` },
			};
		}
		if (!passesMessageFilter(envelope, decision.kind, options.messageTypes ?? 'all')) {
			return {
				webhookResponse: {
					received: true,
					ignored: `message type filtered out (${options.messageTypes})`,
				},
			};
		}

		// Test deliveries ("Listen for test event") are never ignored, so the same sample can be sent again.
		if (this.getNodeParameter('ignoreDuplicates', false) === true && this.getMode() !== 'manual') {
			const { key, basis } = deliveryKey(envelope, decision);
			const window =
				basis === 'id'
					? windowMs(options.duplicateWindow)
					: identicalWindowMs(options.identicalWindow);
			const scope = `${this.getWorkflow().id ?? ''}:${this.getNode().id ?? this.getNode().name}`;
			if (window > 0 && seenBefore(scope, key, window, this.getWorkflowStaticData('node'))) {
				return {
					webhookResponse: {
						received: true,
						ignored: `duplicate: the same ${basis === 'id' ? 'event, ID and status' : 'body'} was received before`,
					},
				};
			}
		}

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
