import type { IDataObject, ILoadOptionsFunctions } from 'n8n-workflow';

import { isPlainObject } from '../helpers/json';
import { linkVariablesOf } from '../helpers/templateVariables';
import { apiPath, segment } from '../transport/path';
import { peachApiRequest } from '../transport/request';

/**
 * The template chosen in the node being edited, read from Peach for the editor's lists (the
 * variables to fill, the variables that can carry Send and Wait's link); undefined when none is
 * chosen yet.
 */
export async function chosenTemplate(
	context: ILoadOptionsFunctions,
): Promise<{ id: string; template: IDataObject } | undefined> {
	const id = String(
		context.getCurrentNodeParameter('templateId', { extractValue: true }) ?? '',
	).trim();
	if (!id) return undefined;
	const answer = await peachApiRequest.call(context, {
		method: 'GET',
		path: apiPath`/whats_app_templates/${segment('Template', id)}`,
		notFound: { label: 'Template', id },
	});
	return { id, template: isPlainObject(answer) ? answer : {} };
}

/** A template's name as the lists show it, else its ID. */
export const nameOf = (template: IDataObject, id: string) =>
	typeof template.template_name === 'string' && template.template_name
		? template.template_name
		: typeof template.name === 'string' && template.name
			? template.name
			: id;

/**
 * The approved templates of the account (the first page Peach lists) that have `variable` where
 * Send and Wait can put its link (`placement`): what the editor names when a template cannot.
 */
export async function templatesCarrying(
	context: ILoadOptionsFunctions,
	variable: string,
	placement: string,
): Promise<string[]> {
	const answer = await peachApiRequest.call(context, {
		method: 'GET',
		path: apiPath`/whats_app_templates/`,
	});
	const list = isPlainObject(answer)
		? (answer.whats_app_templates ?? answer.templates)
		: Array.isArray(answer)
			? answer
			: [];
	return (Array.isArray(list) ? list : [])
		.filter(isPlainObject)
		.filter((template) => String(template.status).toLowerCase() === 'approved')
		.filter((template) => linkVariablesOf(template, placement).includes(variable))
		.map((template) => nameOf(template, String(template.id)));
}
