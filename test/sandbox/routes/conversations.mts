/** GET /api/v1/conversations (the credential test's call): the contacts' conversations. */
import type { Route } from '../http.mts';

export const conversationRoutes: Route = (ctx, { method, segments, query }) => {
	const [, id] = segments;
	if (!id && method === 'GET') {
		return ctx.listPage(ctx.state.contacts, query, '/conversations', 'conversations', (entry) => ({
			id: `conv_${entry.id}`,
			status: 'open',
			contact: entry,
		}));
	}
	return undefined;
};
