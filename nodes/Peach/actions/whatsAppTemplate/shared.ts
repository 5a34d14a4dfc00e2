import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { locator } from '../../descriptions/locator';
import { outputOf } from '../../helpers/payload';
import { perExecution } from '../../helpers/perExecution';
import { apiPath, segment } from '../../transport/path';
import { peachApiRequest } from '../../transport/request';
import { locatorValueOf } from '../item/itemParameters';
import type { ItemResult } from '../operation/node.type';

/** The template locator of this resource: every template, in any status; By ID also takes the name. */
export const templateLocator: INodeProperties = locator('allTemplates', { required: true });

export function templateIdOf(context: IExecuteFunctions, itemIndex: number): string {
	return locatorValueOf(
		context,
		itemIndex,
		'templateId',
		'Template',
		'Pick a template From List, or enter its ID or name By ID (e.g. wat_1234abcd or order_update).',
	);
}

/** `PATCH /api/v1/whats_app_templates/{id}/<action>` (archive, pause, submit) with an empty JSON body. */
export async function changeTemplate(
	context: IExecuteFunctions,
	itemIndex: number,
	action: 'archive' | 'pause' | 'submit',
): Promise<ItemResult> {
	const id = templateIdOf(context, itemIndex);
	return outputOf(
		await peachApiRequest.call(context, {
			method: 'PATCH',
			path: apiPath`/whats_app_templates/${segment('Template', id)}/${segment('Action', action)}`,
			body: {},
			itemIndex,
			notFound: { label: 'Template', id },
		}),
	);
}

export const categoryOptions = [
	{ name: 'Authentication', value: 'AUTHENTICATION' },
	{ name: 'Marketing', value: 'MARKETING' },
	{ name: 'Utility', value: 'UTILITY' },
];

const hintsShown = perExecution((): Set<string> => new Set());

/**
 * Shows a warning about a template's text under the node's output (an execution hint), once per
 * run of the node however many items have it. The request is made: Meta's review has the last word.
 */
export function hintOnce(context: IExecuteFunctions, message: string): void {
	const shown = hintsShown(context);
	if (shown.has(message)) return;
	shown.add(message);
	context.addExecutionHints?.({ message, location: 'outputPane' });
}
