import type {
	IDataObject,
	ILoadOptionsFunctions,
	INodeListSearchItems,
	INodeListSearchResult,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { SearchListMethod } from '../../descriptions/locator';
import { isPlainObject } from '../../helpers/json';
import { componentsOf } from '../../helpers/templateVariables';
import type { PeachRequest } from '../../transport/types';
import { searchPage, text } from './page';
import { apiPath, segment } from '../../transport/path';

/** How one kind of record is listed for a resource locator. */
interface ListKind {
	/** The list request; may read another parameter of the node (the triggers of an automation). */
	request(context: ILoadOptionsFunctions): PeachRequest;
	/** Where the records are in Peach's answer. */
	itemsKey: string[];
	/** The record's label: its name and, in brackets, what tells it apart. */
	name(record: IDataObject): string;
	/** The texts the typed filter is looked for in; by default the label and the ID. */
	searchIn?(record: IDataObject): string[];
	/** Only the records a user may pick here (e.g. approved templates, to send). */
	keep?(record: IDataObject): boolean;
}

/** "name (details)", or the name alone. */
const labelled = (name: string, ...details: string[]) => {
	const shown = details.filter(Boolean).join(', ');
	return shown ? `${name} (${shown})` : name;
};

/** How long a template's body may be in its list entry (the list shows one line). */
const BODY_SHOWN = 80;

/**
 * A template's body as its list entry shows it, so a user picks by what the message says: the
 * variables as {{name}} (without Peach's example), on one line, cut to BODY_SHOWN characters.
 */
function bodyOf(template: IDataObject): string {
	const body = componentsOf(template).find((component) => component.component_type === 'body');
	const line = text(body?.value)
		.replace(/\{\{\s*([A-Za-z_][\w.]*|\d+)\s*\|[^}]*\}\}/g, '{{$1}}')
		.replace(/\s+/g, ' ')
		.trim();
	return line.length > BODY_SHOWN ? `${line.slice(0, BODY_SHOWN - 1)}…` : line;
}

/** "welcome (en, approved) · Hi {{first_name}}, welcome!": name, language, status, then the body. */
const templateName = (template: IDataObject) => {
	const label = labelled(
		text(template.template_name) || text(template.name) || text(template.id),
		text(template.language),
		text(template.status),
	);
	const body = bodyOf(template);
	return body ? `${label} · ${body}` : label;
};
const templates: Omit<ListKind, 'keep'> = {
	request: () => ({ method: 'GET', path: apiPath`/whats_app_templates/` }),
	itemsKey: ['whats_app_templates', 'templates'],
	name: templateName,
	searchIn: (template) => [
		text(template.template_name),
		text(template.name),
		text(template.id),
		bodyOf(template),
	],
};

/**
 * One row per list search a locator names (the type makes a missing one a compile error). Peach
 * filters none of these lists itself: each page is filtered here, one request per page.
 */
const LISTS: Record<SearchListMethod, ListKind> = {
	searchAllTemplates: templates,
	// Only approved templates can be sent.
	searchTemplates: {
		...templates,
		keep: (template) => text(template.status).toLowerCase() === 'approved',
	},
	searchAutomations: {
		request: () => ({ method: 'GET', path: apiPath`/streams` }),
		itemsKey: ['streams', 'automations'],
		name: (automation) =>
			labelled(text(automation.name) || text(automation.id), text(automation.status)),
		searchIn: (automation) => [text(automation.name), text(automation.id)],
	},
	searchBroadcasts: {
		request: () => ({ method: 'GET', path: apiPath`/broadcasts` }),
		itemsKey: ['broadcasts', 'campaigns'],
		name: (broadcast) =>
			labelled(text(broadcast.name) || text(broadcast.id), text(broadcast.status)),
		searchIn: (broadcast) => [text(broadcast.name), text(broadcast.id)],
	},
	searchConditions: {
		request: () => ({ method: 'GET', path: apiPath`/expressions` }),
		itemsKey: ['expressions'],
		name: (expression) =>
			labelled(
				text(expression.description) || text(expression.name) || text(expression.id),
				text(expression.source),
			),
		searchIn: (expression) => [
			text(expression.description),
			text(expression.topic),
			text(expression.id),
		],
	},
	searchConversations: {
		request: () => ({ method: 'GET', path: apiPath`/conversations` }),
		itemsKey: ['conversations'],
		// The contact's name and number, and the status.
		name: (conversation) => {
			const contact = isPlainObject(conversation.contact) ? conversation.contact : {};
			const who = [text(contact.name), text(contact.phone_number)].filter(Boolean).join(' ');
			return labelled(who || text(conversation.id), text(conversation.status));
		},
	},
	searchMedias: {
		request: () => ({ method: 'GET', path: apiPath`/medias` }),
		itemsKey: ['medias'],
		name: (media) =>
			labelled(
				text(media.filename) || text(media.media_url) || text(media.id),
				text(media.content_type),
			),
		searchIn: (media) => [text(media.filename), text(media.id), text(media.media_url)],
	},
	// The triggers of the automation chosen in the same node.
	searchTriggers: {
		request: (context) => {
			const automationId = text(
				context.getCurrentNodeParameter('automationId', { extractValue: true }),
			);
			if (!automationId) {
				throw new NodeOperationError(context.getNode(), 'Choose an automation first', {
					description:
						'The trigger list shows the triggers of the automation selected in "Automation".',
				});
			}
			return {
				method: 'GET',
				path: apiPath`/streams/${segment('Automation', automationId)}/triggers`,
				notFound: { label: 'Automation', id: automationId },
			};
		},
		itemsKey: ['triggers'],
		name: (trigger) => {
			const condition = isPlainObject(trigger.condition) ? trigger.condition : {};
			const id = text(trigger.id);
			const label = text(trigger.description) || text(trigger.name) || text(condition.topic) || id;
			return labelled(label, text(trigger.status), label === id ? '' : id);
		},
	},
};

/** Whether any of the values contains the typed filter, ignoring case. */
function matches(filter: string | undefined, values: string[]): boolean {
	if (!filter) return true;
	const needle = filter.toLowerCase();
	return values.some((value) => value.toLowerCase().includes(needle));
}

function searchOf(kind: ListKind) {
	return async function (
		this: ILoadOptionsFunctions,
		filter?: string,
		paginationToken?: string,
	): Promise<INodeListSearchResult> {
		return await searchPage(
			this,
			kind.request(this),
			kind.itemsKey,
			paginationToken,
			(record): INodeListSearchItems | undefined => {
				if (kind.keep && !kind.keep(record)) return undefined;
				const item = { name: kind.name(record), value: text(record.id) };
				const searched = kind.searchIn?.(record) ?? [item.name, item.value];
				return matches(filter, searched) ? item : undefined;
			},
		);
	};
}

/** Every list search of the node's locators, from the table above. */
export const listSearch = Object.fromEntries(
	Object.entries(LISTS).map(([method, kind]) => [method, searchOf(kind)]),
) as Record<SearchListMethod, ReturnType<typeof searchOf>>;
