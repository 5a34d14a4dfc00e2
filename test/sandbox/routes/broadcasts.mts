/**
 * Broadcasts: list (status filter), get, archive (only a finished broadcast: sent or canceled),
 * cancel (only an active one: scheduled or sending; its unsent messages are dropped).
 */
import { notFound, type Route, validationFailed } from '../http.mts';

const ACTIVE = ['scheduled', 'queued', 'sending'];
const FINISHED = ['sent', 'canceled'];

export const broadcastRoutes: Route = (ctx, { method, segments, query }) => {
	const [, id, action] = segments;
	if (!id && method === 'GET') {
		const filtered = query.status
			? ctx.state.broadcasts.filter((entry) => entry.status === query.status)
			: ctx.state.broadcasts;
		return ctx.listPage(filtered, query, '/broadcasts', 'broadcasts');
	}
	if (!id) return undefined;
	const broadcast = ctx.state.broadcasts.find((entry) => entry.id === id);
	if (!broadcast) throw notFound('Broadcast', id);
	if (!action && method === 'GET') return { status: 200, body: broadcast };
	if (method !== 'PATCH' || (action !== 'archive' && action !== 'cancel')) return undefined;
	const allowed = action === 'archive' ? FINISHED : ACTIVE;
	if (!allowed.includes(broadcast.status)) {
		throw validationFailed({
			status: [
				`cannot ${action} a broadcast that is ${broadcast.status} (only ${allowed.join(' or ')})`,
			],
		});
	}
	if (action === 'cancel') {
		for (const message of ctx.state.templateMessages) {
			if (message.broadcast_id === id && message.status === 'queued') message.status = 'canceled';
		}
	}
	broadcast.status = action === 'archive' ? 'archived' : 'canceled';
	broadcast.updated_at = ctx.now();
	return { status: 200, body: broadcast };
};
