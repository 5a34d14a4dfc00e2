import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { templateOf } from '../../api/templates';
import {
	NOT_SENDABLE,
	notSendableFix,
	notSendableText,
	templateNamed,
} from '../../helpers/templateStatus';
import { placesOf, templateVariables } from '../../helpers/templateVariables';
import { emptyVariableText } from '../../helpers/variableValues';
import type { ItemVariables } from '../item/itemParameters';
import { sharedByItems } from '../run/problems';

/**
 * What the node checks of a template before the first request that sends it, for every item of
 * every operation that sends one (the template is read once per execution, or kept from an earlier
 * one for a minute: api/templates.ts; every item is checked either way): that WhatsApp would send
 * it (not pending, rejected, draft, paused or disabled), and that no message goes out half-filled:
 * every variable it uses (in its header, body, footer or buttons) needs a value, or the contact sees
 * the placeholder itself (`Hi {{first_name}}`).
 */

/** Where the template shows a variable, for the message: "its body", "its header and a URL button". */
function whereUsed(template: IDataObject, name: string): string {
	const places = [...new Set(placesOf(template, name).map((place) => place.component))];
	const named = places.map((place) => (place === 'url button' ? 'a URL button' : `its ${place}`));
	if (named.length === 0) return 'it';
	return named.length === 1
		? named[0]
		: `${named.slice(0, -1).join(', ')} and ${named[named.length - 1]}`;
}

/** The variables an item gives, as the checks read them (actions/item/itemParameters.ts). */
export type VariablesToCheck = Pick<ItemVariables, 'values' | 'empty' | 'field'> &
	Partial<Pick<ItemVariables, 'expressionOf' | 'rawValueOf'>> & {
		/** For values given per contact too (a broadcast's Contact Variables): that field. */
		alsoIn?: string;
		/** Where the user gave `name`, when not `field` (a broadcast contact's own variable). */
		fieldOf?(name: string): string;
	};

/** An item's empty variables, the first named in full (helpers/variableValues.ts's one message). */
function emptyVariablesError(
	context: IExecuteFunctions,
	itemIndex: number,
	names: string[],
	variables: VariablesToCheck,
	recipient: string | undefined,
	shownIn?: (name: string) => string | undefined,
): NodeOperationError {
	const [name, ...others] = names;
	const given = variables.empty.includes(name);
	const { message, description } = emptyVariableText({
		name,
		others,
		itemIndex,
		recipient,
		field: variables.fieldOf?.(name) ?? variables.field,
		alsoIn: variables.alsoIn,
		expression: variables.expressionOf?.(name),
		value: given ? variables.rawValueOf?.(name) : undefined,
		given,
		shownIn: shownIn?.(name),
	});
	return new NodeOperationError(context.getNode(), message, { description, itemIndex });
}

/**
 * For an operation whose values no template check reads (a broadcast to an audience, an app's
 * variables): a variable given empty is refused all the same, by the one message.
 */
export function refuseEmptyVariables(
	context: IExecuteFunctions,
	itemIndex: number,
	variables: VariablesToCheck,
	recipient?: string,
): void {
	if (variables.empty.length)
		throw emptyVariablesError(context, itemIndex, variables.empty, variables, recipient);
}

/**
 * Why the item's template cannot be sent as it is, or undefined: the template is not sendable, or a
 * variable it shows (header, body, footer, buttons) has no value in `variables` (what goes as
 * `liquid_values`), or a variable was given empty. Names the item, its contact, the variable, the
 * expression that gave nothing and where the template shows it. `filledLater` are variables the
 * node fills itself (header_media from a file).
 */
export async function templateProblem(
	context: IExecuteFunctions,
	itemIndex: number,
	input: {
		templateId: string;
		variables: VariablesToCheck;
		filledLater?: string[];
		/** Who the item is for (a phone number), named in the message. */
		recipient?: string;
	},
): Promise<NodeOperationError | undefined> {
	const template = await templateOf(context, input.templateId, itemIndex);
	const templateName = templateNamed(template, input.templateId);
	const status = typeof template.status === 'string' ? template.status.toLowerCase() : '';
	if (NOT_SENDABLE.includes(status)) {
		// The template's problem, the same for every item that sends it: said once (run/problems.ts).
		return sharedByItems(
			new NodeOperationError(context.getNode(), notSendableText(templateName, status), {
				description: notSendableFix(status),
				itemIndex,
			}),
		);
	}
	const { variables } = input;
	const shown = templateVariables(template).map((variable) => variable.name);
	const missing = shown
		.filter((name) => !input.filledLater?.includes(name))
		.filter((name) => !Object.prototype.hasOwnProperty.call(variables.values, name));
	const emptyOthers = variables.empty.filter(
		(name) => !shown.includes(name) && !input.filledLater?.includes(name),
	);
	const names = [...missing, ...emptyOthers];
	if (names.length === 0) return undefined;
	return emptyVariablesError(context, itemIndex, names, variables, input.recipient, (name) =>
		shown.includes(name)
			? `Template ${typeof template.name === 'string' ? `"${template.name}"` : input.templateId} shows {{${name}}} in ${whereUsed(template, name)}`
			: undefined,
	);
}

/** The template check before the first request that sends (templateProblem), as a refusal. */
export async function checkTemplateBeforeSend(
	context: IExecuteFunctions,
	itemIndex: number,
	input: Parameters<typeof templateProblem>[2],
): Promise<void> {
	const problem = await templateProblem(context, itemIndex, input);
	if (problem) throw problem;
}
