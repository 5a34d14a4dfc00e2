/**
 * Conversations: list (status, escalated, activity_type, phone_number, has_call_permission,
 * updated_since) and PATCH /conversations/{id} {status}; GET /messages (phone_number,
 * conversation_id, business_phone_number, direction, from, to) with `{count, next, previous, messages}`;
 * GET /activities, the activity log.
 */
import { notFound, type Route, validationFailed } from '../http.mts';
import { logActivity } from '../state/index.mts';

export const CONVERSATION_STATUSES = ['open', 'pending', 'awaiting_customer_response', 'closed'];

export const conversationRoutes: Route = (ctx, { method, segments, query, body }) => {
	const [, id] = segments;
	if (!id && method === 'GET') {
		const since = query.updated_since ? Date.parse(query.updated_since) : undefined;
		if (since !== undefined && !Number.isFinite(since))
			throw validationFailed({ updated_since: ['must be an ISO 8601 date-time'] });
		const matching = ctx.state.conversations.filter(
			(entry) =>
				(!query.status || entry.status === query.status) &&
				(query.escalated === undefined || String(entry.escalated) === query.escalated) &&
				(!query.activity_type || entry.activity_type === query.activity_type) &&
				(!query.phone_number || entry.contact.phone_number === query.phone_number) &&
				(query.has_call_permission === undefined ||
					String(entry.has_call_permission) === query.has_call_permission) &&
				(since === undefined || Date.parse(entry.updated_at) >= since),
		);
		return ctx.listPage(matching, query, '/conversations', 'conversations');
	}
	if (id && method === 'PATCH') {
		const conversation = ctx.state.conversations.find((entry) => entry.id === id);
		if (!conversation) throw notFound('Conversation', id);
		if (!CONVERSATION_STATUSES.includes(body.status as string))
			throw validationFailed({ status: [`must be one of ${CONVERSATION_STATUSES.join(', ')}`] });
		conversation.status = body.status as string;
		conversation.activity_type = 'status_change';
		conversation.updated_at = ctx.now();
		logActivity(
			ctx.state.activities,
			conversation,
			'status_change',
			`The status changed to ${conversation.status}`,
			conversation.updated_at,
		);
		return { status: 200, body: conversation };
	}
	return undefined;
};

export const messageRoutes: Route = (ctx, { method, segments, query }) => {
	if (segments.length !== 1 || method !== 'GET') return undefined;
	if (query.direction && !['inbound', 'outbound'].includes(query.direction))
		throw validationFailed({ direction: ['must be inbound or outbound'] });
	const from = query.from ? Date.parse(query.from) : -Infinity;
	const to = query.to ? Date.parse(query.to) : Infinity;
	const matching = ctx.state.messages.filter(
		(message) =>
			(!query.phone_number || message.phone_number === query.phone_number) &&
			(!query.conversation_id || message.conversation_id === query.conversation_id) &&
			(!query.business_phone_number ||
				message.business_phone_number === query.business_phone_number) &&
			(!query.direction || message.direction === query.direction) &&
			Date.parse(message.created_at) >= from &&
			Date.parse(message.created_at) < to,
	);
	return ctx.listPage(matching, query, '/messages', 'messages');
};

/**
 * GET /activities: Peach's API skill lists the path and nothing more. The sandbox reads it as the
 * conversations' activity log, `{count, next, previous, activities}` paged like its other lists,
 * narrowed by `conversation_id` or `activity_type` when given; other parameters are ignored.
 */
export const activityRoutes: Route = (ctx, { method, segments, query }) => {
	if (segments.length !== 1 || method !== 'GET') return undefined;
	const matching = ctx.state.activities.filter(
		(activity) =>
			(!query.conversation_id || activity.conversation_id === query.conversation_id) &&
			(!query.activity_type || activity.activity_type === query.activity_type),
	);
	return ctx.listPage(matching, query, '/activities', 'activities');
};
