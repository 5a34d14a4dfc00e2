import type {
	IDataObject,
	ILoadOptionsFunctions,
	INodeListSearchItems,
	INodeListSearchResult,
} from 'n8n-workflow';

import { isPlainObject } from '../../helpers/json';
import { matches, searchPage, text } from './page';

/** A conversation as the list shows it: the contact's name and number, and the status. */
export function conversationListItem(conversation: IDataObject): INodeListSearchItems {
	const contact = isPlainObject(conversation.contact) ? conversation.contact : {};
	const who = [text(contact.name), text(contact.phone_number)].filter(Boolean).join(' ');
	const status = text(conversation.status);
	const label = who || text(conversation.id);
	return { name: status ? `${label} (${status})` : label, value: text(conversation.id) };
}

export async function searchConversations(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	return await searchPage(
		this,
		{ method: 'GET', path: '/conversations' },
		['conversations'],
		paginationToken,
		(conversation) => {
			const item = conversationListItem(conversation);
			return matches(filter, item.name, String(item.value)) ? item : undefined;
		},
	);
}
