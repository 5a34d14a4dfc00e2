import type { INodeProperties } from 'n8n-workflow';

/**
 * The kinds of Peach record a user picks, each with its list search and ID example. One factory
 * makes every resource locator ("From List" first and default, then "By ID"); the list search
 * methods it names are implemented in methods/listSearch, and the compiler checks that each exists.
 */
export const LOCATOR_KINDS = {
	allTemplates: {
		displayName: 'Template',
		name: 'templateId',
		searchListMethod: 'searchAllTemplates',
		idExample: 'wat_1234abcd',
		description: 'A WhatsApp template in any status. By ID also takes the template name.',
	},
	automation: {
		displayName: 'Automation',
		name: 'automationId',
		searchListMethod: 'searchAutomations',
		idExample: 'strm_1234abcd',
		description: 'A Peach automation (stream)',
	},
	broadcast: {
		displayName: 'Broadcast',
		name: 'broadcastId',
		searchListMethod: 'searchBroadcasts',
		idExample: 'cmp_1234abcd',
		description: 'A Peach broadcast',
	},
	condition: {
		displayName: 'Condition',
		name: 'conditionId',
		searchListMethod: 'searchConditions',
		idExample: 'exp_1234abcd or Order Paid',
		description: 'An expression from the condition library',
		/** By ID also takes the condition's friendly name, which has spaces. */
		anyText: true,
	},
	conversation: {
		displayName: 'Conversation',
		name: 'conversationId',
		searchListMethod: 'searchConversations',
		idExample: 'conv_1234abcd',
		description: 'A conversation with a contact',
	},
	media: {
		displayName: 'Media',
		name: 'mediaId',
		searchListMethod: 'searchMedias',
		idExample: '101',
		description: 'An uploaded media file',
	},
	template: {
		displayName: 'Template',
		name: 'templateId',
		searchListMethod: 'searchTemplates',
		idExample: 'wat_1234abcd',
		description: 'An approved WhatsApp template',
	},
	trigger: {
		displayName: 'Trigger',
		name: 'triggerId',
		searchListMethod: 'searchTriggers',
		idExample: 'trig_1234abcd',
		description: 'A trigger of the automation chosen above',
	},
} as const;

export type LocatorKind = keyof typeof LOCATOR_KINDS;
export type SearchListMethod = (typeof LOCATOR_KINDS)[LocatorKind]['searchListMethod'];

/** A resource locator for `kind`; `overrides` changes the name, label, description or required. */
export function locator(
	kind: LocatorKind,
	overrides: Partial<INodeProperties> = {},
): INodeProperties {
	const spec = LOCATOR_KINDS[kind];
	const label = spec.displayName.toLowerCase();
	const anyText = 'anyText' in spec && spec.anyText;
	return {
		displayName: spec.displayName,
		name: spec.name,
		type: 'resourceLocator',
		default: { mode: 'list', value: '' },
		description: spec.description,
		modes: [
			{
				displayName: 'From List',
				name: 'list',
				type: 'list',
				placeholder: `Select ${/^[aeiou]/.test(label) ? 'an' : 'a'} ${label}...`,
				typeOptions: { searchListMethod: spec.searchListMethod, searchable: true },
			},
			{
				displayName: 'By ID',
				name: 'id',
				type: 'string',
				placeholder: `e.g. ${spec.idExample}`,
				validation: anyText
					? []
					: [
							{
								type: 'regex',
								properties: { regex: '^\\S+$', errorMessage: `A ${label} ID has no spaces` },
							},
						],
			},
		],
		...overrides,
	};
}
