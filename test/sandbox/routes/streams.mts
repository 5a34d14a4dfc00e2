/** Automations (streams): list (execution_mode filter), create, get, update (publishing validates), their triggers. */
import {
	HttpError,
	isObject,
	isStringMap,
	notFound,
	Reasons,
	type Route,
	type RouteContext,
	type RouteResult,
	validationFailed,
} from '../http.mts';
import { isE164, isHttpUrl, isWaId, validateDefinition } from '../rules.mts';
import {
	type Automation,
	BUSINESS_PHONE_NUMBER,
	type Expression,
	type JsonObject,
	newId,
	type Trigger,
} from '../state/index.mts';

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

/**
 * POST /streams/{id}/events: `contact` (phone in E.164) plus any payload keys at the top level, as
 * Peach's MCP server sends them. Only a published automation runs.
 */
function triggerAutomation(
	ctx: RouteContext,
	automation: Automation,
	body: JsonObject,
): RouteResult {
	const contact = body.contact;
	if (
		!isObject(contact) ||
		typeof contact.phone_number !== 'string' ||
		!isE164(contact.phone_number)
	)
		throw validationFailed({
			contact: { phone_number: ['is not a valid E.164 phone number (+ and country code)'] },
		});
	if (automation.status !== 'published')
		throw validationFailed({
			stream: [`is ${automation.status}: only a published automation can be triggered`],
		});
	ctx.state.automationRuns.push({ stream_id: automation.id, body, at: ctx.now() });
	return { status: 200, body: { status: 'success', event_id: newId('evt_') } };
}

/** An error with one of the machine codes Peach documents for triggers. */
function coded(status: number, code: string, message: string): HttpError {
	return new HttpError(status, { message, code });
}

/**
 * POST /streams/{id}/triggers: a condition by its friendly name (`condition`, with `source` to tell
 * apart two integrations' conditions of one name) or by `expression_id`; variables the expression
 * needs; data mappings; `activate` (default false: a draft). The documented error codes:
 * condition_not_found (404), condition_ambiguous and event_source_not_connected (409),
 * missing_variables (422).
 */
function createTrigger(ctx: RouteContext, automation: Automation, body: JsonObject): RouteResult {
	let expression: Expression | undefined;
	if (typeof body.expression_id === 'string') {
		expression = ctx.state.expressions.find((entry) => entry.id === body.expression_id);
		if (!expression) throw coded(404, 'condition_not_found', `No expression ${body.expression_id}`);
	} else {
		if (typeof body.condition !== 'string' || body.condition === '')
			throw validationFailed({ condition: ["can't be blank (or give expression_id)"] });
		const named = ctx.state.expressions.filter(
			(entry) =>
				entry.description.toLowerCase() === String(body.condition).toLowerCase() &&
				(typeof body.source !== 'string' || entry.source === body.source),
		);
		if (named.length === 0)
			throw coded(404, 'condition_not_found', `No condition named "${body.condition}"`);
		if (named.length > 1)
			throw coded(
				409,
				'condition_ambiguous',
				`"${body.condition}" exists for ${named.map((e) => e.source).join(' and ')}`,
			);
		expression = named[0];
	}
	if (!ctx.state.connectedSources.includes(expression.source))
		throw coded(
			409,
			'event_source_not_connected',
			`The ${expression.source} integration is not connected`,
		);
	const variables = isStringMap(body.variables) ? body.variables : {};
	if (body.variables !== undefined && !isStringMap(body.variables))
		throw validationFailed({ variables: ['must map strings to strings'] });
	const missing = expression.variables.filter((name) => !Object.hasOwn(variables, name));
	if (missing.length)
		throw coded(422, 'missing_variables', `Missing variables: ${missing.join(', ')}`);
	const mappings = body.data_mappings ?? [];
	if (!Array.isArray(mappings)) throw validationFailed({ data_mappings: ['must be an array'] });
	const at = ctx.now();
	const trigger: Trigger = {
		id: newId('trig_'),
		stream_id: automation.id,
		status: body.activate === true ? 'active' : 'draft',
		description: typeof body.description === 'string' ? body.description : null,
		condition: { expression_id: expression.id, topic: expression.topic, variables },
		data_mappings: mappings as Trigger['data_mappings'],
		created_at: at,
		updated_at: at,
	};
	ctx.state.triggers.push(trigger);
	if (body.activate === true)
		ctx.state.registrations.push({
			trigger_id: trigger.id,
			stream_id: automation.id,
			registered_at: at,
		});
	return { status: 201, body: trigger };
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
	if (sub === 'events' && method === 'POST') return triggerAutomation(ctx, automation, body);
	if (sub === 'triggers' && method === 'POST') return createTrigger(ctx, automation, body);
	if (sub === 'triggers' && method === 'GET') {
		const own = ctx.state.triggers.filter((entry) => entry.stream_id === id);
		return ctx.listPage(own, query, `/streams/${id}/triggers`, 'triggers');
	}
	return undefined;
};
