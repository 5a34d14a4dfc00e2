import type {
	IDataObject,
	IExecuteFunctions,
	IHookFunctions,
	IHttpRequestMethods,
	ILoadOptionsFunctions,
} from 'n8n-workflow';

import type { ApiPath } from './path';
import type { DeliveryPermit } from './permit';

export interface PeachRequest {
	method: IHttpRequestMethods;
	/** Path below /api/v1, e.g. `/events` or `/triggers/trig_1`: made by `apiPath` (path.ts) only. */
	path: ApiPath;
	body?: IDataObject | IDataObject[];
	qs?: IDataObject;
	itemIndex?: number;
	/** Names the entity in a 404, e.g. `{ label: 'Trigger', id: 'trig_1' }`. */
	notFound?: { label: string; id: string };
	/**
	 * For a request that delivers a message or moves money (sends, refunds): the delivering run's permit,
	 * given only once every item was checked. Such a request is never sent again once Peach may have
	 * taken it (only a 429, which Peach did not take, is sent again after Retry-After), and an unclear
	 * failure says it may already have happened.
	 */
	delivers?: DeliveryPermit;
	/**
	 * A monotonic time (`performance.now()`) the request must not outlive: its timeout is the time
	 * left, and a 429 is not waited out past it (Wait for Delivery's one time limit).
	 */
	deadline?: number;
}

export interface PeachResponse {
	statusCode: number;
	body: unknown;
	headers: Record<string, unknown>;
}

/** Where requests are made from: an execution, a list search or a hook. */
export type PeachContext = IExecuteFunctions | ILoadOptionsFunctions | IHookFunctions;
