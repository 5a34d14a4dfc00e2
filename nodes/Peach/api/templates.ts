import type { IDataObject } from 'n8n-workflow';

import { isPlainObject } from '../helpers/json';
import { peachApiRequest } from '../transport/request';
import type { PeachContext } from '../transport/types';
import { apiPath, segment } from '../transport/path';

const read = new WeakMap<object, Map<string, Promise<IDataObject>>>();

/**
 * A WhatsApp template as Peach returns it (`GET /whats_app_templates/{id}`), read once per execution
 * whatever the number of items that send it.
 */
export async function templateOf(
	context: PeachContext,
	templateId: string,
	itemIndex?: number,
): Promise<IDataObject> {
	let templates = read.get(context);
	if (!templates) {
		templates = new Map();
		read.set(context, templates);
	}
	let template = templates.get(templateId);
	if (!template) {
		template = peachApiRequest
			.call(context, {
				method: 'GET',
				path: apiPath`/whats_app_templates/${segment('Template', templateId)}`,
				itemIndex,
				notFound: { label: 'Template', id: templateId },
			})
			.then((answer) => (isPlainObject(answer) ? answer : {}));
		templates.set(templateId, template);
	}
	return await template;
}
