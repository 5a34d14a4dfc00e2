import { PeachInputError } from '../helpers/inputError';

/**
 * Paths below /api/v1, built only here: every value put into a path is exactly one segment under its
 * resource. An ID of `.` or `..` (also written `%2e`) would be a step out of the path, and the
 * request would reach another endpoint (`/streams/../events` is Peach's send endpoint); an ID with a
 * `/` or `\` would add steps. Such values are refused before any request; everything else is
 * percent-encoded. A request takes only an ApiPath, so no operation can put a raw ID into a path.
 */

declare const segmentBrand: unique symbol;
declare const pathBrand: unique symbol;

/** One value checked and encoded for a path. */
export type PathSegment = string & { readonly [segmentBrand]: true };
/** A path below /api/v1, e.g. `/orders/wa_ord_1/refunds`. */
export type ApiPath = string & { readonly [pathBrand]: true };

/** The value as servers read it: percent-decoded (twice, as some proxies do), else as it is. */
function decoded(text: string): string {
	let value = text;
	for (let round = 0; round < 2; round++) {
		try {
			value = decodeURIComponent(value);
		} catch {
			// Not valid percent-encoding: servers take it literally, and so does this check.
			return value;
		}
	}
	return value;
}

/** `value` (an ID, a phone number, a name) as one path segment; `field` names it in a refusal. */
export function segment(field: string, value: unknown): PathSegment {
	const text = typeof value === 'number' ? String(value) : typeof value === 'string' ? value : '';
	const read = decoded(text);
	let problem: string | undefined;
	if (text.trim() === '') problem = 'is empty';
	else if (read === '.' || read === '..') problem = 'is a step in a path, not an ID';
	else if (/[/\\]/.test(read)) problem = 'contains / or \\';
	else if ([...read].some((character) => character.charCodeAt(0) < 32))
		problem = 'contains a control character';
	if (problem) {
		throw new PeachInputError(
			field,
			value,
			problem,
			`Use the ${field} exactly as Peach shows it (e.g. from the list); it is sent as one part of the request path.`,
		);
	}
	return encodeURIComponent(text) as PathSegment;
}

/** A path from its fixed parts and checked segments: apiPath`/orders/${segment('Order ID', id)}/refunds`. */
export function apiPath(parts: TemplateStringsArray, ...segments: PathSegment[]): ApiPath {
	return parts.reduce((path, part, index) => `${path}${segments[index - 1]}${part}`) as ApiPath;
}
