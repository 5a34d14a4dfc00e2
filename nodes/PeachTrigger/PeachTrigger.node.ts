import type {
	IDataObject,
	IHookFunctions,
	INodeType,
	INodeTypeDescription,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

/**
 * Placeholder until the trigger issue: receives a Peach webhook and outputs its JSON body as one item.
 * Peach has no API to register webhooks (the URL is pasted into the Peach web app), so the
 * lifecycle methods only keep the URL in the workflow's static data.
 */
export class PeachTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Peach Trigger',
		name: 'peachTrigger',
		icon: { light: 'file:../../icons/peach.svg', dark: 'file:../../icons/peach.dark.svg' },
		group: ['trigger'],
		version: 1,
		subtitle: 'Peach webhook',
		description: 'Starts the workflow when Peach sends a webhook',
		defaults: { name: 'Peach Trigger' },
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		webhooks: [
			{ name: 'default', httpMethod: 'POST', responseMode: 'onReceived', path: 'webhook' },
		],
		properties: [
			{
				displayName:
					"Paste this node's webhook URL into the Peach web app's webhook settings. Every event Peach posts starts the workflow.",
				name: 'setupNotice',
				type: 'notice',
				default: '',
			},
		],
	};

	webhookMethods = {
		default: {
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
		const body = this.getBodyData() as IDataObject;
		return { workflowData: [this.helpers.returnJsonArray([body])] };
	}
}
