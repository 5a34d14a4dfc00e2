import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { templateOf } from '../../../api/templates';
import { isSet, requireText } from '../../../helpers/fields';
import { PeachInputError } from '../../../helpers/inputError';
import { isPlainObject, setOwn } from '../../../helpers/json';
import { linkVariablesOf } from '../../../helpers/templateVariables';
import { recipientOfEvent } from '../../../helpers/contact';
import type { ItemVariables } from '../../itemParameters';
import { locatorValueOf, variablesOfItem } from '../../itemParameters';
import { templateProblem } from '../../templateCheck';
import type { TemplateMessagePlan } from '../shared';
import { buildSendTemplateMessageBody } from '../shared';
import { headerMediaOfItem } from '../../headerMedia';
import { readCustomForm } from './form.definition';
import { waitTillOf } from './limit';
import { checkCanRemember, checkReachable, linkValue, makeAnswerLink } from './link';

/**
 * What Send and Wait checks of its setup before it asks (nothing is sent until all is right), and
 * the plan it then sends: every problem of the run is reported at once (the link variable, the
 * message variable, the other variables, the form, the wait), in one error, so a user fixes them in
 * one pass rather than one run each.
 */

/** The link's place in the template. */
const LINK_PLACEMENTS = ['variable', 'urlButton'];

/** A WhatsApp template variable may not hold new lines, tabs or more than 4 spaces in a row (Meta). */
const VARIABLE_MAX_LENGTH = 600;

/** The message as one template variable: no new lines or tabs, no long runs of spaces, not too long. */
export function messageForVariable(message: string): string {
	const line = message
		.replace(/\\n/g, ' ')
		.replace(/[\r\n\t]+/g, ' ')
		.replace(/ {2,}/g, ' ')
		.trim();
	return line.length > VARIABLE_MAX_LENGTH ? `${line.slice(0, VARIABLE_MAX_LENGTH - 1)}…` : line;
}

/**
 * One Send and Wait, read and checked: the request body, its header file, when the wait ends, and
 * the wait the answer link belongs to (its ID, and who is asked).
 */
export interface WaitPlan extends TemplateMessagePlan {
	waitTill: Date;
	waitId: string;
	who: string;
	/** What the link variable holds (the link, or its part after the waiting-webhook address). */
	linkValue: string;
}

type Refusal = PeachInputError | NodeOperationError | NodeApiError;

/** The refusals of one item's setup, gathered instead of thrown one at a time. */
class Problems {
	readonly list: Refusal[] = [];

	constructor(private readonly context: IExecuteFunctions) {}

	/** Runs `check`; what it refuses is noted, not thrown. */
	async note<T>(check: () => T | Promise<T>): Promise<T | undefined> {
		try {
			return await check();
		} catch (error) {
			this.list.push(
				error instanceof PeachInputError ||
					error instanceof NodeOperationError ||
					error instanceof NodeApiError
					? error
					: new NodeOperationError(this.context.getNode(), error as Error),
			);
			return undefined;
		}
	}

