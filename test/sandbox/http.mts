/** What every sandbox route shares: errors in Peach's documented shapes, list pages, the route contract. */
import type { Json, JsonObject, SandboxState } from './state/index.mts';

export class HttpError extends Error {
	constructor(
		readonly status: number,
		readonly body: JsonObject,
	) {
		super(`HTTP ${status}`);
	}
}

/** 422 in Peach's documented validation shape: {"status":"failed","reason":{"<obj>":{"<field>":["msg"]}}}. */
export function validationFailed(reason: JsonObject): HttpError {
	return new HttpError(422, { status: 'failed', reason });
}

export function notFound(what: string, id: string): HttpError {
	return new HttpError(404, { message: `${what} not found`, id });
}

export function isObject(value: unknown): value is JsonObject {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function isStringMap(value: unknown): value is { [key: string]: string } {
	return isObject(value) && Object.values(value).every((entry) => typeof entry === 'string');
}

/** Collects validation messages per field; `throwIfAny` answers them as one 422. */
export class Reasons {
	readonly reason: { [key: string]: string[] | { [field: string]: string[] } } = {};

	/** A message for a top-level field (streams, triggers). */
	field(field: string, message: string): void {
		((this.reason[field] ??= []) as string[]).push(message);
	}

	/** A message for a field of a nested object (`template_message.whats_app_template_id`). */
	nested(object: string, field: string, message: string): void {
		const group = (this.reason[object] ??= {}) as { [field: string]: string[] };
		(group[field] ??= []).push(message);
	}

	get any(): boolean {
		return Object.keys(this.reason).length > 0;
	}

	throwIfAny(): void {
		if (this.any) throw validationFailed(this.reason);
	}
}

/** One page of `items` by `page` and `per` (or `per_page`), with `next`/`previous` URLs. */
export function paginate<T>(
	items: T[],
	query: Record<string, string>,
	baseUrl: string,
	path: string,
) {
	const per = Math.min(Math.max(Number(query.per ?? query.per_page ?? 25) || 25, 1), 1000);
	const page = Math.max(Number(query.page ?? 1) || 1, 1);
	const slice = items.slice((page - 1) * per, page * per);
	const link = (n: number) => `${baseUrl}/api/v1${path}?page=${n}&per=${per}`;
	return {
		count: items.length,
		next: page * per < items.length ? link(page + 1) : null,
		previous: page > 1 ? link(page - 1) : null,
		slice,
	};
}

export interface RouteResult {
	status: number;
	body: Json;
}

/** What a route may use of the running sandbox. */
export interface RouteContext {
	readonly state: SandboxState;
	readonly baseUrl: string;
	readonly deliveryDelayMs: number;
	now(): string;
	/** Posts a webhook to every target (Peach's outbound webhooks). */
	deliver(type: string, data: JsonObject): Promise<void>;
	/** Keeps background work (delayed webhooks) so the sandbox can wait for it. */
	track(work: Promise<void>): void;
	/** A documented list envelope, `{count, next, previous, <key>: [...]}`, for one page of `items`. */
	listPage<T>(
		items: T[],
		query: Record<string, string>,
		path: string,
		key: string,
		map?: (item: T) => Json,
	): RouteResult;
}

export interface RouteRequest {
	method: string;
	/** The path after /api/v1, split: `['streams', 'strm_1', 'triggers']`. */
	segments: string[];
	query: Record<string, string>;
	/** The JSON body when it is an object, else {}. */
	body: JsonObject;
	/** The JSON body as sent (an array for a bulk create). */
	raw: Json | undefined;
}

/** A resource's routes: the answer, or undefined when the request is not one of them. */
export type Route = (ctx: RouteContext, request: RouteRequest) => RouteResult | undefined;
