import type {
	IDataObject,
	ILoadOptionsFunctions,
	INodeListSearchItems,
	INodeListSearchResult,
} from 'n8n-workflow';

import { matches, searchPage, text } from './page';

/** Label of a template in the list: name, language and status. */
export function templateListItem(template: IDataObject): INodeListSearchItems {
	const name = text(template.template_name) || text(template.name) || text(template.id);
	const details = [text(template.language), text(template.status)].filter(Boolean).join(', ');
	return { name: details ? `${name} (${details})` : name, value: text(template.id) };
}

/**
 * Only approved templates can be sent, so the list offers only those. Peach has no server-side
 * filter for templates: each page is filtered here.
 */
export async function searchTemplates(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	return await searchPage(
		this,
		{ method: 'GET', path: '/whats_app_templates/' },
		['whats_app_templates', 'templates'],
		paginationToken,
		(template) =>
			text(template.status).toLowerCase() === 'approved' &&
			matches(filter, text(template.template_name), text(template.name), text(template.id))
				? templateListItem(template)
				: undefined,
	);
}

/** Every template, whatever its status (for managing templates rather than sending them). */
export async function searchAllTemplates(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	return await searchPage(
		this,
		{ method: 'GET', path: '/whats_app_templates/' },
		['whats_app_templates', 'templates'],
		paginationToken,
		(template) =>
			matches(filter, text(template.template_name), text(template.name), text(template.id))
				? templateListItem(template)
				: undefined,
	);
}
