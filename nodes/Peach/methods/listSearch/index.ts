import type { ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';

import type { SearchListMethod } from '../../descriptions/locator';
import { searchAutomations } from './automations';
import { searchBroadcasts } from './broadcasts';
import { searchConditions } from './conditions';
import { searchConversations } from './conversations';
import { searchMedias } from './medias';
import { searchAllTemplates, searchTemplates } from './templates';
import { searchTriggers } from './triggers';

type ListSearch = (
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
) => Promise<INodeListSearchResult>;

/** Every list search a locator names; the type makes a missing one a compile error. */
export const listSearch: Record<SearchListMethod, ListSearch> = {
	searchAllTemplates,
	searchAutomations,
	searchBroadcasts,
	searchConditions,
	searchConversations,
	searchMedias,
	searchTemplates,
	searchTriggers,
};
