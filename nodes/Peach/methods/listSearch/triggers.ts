import type {
	IDataObject,
	ILoadOptionsFunctions,
	INodeListSearchItems,
	INodeListSearchResult,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { isPlainObject } from '../../helpers/json';
import { matches, searchPage, text } from './page';

export function triggerListItem(trigger: IDataObject): INodeListSearchItems {
	const condition = trigger.condition;
	const label =
		text(trigger.description) ||
		text(trigger.name) ||
		(isPlainObject(condition) ? text(condition.topic) : '') ||
		text(trigger.id);
	const status = text(trigger.status);
	const id = text(trigger.id);
	const suffix = [status, label === id ? '' : id].filter(Boolean).join(', ');
	return { name: suffix ? `${label} (${suffix})` : label, value: id };
}

/** The triggers of the automation chosen in the same node. */
export async function searchTriggers(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	const automationId = text(this.getCurrentNodeParameter('automationId', { extractValue: true }));
	if (!automationId) {
		throw new NodeOperationError(this.getNode(), 'Choose an automation first', {
			description:
				'The trigger list shows the triggers of the automation selected in "Automation".',
		});
	}
	return await searchPage(
		this,
		{
			method: 'GET',
			path: `/streams/${encodeURIComponent(automationId)}/triggers`,
			notFound: { label: 'Automation', id: automationId },
		},
		['triggers'],
		paginationToken,
		(trigger) => {
			const item = triggerListItem(trigger);
			return matches(filter, item.name, String(item.value)) ? item : undefined;
		},
	);
}
