import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { nodeProperties, subtitleExpression } from './actions/registry';
import { router } from './actions/router';
import { listSearch } from './methods/listSearch';
import { resourceMapping } from './methods/resourceMapping';

export class Peach implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Peach',
		name: 'peach',
		icon: { light: 'file:../../icons/peach.svg', dark: 'file:../../icons/peach.dark.svg' },
		group: ['output'],
		version: 1,
		subtitle: subtitleExpression(),
		description:
			'Send WhatsApp template messages and broadcasts, manage templates, automations and triggers with Peach',
		defaults: { name: 'Peach' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'peachMessagingApi', required: true }],
		properties: nodeProperties(),
	};

	methods = { listSearch, resourceMapping };

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await router.call(this);
	}
}
