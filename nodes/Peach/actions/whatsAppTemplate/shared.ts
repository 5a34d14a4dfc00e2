import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { locator } from '../../descriptions/locator';
import { outputOf } from '../../helpers/payload';
import { splitAtPlaceholders } from '../../helpers/templateVariables';
import { apiPath, segment } from '../../transport/path';
import { peachApiRequest } from '../../transport/request';
import { locatorValueOf } from '../itemParameters';
import type { ItemResult } from '../node.type';

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

export const CATEGORIES = ['AUTHENTICATION', 'MARKETING', 'UTILITY'];

export const categoryOptions = [
	{ name: 'Authentication', value: 'AUTHENTICATION' },
	{ name: 'Marketing', value: 'MARKETING' },
	{ name: 'Utility', value: 'UTILITY' },
];

/** Has a letter or a digit: a text around variables that is more than spaces and punctuation. */
const WORDY = /[\p{L}\p{N}]/u;

/**
 * What Meta's review rejects in a body's variables, as its guidelines (and Twilio's error 63040) say:
 * a body that starts or ends with a variable (punctuation alone does not count as text), or two
 * variables with only spaces between them. Pure.
 */
export function bodyVariableProblems(text: string): string[] {
	const { texts, names } = splitAtPlaceholders(text);
	if (names.length === 0) return [];
	const problems: string[] = [];
	if (!WORDY.test(texts[0]))
		problems.push(
			`Body starts with the variable {{${names[0]}}}; Meta rejects a body that starts with a variable: put words before it (e.g. "Hello {{${names[0]}}}")`,
		);
	if (!WORDY.test(texts[texts.length - 1]))
		problems.push(
			`Body ends with the variable {{${names[names.length - 1]}}}; Meta rejects a body that ends with a variable: put words after it (e.g. "{{${names[names.length - 1]}}} Thank you.")`,
		);
	for (let index = 1; index < names.length; index++) {
		if (texts[index].trim() === '')
			problems.push(
				`Body has {{${names[index - 1]}}} and {{${names[index]}}} side by side; Meta rejects variables with nothing between them: put words between them`,
			);
	}
	return problems;
}

/**
 * Whether a body has few words for its variables: template providers observe that Meta's review
 * rejects a body with fewer than 2n + 1 words besides its n variables. Not a published rule of Meta's,
 * so a hint, not a refusal. Pure.
 */
export function bodyWordsHint(text: string): string | undefined {
	const { texts, names } = splitAtPlaceholders(text);
	if (names.length === 0) return undefined;
	const words = texts
		.join(' ')
		.split(/\s+/)
		.filter((word) => WORDY.test(word)).length;
	const needed = 2 * names.length + 1;
	return words < needed
		? `The body has ${names.length} variable${names.length === 1 ? '' : 's'} and ${words} other word${words === 1 ? '' : 's'}. Meta's review often rejects a template with too many variables for its length (providers observe at least ${needed} words for ${names.length}): add words, or use fewer variables.`
		: undefined;
}

const hinted = new WeakMap<object, Set<string>>();

/**
 * Shows a warning about a template's text under the node's output (an execution hint), once per
 * run of the node however many items have it. The request is made: Meta's review has the last word.
 */
export function hintOnce(context: IExecuteFunctions, message: string): void {
	const shown = hinted.get(context) ?? new Set<string>();
	hinted.set(context, shown);
	if (shown.has(message)) return;
	shown.add(message);
	context.addExecutionHints?.({ message, location: 'outputPane' });
}