	/** All of them as one refusal (one alone as it is). */
	refusal(context: IExecuteFunctions, itemIndex: number): Error | undefined {
		const [first, ...others] = this.list;
		if (!first) return undefined;
		if (others.length === 0) return first;
		const line = (error: Refusal, index: number) =>
			`${index + 1}) ${error.message}${
				error instanceof PeachInputError
					? `: ${error.fix}`
					: error.description
						? `: ${error.description}`
						: ''
			}`;
		return new NodeOperationError(
			context.getNode(),
			`${first.message} (and ${others.length} more to fix)`,
			{
				description: `Send and Wait checks its whole setup before it asks; fix these ${this.list.length}, then run again. ${this.list.map(line).join(' ')}`,
				itemIndex,
			},
		);
	}
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
 * Reads and checks the item (the one Send and Wait asks for): the template (read from Peach) must
 * have the link's place, the message and link variables are filled by the node, the link is n8n's
 * signed resume URL, and every other variable has a value. All problems are reported at once.
 */
export async function prepareWait(
	context: IExecuteFunctions,
	itemIndex: number,
): Promise<WaitPlan> {
	if (typeof context.getSignedResumeUrl !== 'function') {
		throw new PeachInputError(
			'Send and Wait',
			'this n8n',
			'has no signed resume links',
			'Update n8n to a version this package is tested with (README, Compatibility): n8n 1.123 or 2.40.',
		);
	}
	const problems = new Problems(context);
	const read = (name: string, fallback: unknown) =>
		context.getNodeParameter(name, itemIndex, fallback);
	const templateId = await problems.note(() =>
		locatorValueOf(
			context,
			itemIndex,
			'templateId',
			'Template',
			'Pick an approved template From List, or enter its ID By ID (e.g. wat_1234abcd).',
		),
	);
	const placement = await problems.note(() => {
		const value = read('linkPlacement', 'variable') as string;
		if (LINK_PLACEMENTS.includes(value)) return value;
		throw new PeachInputError(
			'Link Placement',
			value,
			'is not a choice',
			'Choose In a Template Variable or In a URL Button.',
		);
	});
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
	const variables = await problems.note(() =>
		variablesOfItem(context, itemIndex, 'Other Template Variables'),
	);
	if (variables) {
		problems.list.push(
			...filledByTheNode(variables, { link: linkVariable, message: messageVariable }),
		);
		// A field the variable list still shows for them (read before they were chosen) is not theirs.
		variables.empty = variables.empty.filter(
			(name) => name !== linkVariable && name !== messageVariable,
		);
	}
	// The wait and its link: what would make the link useless refuses before any request.
	if (read('responseType', 'approval') === 'customForm')
		await problems.note(() => readCustomForm(read));
	const options = read('options', {}) as IDataObject;
	const waitTill = await problems.note(() =>
		waitTillOf(options.limitWaitTime, context.getTimezone()),
	);
	await problems.note(() => checkCanRemember(context));
	const link = makeAnswerLink(context);
	await problems.note(async () => await checkReachable(context, link));

	const liquidValues: IDataObject = { ...variables?.values };
	let placedLink: string | undefined;
	// Read after the checks above, and noted like them: a template Peach cannot give (not found, no
	// connection) is one more problem of the run, named beside the others.
	const template = templateId
		? await problems.note(async () => await templateOf(context, templateId, itemIndex))
		: undefined;
	if (template) {
		const textVariables = linkVariablesOf(template, 'variable');
		if (messageVariable && !textVariables.includes(messageVariable)) {
			problems.list.push(
				new PeachInputError(
					'Message Variable',
					messageVariable,
					'is not a variable of the template text',
					`Pick the variable that should carry the message${textVariables.length ? ` (the template has ${textVariables.join(', ')})` : ''}, or None: the message then shows on the answer page only.`,
				),
			);
		}
		if (linkVariable && placement) {
			const value = await problems.note(() =>
				linkValue({ template, placement, variable: linkVariable, link }),
			);
			if (value !== undefined) setOwn(liquidValues, linkVariable, value);
			placedLink = value;
		}
	}
	if (messageVariable && message)
		setOwn(liquidValues, messageVariable, messageForVariable(message));
	const body = await problems.note(() => waitBody(context, itemIndex, templateId, liquidValues));
	let headerMedia: TemplateMessagePlan['headerMedia'];
	if (body && templateId && template && variables) {
		headerMedia = await problems.note(
			async () => await headerMediaOfItem(context, itemIndex, templateId, liquidValues),
		);
		const problem = await templateProblem(context, itemIndex, {
			templateId,
			variables: { ...variables, values: liquidValues },
			// The link and message are the node's (a link that did not fit is already a problem).
			filledLater: [
				...(headerMedia ? ['header_media'] : []),
				...[linkVariable, messageVariable].filter((name): name is string => Boolean(name)),
			],
			recipient: recipientOfEvent(body),
		});
		if (problem) problems.list.push(problem);
	}
	const refusal = problems.refusal(context, itemIndex);
	if (refusal || !body || !waitTill || placedLink === undefined)
		throw (
			refusal ??
			new NodeOperationError(context.getNode(), 'Send and Wait could not be set up', { itemIndex })
		);
	return {
		body,
		headerMedia,
		waitTill,
		waitId: link.waitId,
		who: whoIsAsked(body),
		linkValue: placedLink,
	};
}

/** The event body of the question (its link and message already in `liquidValues`). */
function waitBody(
	context: IExecuteFunctions,
	itemIndex: number,
	templateId: string | undefined,
	liquidValues: IDataObject,
): IDataObject {
	const additionalFields = context.getNodeParameter(
		'additionalFields',
		itemIndex,
		{},
	) as IDataObject;
	return buildSendTemplateMessageBody(
		{
			phoneNumber: context.getNodeParameter('phoneNumber', itemIndex),
			templateId: templateId ?? 'unknown',
			liquidValues,
			contactFields: context.getNodeParameter('contactFields', itemIndex, {}) as IDataObject,
			additionalFields: isSet(additionalFields.businessPhoneNumber)
				? { businessPhoneNumber: additionalFields.businessPhoneNumber }
				: {},
		},
		context.getTimezone(),
	);
}

/** Who is asked, for the answer page: the contact's name, else the number. */
function whoIsAsked(body: IDataObject): string {
	const contact = isPlainObject(body.contact) ? body.contact : {};
	return typeof contact.name === 'string' && contact.name
		? contact.name
		: String(contact.phone_number);
}
