/**
 * GET /api/v1/template_messages: template messages by last update, newest first; `page` and `per`
 * (at most 1000), `broadcast_id`, `updated_since` (ISO 8601, default 24 hours ago). The envelope
 * is the documented `{count, next, prev, template_messages}`.
 */
import { paginate, type Route, validationFailed } from '../http.mts';

export const templateMessageRoutes: Route = (ctx, { method, segments, query }) => {
	if (segments.length !== 1 || method !== 'GET') return undefined;
	if (query.per !== undefined && !(Number(query.per) >= 1 && Number(query.per) <= 1000))
		throw validationFailed({ per: ['must be between 1 and 1000'] });
	const since =
		query.updated_since === undefined
			? Date.now() - 24 * 3600_000
			: Date.parse(query.updated_since);
	if (!Number.isFinite(since))
		throw validationFailed({ updated_since: ['must be an ISO 8601 date-time'] });
	const matching = ctx.state.templateMessages
		.filter((message) => !query.broadcast_id || message.broadcast_id === query.broadcast_id)
		.filter((message) => Date.parse(message.updated_at) >= since)
		.sort((a, b) => b.updated_at.localeCompare(a.updated_at));
	const page = paginate(matching, query, ctx.baseUrl, '/template_messages');
	return {
		status: 200,
		body: {
			count: page.count,
			next: page.next,
			prev: page.previous,
			template_messages: page.slice,
		},
	};
};
