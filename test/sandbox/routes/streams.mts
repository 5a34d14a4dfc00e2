/** Automations (streams): list (execution_mode filter), create, get, update (publishing validates), their triggers. */
import {
	isObject,
	notFound,
	Reasons,
	type Route,
	type RouteContext,
	type RouteResult,
	validationFailed,
} from '../http.mts';
import { isHttpUrl, isWaId, validateDefinition } from '../rules.mts';
import { type Automation, BUSINESS_PHONE_NUMBER, type JsonObject, newId } from '../state/index.mts';

function createAutomation(ctx: RouteContext, body: JsonObject): RouteResult {
	const reasons = new Reasons();
	const fail = (field: string, message: string) => reasons.field(field, message);
	if (typeof body.name !== 'string' || body.name.trim() === '') fail('name', "can't be blank");
	if (
		body.status !== undefined &&
		!['draft', 'published', 'archived'].includes(body.status as string)
	)
		fail('status', 'must be draft, published or archived');
	if (
		body.execution_mode !== undefined &&
		!['backend_driven', 'definition_driven'].includes(body.execution_mode as string)
	)
		fail('execution_mode', 'must be backend_driven or definition_driven');
	if (body.definition !== undefined && !isObject(body.definition))
		fail('definition', 'must be an object');
	if (body.backend_url !== undefined && !isHttpUrl(body.backend_url))
		fail('backend_url', 'must be an http(s) URL');
	if (body.business_phone_number !== undefined && !isWaId(String(body.business_phone_number)))
		fail('business_phone_number', 'must be digits with the country code, no +');
	const status = (body.status as string | undefined) ?? 'draft';
	if (status === 'published' && !reasons.any) {
		for (const problem of validateDefinition(body.definition)) fail('definition', problem);
	}
	reasons.throwIfAny();
	const at = ctx.now();
	const automation: Automation = {
		id: newId('strm_'),
		name: (body.name as string).trim(),
		description: (body.description as string | undefined) ?? null,
		status,
		execution_mode:
			(body.execution_mode as string | undefined) ??
			(body.definition !== undefined ? 'definition_driven' : 'backend_driven'),
		phone_number: (body.business_phone_number as string | undefined) ?? BUSINESS_PHONE_NUMBER,
		backend_url: (body.backend_url as string | undefined) ?? null,
		definition: (body.definition as JsonObject | undefined) ?? null,
		created_at: at,
		updated_at: at,
	};
	ctx.state.automations.push(automation);
	return { status: 201, body: automation };
}

function updateAutomation(
	ctx: RouteContext,
	automation: Automation,
	body: JsonObject,
): RouteResult {
	const next = { ...automation, ...body } as Automation;
	if (next.status === 'published') {
		const problems = validateDefinition(next.definition);
		if (problems.length) throw validationFailed({ definition: problems });
	}
	Object.assign(automation, body, { updated_at: ctx.now() });
	return { status: 200, body: automation };
}

export const streamRoutes: Route = (ctx, { method, segments, query, body }) => {
	const [, id, sub] = segments;
	if (!id) {
		if (method === 'GET') {
			const filtered = query.execution_mode
				? ctx.state.automations.filter((entry) => entry.execution_mode === query.execution_mode)
				: ctx.state.automations;
			return ctx.listPage(filtered, query, '/streams', 'streams');
		}
		if (method === 'POST') return createAutomation(ctx, body);
		return undefined;
	}
	const automation = ctx.state.automations.find((entry) => entry.id === id);
	if (!automation) throw notFound('Automation', id);
	if (!sub && method === 'GET') return { status: 200, body: automation };
	if (!sub && method === 'PATCH') return updateAutomation(ctx, automation, body);
	if (sub === 'triggers' && method === 'GET') {
		const own = ctx.state.triggers.filter((entry) => entry.stream_id === id);
		return ctx.listPage(own, query, `/streams/${id}/triggers`, 'triggers');
	}
	return undefined;
};
