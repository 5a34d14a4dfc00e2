import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { templateOf } from '../../../api/templates';
import { isSet } from '../../../helpers/fields';
import { PeachInputError } from '../../../helpers/inputError';
import { isPlainObject, setOwn } from '../../../helpers/json';
import { linkVariablesOf } from '../../../helpers/templateVariables';
import { recipientOfEvent } from '../../../helpers/contact';
import { templateProblem } from '../../templateSend/templateCheck';
import type { TemplateMessagePlan } from '../shared';
import { buildSendTemplateMessageBody } from '../shared';
import { headerMediaOfItem } from '../../templateSend/headerMedia';
import { readCustomForm } from './form.definition';
import { waitTillOf } from './limit';
import type { AnswerLink } from './link';
import { checkCanRemember, checkReachable, linkValue, makeAnswerLink } from './link';
import type { Question } from './setup.question';
import { readQuestion } from './setup.question';
import type { Reading } from './setup.reading';
import { Problems } from './setup.reading';

/**
 * What Send and Wait checks of its setup before it asks (nothing is sent until all is right), and
 * the plan it then sends: every problem of the run is reported at once (the link variable, the
 * message variable, the other variables, the form, the wait), in one error, so a user fixes them in
 * one pass rather than one run each. prepareWait's steps: the question (setup.question.ts), the wait
 * and its link, the template's variables filled, the message; setup.reading.ts gathers the problems.
 */

/** A WhatsApp template variable may not hold new lines, tabs or more than 4 spaces in a row (Meta). */
const VARIABLE_MAX_LENGTH = 600;

/** The message as one template variable: no new lines or tabs, no long runs of spaces, not too long. */
function messageForVariable(message: string): string {
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

/**
 * The wait and its link: what would make the link useless (a custom form that cannot be shown, a
 * wait that cannot end or be remembered, a link no one can open) refuses before any request.
 */
async function prepareAnswerLink({
	context,
	read,
	problems,
}: Reading): Promise<{ waitTill?: Date; link: AnswerLink }> {
	if (read('responseType', 'approval') === 'customForm')
		await problems.note(() => readCustomForm(read));
	const options = read('options', {}) as IDataObject;
	const waitTill = await problems.note(() =>
		waitTillOf(options.limitWaitTime, context.getTimezone()),
	);
	await problems.note(() => checkCanRemember(context));
	const link = makeAnswerLink(context);
	await problems.note(async () => await checkReachable(context, link));
	return { waitTill, link };
}

/** A Message Variable that is not a variable of the template's text (None is always right). */
function messageVariableProblem(
	template: IDataObject,
	messageVariable: string,
): PeachInputError | undefined {
	const textVariables = linkVariablesOf(template, 'variable');
	if (!messageVariable || textVariables.includes(messageVariable)) return undefined;
	return new PeachInputError(
		'Message Variable',
		messageVariable,
		'is not a variable of the template text',
		`Pick the variable that should carry the message${textVariables.length ? ` (the template has ${textVariables.join(', ')})` : ''}, or None: the message then shows on the answer page only.`,
	);
}

/** The template (as Peach gives it) and its variables as the node fills them. */
interface Filled {
	template?: IDataObject;
	liquidValues: IDataObject;
	/** The link variable's value; undefined if the link could not be placed (a problem says why). */
	placedLink?: string;
}

/**
 * The template's variables as the node fills them: the other variables as given, the link in its
 * place in the template and the message (as one line) in the Message Variable.
 */
async function fillVariables(
	{ context, itemIndex, problems }: Reading,
	question: Question,
	link: AnswerLink,
): Promise<Filled> {
	const { templateId, placement, linkVariable, messageVariable, message, variables } = question;
	const liquidValues: IDataObject = { ...variables?.values };
	let placedLink: string | undefined;
	// Read after the checks above, and noted like them: a template Peach cannot give (not found, no
	// connection) is one more problem of the run, named beside the others.
	const template = templateId
		? await problems.note(async () => await templateOf(context, templateId, itemIndex))
		: undefined;
	if (template) {
		const problem = messageVariableProblem(template, messageVariable);
		if (problem) problems.list.push(problem);
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
	return { template, liquidValues, placedLink };
}

/**
 * The question's event body and its header file, the template checked as it will be sent: every
 * variable with a value (the link, the message and the header file are the node's).
 */
async function messageOf(
	{ context, itemIndex, problems }: Reading,
	{ templateId, linkVariable, messageVariable, variables }: Question,
	{ template, liquidValues }: Filled,
): Promise<Pick<TemplateMessagePlan, 'headerMedia'> & { body?: IDataObject }> {
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
	return { body, headerMedia };
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
			'Update n8n to a version this package is tested with (README, Installation → Compatibility): n8n 1.123, 2.40 or 2.41.',
		);
	}
	const reading: Reading = {
		context,
		itemIndex,
		read: (name, fallback) => context.getNodeParameter(name, itemIndex, fallback),
		problems: new Problems(context),
	};
	const question = await readQuestion(reading);
	const { waitTill, link } = await prepareAnswerLink(reading);
	const filled = await fillVariables(reading, question, link);
	const { body, headerMedia } = await messageOf(reading, question, filled);
	const refusal = reading.problems.refusal(context, itemIndex);
	if (refusal || !body || !waitTill || filled.placedLink === undefined)
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
		linkValue: filled.placedLink,
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
