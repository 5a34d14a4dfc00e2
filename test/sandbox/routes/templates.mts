/**
 * WhatsApp templates: list (documented as a bare array), get by ID or name, create (wrapped in
 * `whats_app_template`, starts as draft), update (components by ID, `_destroy` to remove), and the
 * status changes with Peach's preconditions: submit a draft (→ pending), pause an approved
 * template, archive an approved, rejected or draft one. DELETE (in Peach's API skill, its answer not
 * documented) removes it and answers 204 No Content.
 */
import {
	isObject,
	notFound,
	paginate,
	Reasons,
	type Route,
	type RouteContext,
	type RouteResult,
	validationFailed,
} from '../http.mts';
import { type JsonObject, newId, type Template } from '../state/index.mts';

const CATEGORIES = ['MARKETING', 'UTILITY', 'AUTHENTICATION'];
/** `buttons` in the field list; the docs' own create example writes `button`: both are taken. */
const COMPONENT_TYPES = ['header', 'body', 'footer', 'buttons', 'button'];
const MEDIA = ['image', 'video', 'document'];

/** Which status each action needs, and the status it leads to. */
const ACTIONS: Record<string, { from: string[]; to: string }> = {
	submit: { from: ['draft', 'rejected'], to: 'pending' },
	pause: { from: ['approved'], to: 'paused' },
	archive: { from: ['approved', 'rejected', 'draft'], to: 'archived' },
};

function findTemplate(ctx: RouteContext, id: string): Template {
	const found = ctx.state.templates.find((entry) => entry.id === id || entry.template_name === id);
	if (!found) throw notFound('Template', id);
	return found;
}

function checkComponent(reasons: Reasons, component: unknown, index: number) {
	const at = `components_attributes[${index}]`;
	if (!isObject(component)) return reasons.nested('whats_app_template', at, 'must be an object');
	if (!COMPONENT_TYPES.includes(component.component_type as string))
		reasons.nested(
			'whats_app_template',
			`${at}.component_type`,
			`must be one of ${COMPONENT_TYPES.join(', ')}`,
		);
	// The docs' create example gives an image header without a value (no sample): a media header's
	// value is optional; every other component has text.
	const mediaHeader =
		component.component_type === 'header' && MEDIA.includes(component.data_type as string);
	if (typeof component.value !== 'string' && !(mediaHeader && component.value === undefined))
		reasons.nested('whats_app_template', `${at}.value`, 'must be text');
}

function createTemplate(ctx: RouteContext, body: JsonObject): RouteResult {
	const input = body.whats_app_template;
	if (!isObject(input)) throw validationFailed({ whats_app_template: ['is required'] });
	const reasons = new Reasons();
	const name = input.template_name;
	if (typeof name !== 'string' || name === '')
		reasons.nested('whats_app_template', 'template_name', "can't be blank");
	else if (ctx.state.templates.some((entry) => entry.template_name === name))
		reasons.nested('whats_app_template', 'template_name', 'has already been taken');
	if (typeof input.language !== 'string' || input.language === '')
		reasons.nested('whats_app_template', 'language', "can't be blank");
	if (!CATEGORIES.includes(input.category as string))
		reasons.nested('whats_app_template', 'category', `must be one of ${CATEGORIES.join(', ')}`);
	const waba = input.whats_app_business_account_id;
	// Integer in the docs, a string external ID in Peach's MCP server: both are accepted.
	if (waba !== undefined && typeof waba !== 'number' && typeof waba !== 'string')
		reasons.nested(
			'whats_app_template',
			'whats_app_business_account_id',
			'must be a number or text',
		);
	const components = input.components_attributes;
	if (!Array.isArray(components) || components.length === 0)
		reasons.nested('whats_app_template', 'components_attributes', "can't be blank");
	else {
		components.forEach((component, index) => checkComponent(reasons, component, index));
		if (!components.some((component) => isObject(component) && component.component_type === 'body'))
			reasons.nested('whats_app_template', 'components_attributes', 'must include a body');
	}
	reasons.throwIfAny();
	const id = newId('wat_');
	const template: Template = {
		id,
		template_name: name as string,
		name: name as string,
		language: input.language as string,
		category: input.category as string,
		status: 'draft',
		whats_app_business_account_id: typeof waba === 'number' ? waba : 456,
		components: (components as JsonObject[]).map((component, index) => ({
			...component,
			id: `${id}_c${index}`,
			index: typeof component.index === 'number' ? component.index : index,
		})),
	};
	if (typeof input.purpose === 'string') template.purpose = input.purpose;
	if (typeof input.folder === 'string') template.folder = input.folder;
	ctx.state.templates.push(template);
	// 200 with the template, as the docs' create example answers.
	return { status: 200, body: template };
}

