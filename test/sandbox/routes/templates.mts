/** WhatsApp templates: the list (documented as a bare array) and one template by ID or name. */
import { notFound, paginate, type Route } from '../http.mts';

export const templateRoutes: Route = (ctx, { method, segments, query }) => {
	const [, id, sub] = segments;
	if (!id && method === 'GET') {
		// Documented as a bare array; `page`/`per` narrow it when given.
		if (query.page === undefined) return { status: 200, body: ctx.state.templates };
		return {
			status: 200,
			body: paginate(ctx.state.templates, query, ctx.baseUrl, '/whats_app_templates/').slice,
		};
	}
	if (id && !sub && method === 'GET') {
		const found = ctx.state.templates.find(
			(entry) => entry.id === id || entry.template_name === id,
		);
		if (!found) throw notFound('Template', id);
		return { status: 200, body: found };
	}
	return undefined;
};
