import type { ILoadOptionsFunctions, ResourceMapperFields } from 'n8n-workflow';

import { templateVariables } from '../../helpers/templateVariables';
import { apiPath, segment } from '../../transport/path';
import { peachApiRequest } from '../../transport/request';

/**
 * The fields of the "From the Template" variables: one per variable of the chosen template, read
 * from its components (`{{first_name | example: 'Ana'}}` gives "first_name (e.g. Ana)").
 */
export async function getTemplateVariables(
	this: ILoadOptionsFunctions,
): Promise<ResourceMapperFields> {
	const templateId = String(
		this.getCurrentNodeParameter('templateId', { extractValue: true }) ?? '',
	).trim();
	if (!templateId) {
		return { fields: [], emptyFieldsNotice: 'Pick a template first: its variables appear here' };
	}
	const template = await peachApiRequest.call(this, {
		method: 'GET',
		path: apiPath`/whats_app_templates/${segment('Template', templateId)}`,
		notFound: { label: 'Template', id: templateId },
	});
	// Send and Wait fills its link and message variables itself, and a header file from a binary
	// field fills header_media: only the others are asked for.
	const filledByTheNode: unknown[] =
		this.getCurrentNodeParameter('operation') === 'sendAndWait'
			? [
					this.getCurrentNodeParameter('linkVariable'),
					this.getCurrentNodeParameter('messageVariable'),
				]
			: [];
	const headerMedia = this.getCurrentNodeParameter('headerMedia');
	if (headerMedia !== undefined && headerMedia !== 'variables')
		filledByTheNode.push('header_media');
	const variables = templateVariables(template);
	const fields = variables
		.filter((variable) => !filledByTheNode.includes(variable.name))
		.map((variable) => ({
			id: variable.name,
			displayName:
				variable.name === 'header_media'
					? 'header_media (media URL or media://ID)'
					: variable.example !== undefined
						? `${variable.name} (e.g. ${variable.example})`
						: variable.name,
			required: true,
			defaultMatch: false,
			canBeUsedToMatch: false,
			display: true,
			type: 'string' as const,
		}));
	if (fields.length) return { fields };
	if (variables.length === 0)
		return { fields, emptyFieldsNotice: 'This template has no variables: nothing to fill in' };
	return {
		fields,
		emptyFieldsNotice: `Nothing to fill in: the node fills ${variables.map((variable) => variable.name).join(' and ')}`,
	};
}
