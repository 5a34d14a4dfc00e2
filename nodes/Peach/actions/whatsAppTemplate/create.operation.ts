import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { isSet } from '../../helpers/fields';
import { PeachInputError } from '../../helpers/inputError';
import { isPlainObject, parseJson } from '../../helpers/json';
import { outputOf } from '../../helpers/payload';
import { peachApiRequest } from '../../transport/request';
import type { ItemResult, OperationOption } from '../node.type';
import { approvalRequestOf, approvalRequestProperties } from './approvalRequest';
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
	{
		displayName: 'Components',
		name: 'componentsInput',
		type: 'options',
		noDataExpression: true,
		options: [
			{
				name: 'Using Fields Below',
				value: 'fields',
				description: 'Header, body, footer and buttons',
			},
			{
				name: 'Using JSON',
				value: 'json',
				description: "Peach's components_attributes array as JSON, for power users",
			},
			{
				name: 'Approval Request (for Send and Wait)',
				value: 'approval',
				description:
					'A ready template for Template Message → Send and Wait for Response: a message variable and the answer link, as text or as a URL button to this n8n',
			},
		],
		default: 'fields',
	},
	...approvalRequestProperties,
	{
		displayName: 'Header',
		name: 'headerType',
		type: 'options',
		options: [
			{ name: 'Document', value: 'document' },
			{ name: 'Image', value: 'image' },
			{ name: 'None', value: 'none' },
			{ name: 'Text', value: 'text' },
			{ name: 'Video', value: 'video' },
		],
		default: 'none',
		description: 'What the message shows above the body',
		displayOptions: { show: { componentsInput: ['fields'] } },
	},
	{
		displayName: 'Header Text',
		name: 'headerValue',
		type: 'string',
		default: '',
		placeholder: "e.g. Order {{order_id | example: 'A-7'}}",
		description: 'At most 60 characters and one variable, with its example',
		displayOptions: { show: { componentsInput: ['fields'], headerType: ['text'] } },
	},
	{
		displayName: 'Header Sample Media',
		name: 'headerValue',
		type: 'string',
		default: '',
		placeholder: 'e.g. media://101 or https://example.com/sample.pdf',
		description:
			"A sample of the media for Meta's review: a media:// URL from Peach Upload or a public URL. Each send gives its own in header_media.",
		displayOptions: {
			show: { componentsInput: ['fields'], headerType: ['image', 'video', 'document'] },
		},
	},
	{
		displayName: 'Body',
		name: 'bodyText',
		type: 'string',
		typeOptions: { rows: 4 },
		required: true,
		default: '',
		placeholder: "e.g. Hi {{first_name | example: 'Ana'}}, your order is on its way.",
		description:
			"The message text, at most 1,024 characters. Write each variable with an example: {{name | example: 'value'}}.",
		displayOptions: { show: { componentsInput: ['fields'] } },
	},
	{
		displayName: 'Footer',
		name: 'footerText',
		type: 'string',
		default: '',
		placeholder: 'e.g. Reply STOP to opt out',
		description: 'Small text under the body, at most 60 characters',
		displayOptions: { show: { componentsInput: ['fields'] } },
	},
	{
		displayName: 'Buttons',
		name: 'buttons',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true },
		placeholder: 'Add Button',
		default: {},
		description: 'At most 10 buttons: quick replies, up to 2 links and 1 phone number',
		displayOptions: { show: { componentsInput: ['fields'] } },
		options: [
			{
				displayName: 'Button',
				name: 'button',
				values: [
					{
						displayName: 'Type',
						name: 'type',
						type: 'options',
						options: [
							{ name: 'Phone Number', value: 'phone_number' },
							{ name: 'Quick Reply', value: 'quick_reply' },
							{ name: 'URL', value: 'url' },
						],
						default: 'quick_reply',
					},
					{
						displayName: 'Text',
						name: 'text',
						type: 'string',
						default: '',
						placeholder: 'e.g. Track order',
						description: 'The button label, at most 25 characters',
					},
					{
						displayName: 'URL or Phone Number',
						name: 'value',
						type: 'string',
						default: '',
						placeholder: 'e.g. https://example.com/track or +14155550123',
						description:
							'For a URL button the link; for a phone button the number with + and country code',
					},
				],
			},
		],
	},
	{
		displayName: 'Components (JSON)',
		name: 'componentsJson',
		type: 'json',
		default:
			'[\n  { "component_type": "body", "data_type": "text", "value": "Hi {{first_name | example: \'Ana\'}}!", "index": 0 }\n]',
		description:
			"Peach's components_attributes: component_type, data_type, value, and for buttons sub_type and name",
		displayOptions: { show: { componentsInput: ['json'] } },
	},
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

export interface TemplateButton {
	type?: string;
	text?: string;
	value?: string;
}

/** `components_attributes` from the fields: header, body, footer, buttons, in that order. */
export function componentsFromFields(input: {
	headerType: string;
	headerValue: string;
	bodyText: string;
	footerText: string;
	buttons: TemplateButton[];
}): IDataObject[] {
	const components: IDataObject[] = [];
	const add = (component: IDataObject) =>
		components.push({ ...component, index: components.length });
	if (input.headerType !== 'none' && isSet(input.headerValue.trim())) {
		add({ component_type: 'header', data_type: input.headerType, value: input.headerValue.trim() });
	}
	add({ component_type: 'body', data_type: 'text', value: input.bodyText.trim() });
	if (isSet(input.footerText.trim())) {
		add({ component_type: 'footer', data_type: 'text', value: input.footerText.trim() });
	}
	for (const button of input.buttons) {
		const type = button.type ?? 'quick_reply';
		const text = (button.text ?? '').trim();
		add({
			component_type: 'buttons',
			data_type: 'text',
			sub_type: type,
			name: text,
			value: type === 'quick_reply' ? text : (button.value ?? '').trim(),
		});
	}
	return components;
}

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
	const mode = this.getNodeParameter('componentsInput', itemIndex, 'fields') as string;
	let components: unknown;
	if (mode === 'approval') {
		components = approvalRequestOf(this, itemIndex);
	} else if (mode === 'json') {
		components = parseJson(
			'Components (JSON)',
			this.getNodeParameter('componentsJson', itemIndex, '[]'),
		);
	} else {
		const buttons = this.getNodeParameter('buttons', itemIndex, {}) as {
			button?: TemplateButton[];
		};
		const headerType = this.getNodeParameter('headerType', itemIndex, 'none') as string;
		components = componentsFromFields({
			headerType,
			// Shown only for a header: a header of None has no value to read.
			headerValue:
				headerType === 'none'
					? ''
					: String(this.getNodeParameter('headerValue', itemIndex, '') ?? ''),
			bodyText: String(this.getNodeParameter('bodyText', itemIndex, '') ?? ''),
			footerText: String(this.getNodeParameter('footerText', itemIndex, '') ?? ''),
			buttons: Array.isArray(buttons.button) ? buttons.button : [],
		});
	}
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
