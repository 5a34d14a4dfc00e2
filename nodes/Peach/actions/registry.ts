import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { automation } from './automation/Automation.resource';
import { automationTrigger } from './automationTrigger/AutomationTrigger.resource';
import { broadcast } from './broadcast/Broadcast.resource';
import { conditionLibrary } from './conditionLibrary/ConditionLibrary.resource';
import { contact } from './contact/Contact.resource';
import { conversation } from './conversation/Conversation.resource';
import { media } from './media/Media.resource';
import type { PeachOperation, ResourceDefinition } from './operation/node.type';
import type { RequestOptionsKind } from '../descriptions/fields';
import { dryRunField, requestOptionsField } from '../descriptions/fields';
import { order } from './order/Order.resource';
import { templateMessage } from './templateMessage/TemplateMessage.resource';
import { whatsAppTemplate } from './whatsAppTemplate/WhatsAppTemplate.resource';

/**
 * The one list of resources. Adding a resource is its folder plus one line here: the Resource and
 * Operation dropdowns, the fields and the router all come from this object.
 */
export const registry = {
	automation,
	automationTrigger,
	broadcast,
	conditionLibrary,
	contact,
	conversation,
	media,
	order,
	templateMessage,
	whatsAppTemplate,
} satisfies Record<string, ResourceDefinition>;

export type PeachResource = keyof typeof registry;

export const DEFAULT_RESOURCE: PeachResource = 'templateMessage';

/**
 * What a newcomer meets first: n8n's editor lists a node's actions in the order of the Resource
 * list, then of each Operation list, and gives a community node's actions no search box (n8n
 * 2.40.7, nodeCreator.utils.ts: hasSearch false). So the package's main action, Template Message →
 * Send (then Send and Wait), leads; every other resource and operation follows sorted by name,
 * as n8n's lint asks. n8n's own nodes lead with their main resource the same way (WhatsApp Business
 * Cloud: Message before Media; Gmail v2: Message, Label, Draft, Thread; Todoist v2: Task first).
 */
const FIRST: { resource: PeachResource; operations: string[] } = {
	resource: DEFAULT_RESOURCE,
	operations: ['send', 'sendAndWait'],
};

/** Sorted by name, with `first` (in its order) ahead of the rest. */
function firstThenByName<T>(
	entries: T[],
	key: (entry: T) => string,
	name: (entry: T) => string,
	first: string[],
) {
	const rank = (entry: T) => {
		const at = first.indexOf(key(entry));
		return at === -1 ? first.length : at;
	};
	return [...entries].sort((a, b) => rank(a) - rank(b) || name(a).localeCompare(name(b)));
}

function requestOptionsKindOf(operation: PeachOperation): RequestOptionsKind {
	if ('delivers' in operation && operation.delivers === true) return 'delivering';
	return 'batch' in operation && operation.batch === true ? 'batch' : 'perItem';
}

/**
 * A resource's Operation dropdown (the main action first, see FIRST; the rest sorted by name, as
 * n8n's guidelines ask), then its operations' fields.
 */
function operationProperties(value: string, resource: ResourceDefinition): INodeProperties[] {
	const operations = Object.values(resource.operations);
	const defaultOperation = resource.defaultOperation;
	const properties: INodeProperties[] = [
		{
			displayName: 'Operation',
			name: 'operation',
			type: 'options',
			noDataExpression: true,
			displayOptions: { show: { resource: [value] } },
			options: firstThenByName(
				operations.map((operation) => operation.option),
				(option) => option.value,
				(option) => option.name,
				value === FIRST.resource ? FIRST.operations : [],
			),
			default: defaultOperation,
		},
	];
	for (const operation of operations) {
		properties.push(
			...updateDisplayOptions(
				{ show: { resource: [value], operation: [operation.option.value] } },
				operation.properties,
			),
		);
	}
	return properties;
}

/**
 * A resource's Request Options, one per kind. Max Concurrent Requests acts where one request is made
 * per item (or per delivery); a batch operation (all items in one request) has Timeout only;
 * operations that deliver also have Send Again If Outcome Unknown.
 */
function requestOptionsProperties(value: string, resource: ResourceDefinition): INodeProperties[] {
	const byKind = new Map<RequestOptionsKind, string[]>();
	for (const operation of Object.values(resource.operations)) {
		const kind = requestOptionsKindOf(operation);
		byKind.set(kind, [...(byKind.get(kind) ?? []), operation.option.value]);
	}
	return [...byKind].map(([kind, operations]) =>
		requestOptionsField(kind, { show: { resource: [value], operation: operations } }),
	);
}

/** Dry Run, on the resource's operations that can preview what they send (none: nothing). */
function dryRunProperties(value: string, resource: ResourceDefinition): INodeProperties[] {
	const operations = Object.entries(resource.operations)
		.filter(([, operation]) => 'preview' in operation && operation.preview !== undefined)
		.map(([name]) => name);
	if (!operations.length) return [];
	return [dryRunField({ show: { resource: [value], operation: operations } })];
}

/**
 * The node's properties: the Resource dropdown, then for each resource its Operation dropdown and its
 * operations' fields, then Dry Run (where an operation previews what it sends), then each resource's
 * Request Options.
 */
export function nodeProperties(): INodeProperties[] {
	const entries = firstThenByName(
		Object.entries(registry as Record<string, ResourceDefinition>),
		([value]) => value,
		([, resource]) => resource.displayName,
		[FIRST.resource],
	);
	return [
		{
			displayName: 'Resource',
			name: 'resource',
			type: 'options',
			noDataExpression: true,
			options: entries.map(([value, resource]) => ({ name: resource.displayName, value })),
			default: DEFAULT_RESOURCE,
		},
		...entries.flatMap(([value, resource]) => operationProperties(value, resource)),
		...entries.flatMap(([value, resource]) => dryRunProperties(value, resource)),
		...entries.flatMap(([value, resource]) => requestOptionsProperties(value, resource)),
	];
}
