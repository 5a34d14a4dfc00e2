/**
 * The formats Peach documents, read here independently of the node (the node has its own, stricter
 * checks; the sandbox must not reuse them, so that tests compare two readings of the same docs).
 */
import { IANAZone } from 'luxon';

/** E.164 as ITU defines it: + and at most 15 digits, the country code not starting with 0. */
export function isE164(value: string): boolean {
	if (!value.startsWith('+')) return false;
	const digits = value.slice(1);
	return (
		digits.length >= 2 &&
		digits.length <= 15 &&
		[...digits].every((c) => c >= '0' && c <= '9') &&
		digits[0] !== '0'
	);
}

/** A WhatsApp wa_id (the business number): the country code and number, digits only, no +. */
export function isWaId(value: string): boolean {
	return value.length >= 7 && value.length <= 15 && [...value].every((c) => c >= '0' && c <= '9');
}

/** HH:MM on a 24-hour clock, as in the documented retry window ("08:00"). */
export function isTimeOfDay(value: string): boolean {
	const [hours, minutes, extra] = value.split(':');
	return (
		extra === undefined &&
		hours?.length === 2 &&
		minutes?.length === 2 &&
		Number(hours) >= 0 &&
		Number(hours) <= 23 &&
		Number(minutes) >= 0 &&
		Number(minutes) <= 59
	);
}

/** An IANA time zone name (e.g. Asia/Kolkata), as Luxon's zone database knows it. */
export function isIanaTimeZone(value: string): boolean {
	return IANAZone.isValidZone(value);
}

export function isHttpUrl(value: unknown): boolean {
	return typeof value === 'string' && /^https?:\/\/\S+$/.test(value);
}

/** Publish-time checks of an automation's step graph `{start_step, steps: {id: {type, next_step?}}}`. */
export function validateDefinition(definition: unknown): string[] {
	if (typeof definition !== 'object' || definition === null || Array.isArray(definition))
		return ['must be an object'];
	const graph = definition as { start_step?: unknown; steps?: unknown };
	const problems: string[] = [];
	const steps =
		typeof graph.steps === 'object' && graph.steps !== null && !Array.isArray(graph.steps)
			? (graph.steps as Record<string, unknown>)
			: undefined;
	if (!steps) problems.push('steps must be an object of steps');
	if (typeof graph.start_step !== 'string' || graph.start_step === '') {
		problems.push('start_step must name the first step');
	} else if (steps && !Object.hasOwn(steps, graph.start_step)) {
		problems.push(`start_step "${graph.start_step}" is not one of the steps`);
	}
	for (const [id, step] of Object.entries(steps ?? {})) {
		const { type, next_step: next } = (step ?? {}) as { type?: unknown; next_step?: unknown };
		if (typeof step !== 'object' || step === null || typeof type !== 'string')
			problems.push(`step "${id}" needs a type`);
		else if (typeof next === 'string' && !Object.hasOwn(steps ?? {}, next)) {
			problems.push(`step "${id}" has next_step "${next}", which is not a step`);
		}
	}
	return problems;
}
