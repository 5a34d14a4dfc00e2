import type { IDataObject, ILoadOptionsFunctions, ResourceMapperFields } from 'n8n-workflow';

import {
	NOT_SENDABLE,
	notSendableFix,
	notSendableText,
	statusOf,
	templateNamed,
} from '../../helpers/templateStatus';
import { linkVariablesOf, templateVariables } from '../../helpers/templateVariables';
import { chosenTemplate, nameOf, templatesCarrying } from '../template';

/**
 * The fields of the "From the Template" variables: one per variable of the chosen template, read
 * from its components (`{{first_name | example: 'Ana'}}` gives "first_name (e.g. Ana)").
 *
 * The list depends on the template only (the fields' loadOptionsDependsOn): n8n empties the values a
 * user typed whenever a parameter the list depends on changes, so nothing else may be one. Send and
 * Wait's link and message variables are left out as they are when the list is read; a header file's
 * header_media is offered but never required (a header file From a Binary Field fills it).
 *
 * n8n keeps the last notice it was given until another one comes (a list with fields shows no
 * notice), so every empty list says why it is empty: no template yet, a template WhatsApp does not
 * send (said here, as soon as it is chosen, By ID or By Name too), or one without (other) variables.
 */
export async function getTemplateVariables(
	this: ILoadOptionsFunctions,
): Promise<ResourceMapperFields> {
	const chosen = await chosenTemplate(this);
	if (!chosen) {
		return { fields: [], emptyFieldsNotice: 'Pick a template first: its variables appear here' };
	}
	const { template, id } = chosen;
	const status = statusOf(template);
	if (NOT_SENDABLE.includes(status)) {
		return {
			fields: [],
			emptyFieldsNotice: `${notSendableText(templateNamed(template, id), status)}. ${notSendableFix(status)} Its variables appear here once it is approved.`,
		};
	}
	const filledByTheNode: unknown[] = [];
	if (this.getCurrentNodeParameter('operation') === 'sendAndWait') {
		const link = this.getCurrentNodeParameter('linkVariable');
		const placement = String(this.getCurrentNodeParameter('linkPlacement') ?? 'variable');
		if (typeof link === 'string' && !linkVariablesOf(template, placement).includes(link)) {
			const others = await templatesCarrying(this, link, placement);
			const where = placement === 'urlButton' ? 'at the end of a URL button' : 'in its text';
			return {
				fields: [],
				emptyFieldsNotice: `Template ${nameOf(template, id)} has no {{${link}}} ${where} for the answer link, so Send and Wait cannot use it. ${
					others.length
						? `Pick ${others.join(' or ')}, or`
						: 'Make one with WhatsApp Template → Create → Components: Approval Request (for Send and Wait), or'
				} choose the Link Variable that should carry the link.`,
			};
		}
		filledByTheNode.push(link, this.getCurrentNodeParameter('messageVariable'));
	}
	const fields = templateVariables(template)
		.filter((variable) => !filledByTheNode.includes(variable.name))
		.map(fieldOf);
	return fields.length
		? { fields }
		: { fields, emptyFieldsNotice: nothingToFill(template, id, filledByTheNode) };
}

/** One variable as a field of the list, its example in its name. */
function fieldOf(variable: { name: string; example?: string }) {
	return {
		id: variable.name,
		displayName:
			variable.name === 'header_media'
				? 'header_media (media URL or media://ID; empty with Header Media From a Binary Field)'
				: variable.example !== undefined
					? `${variable.name} (e.g. ${variable.example})`
					: variable.name,
		required: variable.name !== 'header_media',
		defaultMatch: false,
		canBeUsedToMatch: false,
		display: true,
		type: 'string' as const,
	};
}

/** Why a chosen template leaves nothing to fill: no variables, or only those Send and Wait fills. */
function nothingToFill(template: IDataObject, id: string, filledByTheNode: unknown[]): string {
	const names = templateVariables(template).map((variable) => variable.name);
	const filled = filledByTheNode.filter(
		(name): name is string => typeof name === 'string' && names.includes(name),
	);
	return filled.length
		? `Template ${nameOf(template, id)} has no other variables: Send and Wait fills ${filled.map((name) => `{{${name}}}`).join(' and ')} itself`
		: `Template ${nameOf(template, id)} has no variables: nothing to fill here`;
}
