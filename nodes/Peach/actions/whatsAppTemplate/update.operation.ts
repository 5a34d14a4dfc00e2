import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { isSet, requireText } from '../../helpers/fields';
import { PeachInputError } from '../../helpers/inputError';
import { placeholdersWithoutExample } from '../../helpers/templateVariables';
import { outputOf } from '../../helpers/payload';
import { apiPath, segment } from '../../transport/path';
import { peachApiRequest } from '../../transport/request';
import type { ItemResult, OperationOption } from '../operation/node.type';
import type { ComponentChange } from './metaRules';
import { bodyTextHints, CATEGORIES } from './metaRules';
import { categoryOptions, hintOnce, templateIdOf, templateLocator } from './shared';
import { recordIn } from '../item/itemParameters';

export const option: OperationOption = {
	name: 'Update',
	value: 'update',
	action: 'Update a template',
	description:
		"Change a template's name, category or folder, and change or remove its components by component ID",
};

export const properties: INodeProperties[] = [
	templateLocator,
	{
		displayName: 'Components',
		name: 'components',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true },
		placeholder: 'Add Component Change',
		default: {},
		description: 'Changes to existing components, by the component IDs a Get shows',
		options: [
			{
				displayName: 'Component',
				name: 'component',
				values: [
					{
						displayName: 'Component ID',
						name: 'id',
						type: 'string',
						default: '',
						placeholder: 'e.g. cmp_body_1',
					},
					{
						displayName: 'Change',
						name: 'change',
						type: 'options',
						options: [
							{ name: 'Set Value', value: 'update' },
							{ name: 'Remove', value: 'remove', description: 'Sent as _destroy: true' },
						],
						default: 'update',
					},
					{
						displayName: 'Value',
						name: 'value',
						type: 'string',
						default: '',
						description: "The component's new text; write variables with an example",
						displayOptions: { show: { change: ['update'] } },
					},
				],
			},
		],
	},
	{
		displayName: 'Update Fields',
		name: 'updateFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		options: [
			{
				displayName: 'Category',
				name: 'category',
				type: 'options',
				options: categoryOptions,
				default: 'UTILITY',
			},
			{ displayName: 'Folder', name: 'folder', type: 'string', default: '' },
			{
				displayName: 'Name',
				name: 'templateName',
				type: 'string',
				default: '',
				placeholder: 'e.g. order_confirmation',
				description: 'Lowercase letters, digits and underscores',
			},
		],
	},
];

/** Update Fields: the new Name, Category and Folder, each only when given, checked. Pure. */
function templateFieldsOf(updateFields: IDataObject): IDataObject {
	const template: IDataObject = {};
	if (isSet(updateFields.templateName)) {
		const name = String(updateFields.templateName).trim();
		if (!/^[a-z0-9_]+$/.test(name))
			throw new PeachInputError(
				'Name',
				name,
				'may only have lowercase letters, digits and underscores',
				'Use e.g. order_confirmation.',
			);
		template.template_name = name;
	}
	if (isSet(updateFields.category)) {
		const category = String(updateFields.category).toUpperCase();
		if (!CATEGORIES.includes(category))
			throw new PeachInputError(
				'Category',
				updateFields.category,
				'is not a category',
				`Use one of: ${CATEGORIES.join(', ')}.`,
			);
		template.category = category;
	}
	if (isSet(updateFields.folder)) template.folder = String(updateFields.folder).trim();
	return template;
}

/** One Components row (`index`: its place) as Peach's change: a new value, or `_destroy`. Pure. */
function componentChangeOf(change: ComponentChange, index: number): IDataObject {
	const id = requireText(
		`Components row ${index + 1} → Component ID`,
		change.id,
		'Use the component ID from a Get of the template.',
	);
	if (change.change === 'remove') return { id, _destroy: true };
	const value = change.value ?? '';
	const missing = placeholdersWithoutExample(value);
	if (missing.length)
		throw new PeachInputError(
			`Components row ${index + 1} → Value`,
			value,
			`has variables without an example (${missing.join(', ')})`,
			`Write each as {{${missing[0]} | example: '...'}}.`,
		);
	return { id, value };
}

/** The PATCH body `{whats_app_template: {...}}`: only what the user changed; refuses an empty update. Pure. */
export function buildUpdateTemplateBody(
	changes: ComponentChange[],
	updateFields: IDataObject,
): IDataObject {
	const template = templateFieldsOf(updateFields);
	const components = changes.map((change, index) => componentChangeOf(change, index));
	if (components.length) template.components_attributes = components;
	if (Object.keys(template).length === 0) {
		throw new PeachInputError(
			'Update Template',
			'(no changes)',
			'would change nothing',
			'Add a Components change or an Update Field (Name, Category or Folder).',
		);
	}
	return { whats_app_template: template };
}

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<ItemResult> {
	const id = templateIdOf(this, itemIndex);
	const components = this.getNodeParameter('components', itemIndex, {}) as {
		component?: ComponentChange[];
	};
	const changes = Array.isArray(components.component) ? components.component : [];
	const body = buildUpdateTemplateBody(
		changes,
		this.getNodeParameter('updateFields', itemIndex, {}) as IDataObject,
	);
	changes.forEach((change, row) => {
		for (const hint of bodyTextHints(change)) {
			hintOnce(this, `Template ${id}, Components row ${row + 1} → Value: ${hint}`);
		}
	});
	return outputOf(
		await peachApiRequest.call(this, {
			method: 'PATCH',
			path: apiPath`/whats_app_templates/${segment('Template', id)}`,
			body,
			itemIndex,
			notFound: { label: 'Template', id },
		}),
	);
}

/** Changes to one record go one after another, in input order. */
export const recordOf = recordIn('templateId');
