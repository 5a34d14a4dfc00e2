import type { ILoadOptionsFunctions, ResourceMapperFields } from 'n8n-workflow';

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
 */
export async function getTemplateVariables(
	this: ILoadOptionsFunctions,
): Promise<ResourceMapperFields> {
	const chosen = await chosenTemplate(this);
	if (!chosen) {
		return { fields: [], emptyFieldsNotice: 'Pick a template first: its variables appear here' };
	}
	const { template, id } = chosen;
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
		.map((variable) => ({
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
		}));
	return { fields };
}
