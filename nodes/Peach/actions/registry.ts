import type { INodeProperties } from 'n8n-workflow';

import { automation } from './automation/Automation.resource';
import { broadcast } from './broadcast/Broadcast.resource';
import { conditionLibrary } from './conditionLibrary/ConditionLibrary.resource';
import { contact } from './contact/Contact.resource';
import { conversation } from './conversation/Conversation.resource';
import { media } from './media/Media.resource';
import type { ResourceDefinition } from './node.type';
import { requestOptionsField } from '../descriptions/fields';
import { order } from './order/Order.resource';
import { templateMessage } from './templateMessage/TemplateMessage.resource';
import { trigger } from './trigger/Trigger.resource';
import { whatsAppTemplate } from './whatsAppTemplate/WhatsAppTemplate.resource';

/**
 * The one list of resources. Adding a resource is its folder plus one line here: the Resource and
 * Operation dropdowns, the fields and the router all come from this object.
 */
export const registry = {
	automation,
	broadcast,
	conditionLibrary,
	contact,
	conversation,
	media,
	order,
	templateMessage,
	trigger,
	whatsAppTemplate,
} satisfies Record<string, ResourceDefinition>;

export type PeachResource = keyof typeof registry;

export const DEFAULT_RESOURCE: PeachResource = 'templateMessage';

/**
 * The node's properties: the Resource dropdown, then for each resource its Operation dropdown
 * (options sorted by name, as n8n's guidelines ask) and its operations' fields.
 */
export function nodeProperties(): INodeProperties[] {
	const entries = Object.entries(registry as Record<string, ResourceDefinition>).sort(
		([, a], [, b]) => a.displayName.localeCompare(b.displayName),
	);
	const properties: INodeProperties[] = [
		{
			displayName: 'Resource',
			name: 'resource',
			type: 'options',
			noDataExpression: true,
			options: entries.map(([value, resource]) => ({ name: resource.displayName, value })),
			default: DEFAULT_RESOURCE,
		},
	];
	for (const [value, resource] of entries) {
		const operations = Object.values(resource.operations);
		const defaultOperation = resource.defaultOperation;
		properties.push({
			displayName: 'Operation',
			name: 'operation',
			type: 'options',
			noDataExpression: true,
			displayOptions: { show: { resource: [value] } },
			options: operations
				.map((operation) => operation.option)
				.sort((a, b) => a.name.localeCompare(b.name)),
			default: defaultOperation,
		});
		for (const operation of operations) properties.push(...operation.description);
	}
	properties.push(requestOptionsField);
	return properties;
}

/**
 * The node's subtitle: "Send: Template Message", from the registry's names (an expression n8n
 * evaluates in the editor; an unknown pair shows the raw values).
 */
export function subtitleExpression(): string {
	const names: Record<string, string> = {};
	for (const [value, resource] of Object.entries(registry as Record<string, ResourceDefinition>)) {
		for (const operation of Object.values(resource.operations)) {
			names[`${value}.${operation.option.value}`] =
				`${operation.option.name}: ${resource.displayName}`;
		}
	}
	return `={{ ${JSON.stringify(names)}[$parameter["resource"] + "." + $parameter["operation"]] || $parameter["operation"] + ": " + $parameter["resource"] }}`;
}
