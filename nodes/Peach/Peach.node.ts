import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import * as automation from './actions/automation/Automation.resource';
import { router } from './actions/router';
import * as templateMessage from './actions/templateMessage/TemplateMessage.resource';
import * as trigger from './actions/trigger/Trigger.resource';
import * as listSearch from './methods/listSearch';

export class Peach implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Peach',
		name: 'peach',
		icon: { light: 'file:../../icons/peach.svg', dark: 'file:../../icons/peach.dark.svg' },
		group: ['output'],
		version: 1,
		subtitle: '={{$parameter["operation"] + ": " + $parameter["resource"]}}',
		description: 'Send WhatsApp template messages and manage automations and triggers with Peach',
		defaults: { name: 'Peach' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'peachMessagingApi', required: true }],
		properties: [
			{
				displayName: 'Resource',
				name: 'resource',
				type: 'options',
				noDataExpression: true,
				options: [
					{ name: 'Automation', value: 'automation' },
					{ name: 'Template Message', value: 'templateMessage' },
					{ name: 'Trigger', value: 'trigger' },
				],
				default: 'templateMessage',
			},
			...automation.description,
			...templateMessage.description,
			...trigger.description,
		],
	};

	methods = {
		listSearch: {
			searchAutomations: listSearch.searchAutomations,
			searchTemplates: listSearch.searchTemplates,
			searchTriggers: listSearch.searchTriggers,
		},
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await router.call(this);
	}
}
