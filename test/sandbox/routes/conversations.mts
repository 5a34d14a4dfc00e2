/**
 * Conversations: list (status, escalated, activity_type, phone_number, has_call_permission,
 * updated_since) and PATCH /conversations/{id} {status}; GET /messages (phone_number,
 * conversation_id, business_phone_number, direction, from, to) with `{count, next, previous, messages}`.
 */
import { notFound, type Route, validationFailed } from '../http.mts';

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
