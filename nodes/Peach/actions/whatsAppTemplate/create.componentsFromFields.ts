import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { isSet } from '../../helpers/fields';

/**
 * WhatsApp Template → Create's components given in the fields (Components: Using Fields Below; the
 * fields are in create.components.ts): the header, body, footer and buttons as components_attributes.
 */

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

/** The item's header, body, footer and buttons, as components. */
export function componentsOfFields(context: IExecuteFunctions, itemIndex: number): IDataObject[] {
	const buttons = context.getNodeParameter('buttons', itemIndex, {}) as {
		button?: TemplateButton[];
	};
	const headerType = context.getNodeParameter('headerType', itemIndex, 'none') as string;
	return componentsFromFields({
		headerType,
		// Shown only for a header: a header of None has no value to read.
		headerValue:
			headerType === 'none'
				? ''
				: String(context.getNodeParameter('headerValue', itemIndex, '') ?? ''),
		bodyText: String(context.getNodeParameter('bodyText', itemIndex, '') ?? ''),
		footerText: String(context.getNodeParameter('footerText', itemIndex, '') ?? ''),
		buttons: Array.isArray(buttons.button) ? buttons.button : [],
	});
}
