/**
 * Reading a webhook delivery as Peach's envelope `{"type": "...", "data": {...}}`, within the limits a
 * delivery may have: anything else is refused with a reason (the webhook answers 400), never thrown.
 */
import type { IDataObject } from 'n8n-workflow';

import { isPlainObject } from '../Peach/helpers/json';

export interface PeachEnvelope {
	type: string;
	data: IDataObject;
}

export type ParseResult = { ok: true; envelope: PeachEnvelope } | { ok: false; reason: string };

/** What a delivery may be: Peach's events are a few KB; anything far past this is refused with 400. */
export const LIMITS = { bodyBytes: 1024 * 1024, typeLength: 200, depth: 64 };

const NOT_JSON =
	'The body is not JSON. Peach posts {"type": "...", "data": {...}} as application/json.';

/** Whether a parsed value nests deeper than `max` levels (checked without recursion). */
export function deeperThan(value: unknown, max: number): boolean {
	const stack: Array<[unknown, number]> = [[value, 1]];
	while (stack.length) {
		const [current, depth] = stack.pop() as [unknown, number];
		if (typeof current !== 'object' || current === null) continue;
		if (depth > max) return true;
		for (const child of Object.values(current)) stack.push([child, depth + 1]);
	}
	return false;
}

/**
 * The body, read from the raw bytes when n8n has them (any content type), else the body n8n parsed;
 * a body past LIMITS.bodyBytes, or one that is not JSON, is refused.
 */
function readBody(
	rawBody: unknown,
	parsedBody: unknown,
): { ok: true; body: unknown } | { ok: false; reason: string } {
	const raw = Buffer.isBuffer(rawBody)
		? rawBody.toString('utf8')
		: typeof rawBody === 'string'
			? rawBody
			: undefined;
	const size = Buffer.isBuffer(rawBody)
		? rawBody.length
		: raw !== undefined
			? Buffer.byteLength(raw)
			: 0;
	if (size > LIMITS.bodyBytes) {
		return { ok: false, reason: "The body is larger than 1 MB; Peach's events are a few KB." };
	}
	if (raw !== undefined && raw.trim() !== '') {
		try {
			return { ok: true, body: JSON.parse(raw) as unknown };
		} catch {
			return { ok: false, reason: NOT_JSON };
		}
	}
	if (typeof parsedBody === 'string') return { ok: false, reason: NOT_JSON };
	return { ok: true, body: parsedBody };
}

/**
 * Peach's envelope in a read body: an object with a "type" no longer than LIMITS.typeLength, nested
 * no deeper than LIMITS.depth, its "data" an object or none.
 */
function envelopeOf(body: unknown): ParseResult {
	if (!isPlainObject(body)) {
		return {
			ok: false,
			reason: `The body is ${Array.isArray(body) ? 'an array' : 'not a JSON object'}; expected {"type": "...", "data": {...}}.`,
		};
	}
	if (typeof body.type !== 'string' || body.type.trim() === '') {
		return { ok: false, reason: 'The body has no "type" (e.g. "message_delivery.sent").' };
	}
	if (body.type.length > LIMITS.typeLength) {
		return {
			ok: false,
			reason: `The body's "type" is longer than ${LIMITS.typeLength} characters.`,
		};
	}
	if (deeperThan(body, LIMITS.depth)) {
		return { ok: false, reason: `The body is nested deeper than ${LIMITS.depth} levels.` };
	}
	if (body.data !== undefined && body.data !== null && !isPlainObject(body.data)) {
		return { ok: false, reason: 'The body\'s "data" is not an object.' };
	}
	return {
		ok: true,
		envelope: { type: body.type.trim(), data: isPlainObject(body.data) ? body.data : {} },
	};
}

/**
 * The webhook body as Peach's envelope `{"type": "...", "data": {...}}`. Reads the raw bytes when n8n
 * has them (any content type), else the body n8n parsed. Never throws.
 */
export function parseEnvelope(rawBody: unknown, parsedBody: unknown): ParseResult {
	const read = readBody(rawBody, parsedBody);
	return read.ok ? envelopeOf(read.body) : read;
}
