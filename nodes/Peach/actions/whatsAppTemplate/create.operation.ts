import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { isSet } from '../../helpers/fields';
import { PeachInputError } from '../../helpers/inputError';
import { isPlainObject } from '../../helpers/json';
import { outputOf } from '../../helpers/payload';
import { peachApiRequest } from '../../transport/request';
import type { ItemResult, OperationOption } from '../operation/node.type';
import { componentsOf, componentsProperties } from './create.components';
import { bodyWordsHint, templateProblems } from './metaRules';
import { categoryOptions, hintOnce } from './shared';
import { apiPath } from '../../transport/path';
import { additionalFieldsCollection } from '../../descriptions/fields';

export const option: OperationOption = {
	name: 'Create',
	value: 'create',
	action: 'Create a template',
	description:
		'Create a WhatsApp template in Peach (header, body with variables and their examples, footer, buttons); submit it to Meta afterwards',
};

export const properties: INodeProperties[] = [
	{
		displayName: 'Name',
		name: 'templateName',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. order_confirmation',
		description: 'Lowercase letters, digits and underscores, as Meta requires',
	},
	{
		displayName: 'Language',
		name: 'language',
		type: 'string',
		required: true,
		default: 'en',
		placeholder: 'e.g. en_US',
		description: 'The language code, e.g. en, en_US or pt_BR',
	},
	{
		displayName: 'Category',
		name: 'category',
		type: 'options',
		options: categoryOptions,
		default: 'UTILITY',
		description: "Meta's category for the template",
	},
	...componentsProperties,
	additionalFieldsCollection([
		{
			displayName: 'Folder',
			name: 'folder',
			type: 'string',
			default: '',
			description: 'A folder to file the template in, in Peach',
		},
		{
			displayName: 'Purpose',
			name: 'purpose',
			type: 'string',
			default: '',
			placeholder: 'e.g. promotion',
			description: "The template's purpose as Peach names it, e.g. promotion or general",
		},
		{
			displayName: 'WhatsApp Business Account ID',
			name: 'wabaId',
			type: 'string',
			default: '',
			placeholder: 'e.g. 456',
			description:
				"The WhatsApp Business Account (WABA). Sent as a number when it is digits (Peach's docs), else as text. Leave it out when the account has one WABA.",
		},
	]),
];

/** The body of `POST /api/v1/whats_app_templates`, wrapped as Peach documents it. Pure. */
export function buildCreateTemplateBody(input: {
	templateName: unknown;
	language: unknown;
	category: unknown;
	components: unknown;
	additionalFields: IDataObject;
}): IDataObject {
	const templateName = typeof input.templateName === 'string' ? input.templateName.trim() : '';
	const language = typeof input.language === 'string' ? input.language.trim() : '';
	const category = typeof input.category === 'string' ? input.category.trim().toUpperCase() : '';
	if (!Array.isArray(input.components) || !input.components.every(isPlainObject)) {
		throw new PeachInputError(
			'Components (JSON)',
			input.components,
			'is not a JSON array of components',
			'Give an array such as [{"component_type": "body", "data_type": "text", "value": "Hi!"}].',
		);
	}
	const components = input.components as IDataObject[];
	const problems = templateProblems({ templateName, language, category, components });
	if (problems.length) {
		throw new PeachInputError(
			'Template',
			templateName || '(no name)',
			`cannot be created: ${problems.length} problem${problems.length === 1 ? '' : 's'}`,
			problems.join('. ') + '.',
		);
	}
	const { folder, purpose, wabaId } = input.additionalFields;
	const template: IDataObject = {
		template_name: templateName,
		language,
		category,
		components_attributes: components,
	};
	if (isSet(purpose)) template.purpose = String(purpose).trim();
	if (isSet(folder)) template.folder = String(folder).trim();
	if (isSet(wabaId)) {
		const id = String(wabaId).trim();
		template.whats_app_business_account_id = /^\d+$/.test(id) ? Number(id) : id;
	}
	return { whats_app_template: template };
}

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<ItemResult> {
	const components = componentsOf(this, itemIndex);
	const body = buildCreateTemplateBody({
		templateName: this.getNodeParameter('templateName', itemIndex),
		language: this.getNodeParameter('language', itemIndex),
		category: this.getNodeParameter('category', itemIndex),
		components,
		additionalFields: this.getNodeParameter('additionalFields', itemIndex, {}) as IDataObject,
	});
	const template = body.whats_app_template as IDataObject;
	for (const component of template.components_attributes as IDataObject[]) {
		const hint =
			component.component_type === 'body' && typeof component.value === 'string'
				? bodyWordsHint(component.value)
				: undefined;
		if (hint) hintOnce(this, `Template "${String(template.template_name)}": ${hint}`);
	}
	return outputOf(
		await peachApiRequest.call(this, {
			method: 'POST',
			path: apiPath`/whats_app_templates`,
			body,
			itemIndex,
		}),
	);
}
