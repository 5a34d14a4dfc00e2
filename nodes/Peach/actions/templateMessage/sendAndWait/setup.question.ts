import { requireText } from '../../../helpers/fields';
import { PeachInputError } from '../../../helpers/inputError';
import type { ItemVariables } from '../../item/itemParameters';
import { locatorValueOf, variablesOfItem } from '../../item/itemParameters';
import type { Reading } from './setup.reading';

/**
 * Send and Wait's question as the item gives it (setup.ts's first step): the template, where the
 * link goes, the link and message variables, the message and the other variables.
 */

/** The link's place in the template. */
const LINK_PLACEMENTS = ['variable', 'urlButton'];

/** Link Placement: one of its choices. */
function placementOf(value: string): string {
	if (LINK_PLACEMENTS.includes(value)) return value;
	throw new PeachInputError(
		'Link Placement',
		value,
		'is not a choice',
		'Choose In a Template Variable or In a URL Button.',
	);
}

/** The variables the node fills itself: given by the user, they would be overwritten. */
function filledByTheNode(
	variables: ItemVariables,
	names: { link?: string; message?: string },
): PeachInputError[] {
	return Object.entries(names)
		.filter(([, name]) => name && Object.prototype.hasOwnProperty.call(variables.values, name))
		.map(
			([role, name]) =>
				new PeachInputError(
					variables.field,
					name,
					'is filled by the node',
					`Remove ${name} from ${variables.field}: the node puts the ${role === 'link' ? 'answer link' : 'message'} there.`,
				),
		);
}

/**
 * The Other Template Variables, none of them one the node fills (`filled`: the link and message
 * variables); what was refused is noted.
 */
async function otherVariablesOf(
	{ context, itemIndex, problems }: Reading,
	filled: { link?: string; message: string },
): Promise<ItemVariables | undefined> {
	const variables = await problems.note(() =>
		variablesOfItem(context, itemIndex, 'Other Template Variables'),
	);
	if (variables) {
		problems.list.push(...filledByTheNode(variables, filled));
		// A field the variable list still shows for them (read before they were chosen) is not theirs.
		variables.empty = variables.empty.filter(
			(name) => name !== filled.link && name !== filled.message,
		);
	}
	return variables;
}

/** The question as the item gives it; what was refused is noted, and undefined here. */
export interface Question {
	templateId?: string;
	placement?: string;
	linkVariable?: string;
	/** Empty for None: the message then shows on the answer page only. */
	messageVariable: string;
	message?: string;
	variables?: ItemVariables;
}

/**
 * The item's question: the template, where the link goes, the link and message variables, the message
 * and the other variables (none of them one the node fills).
 */
export async function readQuestion(reading: Reading): Promise<Question> {
	const { context, itemIndex, read, problems } = reading;
	const templateId = await problems.note(() =>
		locatorValueOf(
			context,
			itemIndex,
			'templateId',
			'Template',
			'Pick an approved template From List, or enter its ID By ID (e.g. wat_1234abcd).',
		),
	);
	const placement = await problems.note(() =>
		placementOf(read('linkPlacement', 'variable') as string),
	);
	const linkVariable = await problems.note(() =>
		requireText(
			'Link Variable',
			read('linkVariable', 'approval_link'),
			'Pick the template variable that carries the link, e.g. approval_link.',
		),
	);
	const messageVariable = String(read('messageVariable', '') ?? '').trim();
	const message = await problems.note(() =>
		requireText(
			'Message',
			read('message', ''),
			'Write the question, e.g. Approve the refund of ₹1,200 for order A-7?',
		),
	);
	const variables = await otherVariablesOf(reading, {
		link: linkVariable,
		message: messageVariable,
	});
	return { templateId, placement, linkVariable, messageVariable, message, variables };
}