function updateTemplate(template: Template, body: JsonObject): RouteResult {
	const input = body.whats_app_template;
	if (!isObject(input)) throw validationFailed({ whats_app_template: ['is required'] });
	const reasons = new Reasons();
	if (input.category !== undefined && !CATEGORIES.includes(input.category as string))
		reasons.nested('whats_app_template', 'category', `must be one of ${CATEGORIES.join(', ')}`);
	const changes = input.components_attributes;
	if (changes !== undefined && !Array.isArray(changes))
		reasons.nested('whats_app_template', 'components_attributes', 'must be an array');
	for (const [index, change] of (Array.isArray(changes) ? changes : []).entries()) {
		if (!isObject(change)) continue;
		if (
			change.id !== undefined &&
			!template.components.some((component) => component.id === change.id)
		)
			reasons.nested(
				'whats_app_template',
				`components_attributes[${index}].id`,
				`${String(change.id)} is not a component of this template`,
			);
		if (change.id === undefined) checkComponent(reasons, change, index);
	}
	reasons.throwIfAny();
	if (typeof input.template_name === 'string')
		template.template_name = template.name = input.template_name;
	if (typeof input.category === 'string') template.category = input.category;
	if (typeof input.folder === 'string') template.folder = input.folder;
	for (const change of (changes ?? []) as JsonObject[]) {
		if (change.id === undefined) {
			template.components.push({ ...change, id: `${template.id}_c${template.components.length}` });
		} else if (change._destroy === true) {
			template.components = template.components.filter((component) => component.id !== change.id);
		} else {
			const component = template.components.find((entry) => entry.id === change.id) as JsonObject;
			Object.assign(component, change);
		}
	}
	return { status: 200, body: template };
}

export const templateRoutes: Route = (ctx, { method, segments, query, body }) => {
	const [, id, action] = segments;
	if (!id && method === 'GET') {
		// Documented as a bare array; `page`/`per` narrow it when given.
		if (query.page === undefined) return { status: 200, body: ctx.state.templates };
		return {
			status: 200,
			body: paginate(ctx.state.templates, query, ctx.baseUrl, '/whats_app_templates/').slice,
		};
	}
	if (!id && method === 'POST') return createTemplate(ctx, body);
	if (!id) return undefined;
	const template = findTemplate(ctx, id);
	if (!action && method === 'GET') return { status: 200, body: template };
	if (!action && method === 'PATCH') return updateTemplate(template, body);
	if (!action && method === 'DELETE') {
		ctx.state.templates = ctx.state.templates.filter((entry) => entry !== template);
		return { status: 204, body: null };
	}
	if (action && method === 'PATCH' && Object.hasOwn(ACTIONS, action)) {
		const rule = ACTIONS[action];
		if (!rule.from.includes(template.status)) {
			throw validationFailed({
				status: [
					`cannot ${action} a template that is ${template.status} (only ${rule.from.join(', ')})`,
				],
			});
		}
		template.status = rule.to;
		return { status: 200, body: template };
	}
	return undefined;
};
