/** GET /api/v1/expressions: the condition library, optionally of one `source`. */
import type { Route } from '../http.mts';

export const expressionRoutes: Route = (ctx, { method, segments, query }) => {
	if (segments.length !== 1 || method !== 'GET') return undefined;
	const matching = query.source
		? ctx.state.expressions.filter((entry) => entry.source === query.source)
		: ctx.state.expressions;
	return ctx.listPage(matching, query, '/expressions', 'expressions');
};
