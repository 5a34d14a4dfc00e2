/**
 * The API's own words in a Peach error body (a 422's `reason`, `errors`, `message`, `error`, `code`), with
 * the request fields Peach names turned into the node's field names.
 */
import { isPlainObject } from '../helpers/json';

/** `reason` of a 422 (`{"template_message": {"whats_app_template_id": ["is not approved"]}}`) as "field: message" lines. */
export function flattenReasons(reason: unknown, path = ''): string[] {
	if (typeof reason === 'string') return [path ? `${path}: ${reason}` : reason];
	if (Array.isArray(reason)) {
		if (reason.every((entry) => typeof entry === 'string' || typeof entry === 'number')) {
			return reason.length ? [path ? `${path}: ${reason.join(', ')}` : reason.join(', ')] : [];
		}
		return reason.flatMap((entry) => flattenReasons(entry, path));
	}
	if (isPlainObject(reason)) {
		return Object.entries(reason).flatMap(([key, value]) =>
			flattenReasons(value, path ? `${path}.${key}` : key),
		);
	}
	if (reason === null || reason === undefined) return [];
	return [path ? `${path}: ${String(reason)}` : String(reason)];
}

/**
 * The node's names of the request fields Peach's validation names (`template_message.whats_app_template_id`
 * is the Template field), so a refusal names what the user can change; a field not listed keeps
 * Peach's path.
 */
const NODE_FIELDS: Array<[prefix: string, name: string]> = [
	['template_message.whats_app_template_id', 'Template'],
	['broadcast.whats_app_template_id', 'Template'],
	['flow.whats_app_template_id', 'Fallback Template'],
	['template_message.liquid_values', 'Variables'],
	['broadcast.liquid_values', 'Global Variables'],
	['flow.liquid_values', 'Variables'],
	['contact.phone_number', 'Phone Number'],
	['template_message.business_phone_number', 'Business Phone Number'],
	['template_message.retry_until', 'Retry Until'],
	['broadcast.audience_id', 'Audience ID'],
	['broadcast.scheduled_launch_time', 'Scheduled Launch Time'],
	['ai_agent.id', 'AI Agent ID'],
];

/** A "path: message" line of a 422 in the node's words: `Template: is not approved`. */
function inNodeWords(line: string): string {
	for (const [prefix, name] of NODE_FIELDS) {
		if (line.startsWith(`${prefix}: `)) return `${name}: ${line.slice(prefix.length + 2)}`;
		if (line.startsWith(`${prefix}.`)) {
			const rest = line.slice(prefix.length + 1);
			return `${name} → ${rest}`;
		}
	}
	return line;
}

/** The API's own words from an error body, whatever its shape; '' when there are none. */
export function apiErrorText(body: unknown): string {
	if (typeof body === 'string') {
		const text = body.trim();
		if (text === '' || /^<(!doctype|html)/i.test(text)) return '';
		return text.length > 300 ? `${text.slice(0, 297)}...` : text;
	}
	if (!isPlainObject(body)) return '';
	const parts: string[] = [];
	if (body.reason !== undefined) parts.push(...flattenReasons(body.reason).map(inNodeWords));
	if (body.errors !== undefined) parts.push(...flattenReasons(body.errors));
	if (typeof body.message === 'string' && body.message) parts.push(body.message);
	if (typeof body.error === 'string' && body.error) parts.push(body.error);
	if (isPlainObject(body.error) && typeof body.error.message === 'string')
		parts.push(body.error.message);
	const unique = [...new Set(parts.map((part) => part.trim()).filter(Boolean))];
	let text = unique.join('; ');
	if (typeof body.code === 'string' && body.code && !text.includes(body.code)) {
		text = text ? `${text} (${body.code})` : body.code;
	}
	return text;
}
