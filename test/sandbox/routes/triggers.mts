/** PATCH /api/v1/triggers/{id}: description, variables, data mappings (replace all), activate / pause. */
import {
	isObject,
	isStringMap,
	notFound,
	Reasons,
	type Route,
	type RouteContext,
	type RouteResult,
} from '../http.mts';
import type { JsonObject, Trigger } from '../state/index.mts';

function updateTrigger(ctx: RouteContext, trigger: Trigger, body: JsonObject): RouteResult {
	const reasons = new Reasons();
	const fail = (field: string, message: string) => reasons.field(field, message);
	if (body.variables !== undefined && !isStringMap(body.variables))
		fail('variables', 'must map strings to strings');
	if (body.description !== undefined && typeof body.description !== 'string')
		fail('description', 'must be a string');
	if (body.activate !== undefined && typeof body.activate !== 'boolean')
		fail('activate', 'must be true or false');
	if (body.data_mappings !== undefined) {
		if (!Array.isArray(body.data_mappings)) fail('data_mappings', 'must be an array');
		else {
			body.data_mappings.forEach((mapping, index) => {
				if (
					!isObject(mapping) ||
					!['recipient', 'variable'].includes(mapping.mapping_for as string)
				)
					fail(`data_mappings[${index}].mapping_for`, 'must be recipient or variable');
				else if (!isStringMap(mapping.value))
					fail(`data_mappings[${index}].value`, 'must map strings to strings');
				else if (mapping.mapping_for === 'recipient' && !mapping.value.phone_number)
					fail(`data_mappings[${index}].value.phone_number`, 'is required for a recipient mapping');
			});
		}
	}
	reasons.throwIfAny();
	if (isStringMap(body.variables))
		trigger.condition.variables = { ...trigger.condition.variables, ...body.variables };
	if (Array.isArray(body.data_mappings))
		trigger.data_mappings = body.data_mappings as Trigger['data_mappings'];
	if (typeof body.description === 'string') trigger.description = body.description;
	if (body.activate === true) {
		trigger.status = 'active';
		ctx.state.registrations.push({
			trigger_id: trigger.id,
			stream_id: trigger.stream_id,
			registered_at: ctx.now(),
		});
	} else if (body.activate === false) {
		trigger.status = 'paused';
	}
	trigger.updated_at = ctx.now();
	return { status: 200, body: trigger };
}

export const triggerRoutes: Route = (ctx, { method, segments, body }) => {
	const [, id, sub] = segments;
	if (id && !sub && method === 'PATCH') {
		const trigger = ctx.state.triggers.find((entry) => entry.id === id);
		if (!trigger) throw notFound('Trigger', id);
		return updateTrigger(ctx, trigger, body);
	}
	return undefined;
};
