import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
	IWebhookDescription,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { nodeProperties } from './actions/registry';
import { router } from './actions/router';
import { webhook as sendAndWaitWebhook } from './actions/templateMessage/sendAndWait/answer';
import { WAITING_TOOLTIP } from './actions/templateMessage/sendAndWait/waiting';
import { listSearch } from './methods/listSearch';
import { loadOptions } from './methods/loadOptions';
import { resourceMapping } from './methods/resourceMapping';

/**
 * The answer links of Send and Wait for Response: n8n's waiting webhook, GET (the page) and POST (the
 * answer), at <waiting-webhook address>/<execution>/<node ID>, signed by n8n.
 */
const SEND_AND_WAIT_WEBHOOKS: IWebhookDescription[] = [
	{
		name: 'default',
		httpMethod: 'GET',
		responseMode: 'onReceived',
		responseData: '',
		path: '={{ $nodeId }}',
		restartWebhook: true,
		isFullPath: true,
	},
	{
		name: 'default',
		httpMethod: 'POST',
		responseMode: 'onReceived',
		responseData: '',
		path: '={{ $nodeId }}',
		restartWebhook: true,
		isFullPath: true,
	},
];

export class Peach implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Peach',
		name: 'peach',
		icon: { light: 'file:../../icons/peach.svg', dark: 'file:../../icons/peach.dark.svg' },
		group: ['output'],
		version: 1,
		// "Get Many: WhatsApp Template", from the values, in n8n's expression language.
		subtitle:
			"={{ [$parameter.operation, $parameter.resource].map((v) => String(v).replace(/([a-z])([A-Z])/g, '$1 $2').replace(/^./, (c) => c.toUpperCase()).replace('Whats App', 'WhatsApp')).join(': ') }}",
		description:
			'Send WhatsApp template messages and broadcasts, manage templates, automations and triggers with Peach',
		// Used as is by n8n's Docs link; the codex's primaryDocumentation gets "?utm_source=…" appended
		// after its "#operations", so that link would not jump to the section.
		documentationUrl: 'https://github.com/n8n-nodes-peach/n8n-nodes-peach#operations',
		defaults: { name: 'Peach' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'peachMessagingApi', required: true }],
		webhooks: SEND_AND_WAIT_WEBHOOKS,
		// Who was asked what, under n8n's "Waiting for input" (sendAndWait/waiting.ts).
		waitingNodeTooltip: WAITING_TOOLTIP,
		properties: nodeProperties(),
	};

	methods = { listSearch, loadOptions, resourceMapping };

	webhook = sendAndWaitWebhook;

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		// With Continue On Fail (or an error output), a failed item becomes an error item and the
		// others go on; without it, the first failure stops the node (actions/run/).
		return await router.call(this, this.continueOnFail());
	}
}
