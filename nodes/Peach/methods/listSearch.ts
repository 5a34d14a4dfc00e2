import type {
	IDataObject,
	ILoadOptionsFunctions,
	INodeListSearchItems,
	INodeListSearchResult,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { peachApiRequestAllItems } from '../transport';

function text(value: unknown): string {
	return typeof value === 'string' || typeof value === 'number' ? String(value) : '';
}

function matches(filter: string | undefined, ...values: string[]): boolean {
	if (!filter) return true;
	const needle = filter.toLowerCase();
	return values.some((value) => value.toLowerCase().includes(needle));
}

function byName(a: INodeListSearchItems, b: INodeListSearchItems): number {
	return a.name.localeCompare(b.name);
}

/** Label of a template in the list: name, language and status. */
export function templateListItem(template: IDataObject): INodeListSearchItems {
	const name = text(template.template_name) || text(template.name) || text(template.id);
	const details = [text(template.language), text(template.status)].filter(Boolean).join(', ');
	return { name: details ? `${name} (${details})` : name, value: text(template.id) };
}

/** Only approved templates can be sent, so the list offers only those. */
export async function searchTemplates(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	const templates = await peachApiRequestAllItems.call(
		this,
		{ method: 'GET', path: '/whats_app_templates/' },
		{ itemsKey: ['whats_app_templates', 'templates'] },
	);
	const results = templates
		.filter((template) => text(template.status).toLowerCase() === 'approved')
		.filter((template) =>
			matches(filter, text(template.template_name), text(template.name), text(template.id)),
		)
		.map(templateListItem)
		.sort(byName);
	return { results };
}

export function automationListItem(automation: IDataObject): INodeListSearchItems {
	const name = text(automation.name) || text(automation.id);
	const status = text(automation.status);
	return { name: status ? `${name} (${status})` : name, value: text(automation.id) };
}

export async function searchAutomations(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	const automations = await peachApiRequestAllItems.call(
		this,
		{ method: 'GET', path: '/streams' },
		{ itemsKey: ['streams', 'automations'] },
	);
	const results = automations
		.filter((automation) => matches(filter, text(automation.name), text(automation.id)))
		.map(automationListItem)
		.sort(byName);
	return { results };
}

export function triggerListItem(trigger: IDataObject): INodeListSearchItems {
	const condition = trigger.condition as IDataObject | undefined;
	const label =
		text(trigger.description) ||
		text(trigger.name) ||
		(condition && typeof condition === 'object' ? text(condition.topic) : '') ||
		text(trigger.id);
	const status = text(trigger.status);
	const id = text(trigger.id);
	const suffix = [status, label === id ? '' : id].filter(Boolean).join(', ');
	return { name: suffix ? `${label} (${suffix})` : label, value: id };
}

export async function searchTriggers(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	const automationId = text(this.getCurrentNodeParameter('automationId', { extractValue: true }));
	if (!automationId) {
		throw new NodeOperationError(this.getNode(), 'Choose an automation first', {
			description:
				'The trigger list shows the triggers of the automation selected in "Automation".',
		});
	}
	const triggers = await peachApiRequestAllItems.call(
		this,
		{
			method: 'GET',
			path: `/streams/${encodeURIComponent(automationId)}/triggers`,
			notFound: { label: 'Automation', id: automationId },
		},
		{ itemsKey: ['triggers'] },
	);
	const results = triggers
		.map(triggerListItem)
		.filter((item) => matches(filter, item.name, String(item.value)))
		.sort(byName);
	return { results };
}
