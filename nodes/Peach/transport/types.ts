import type {
	IDataObject,
	IExecuteFunctions,
	IHookFunctions,
	IHttpRequestMethods,
	ILoadOptionsFunctions,
} from 'n8n-workflow';

import type { DeliveryPermit } from './permit';

export interface PeachRequest {
	method: IHttpRequestMethods;
	/** Path below /api/v1, e.g. `/events` or `/triggers/trig_1`. */
	path: string;
	body?: IDataObject | IDataObject[];
	qs?: IDataObject;
	itemIndex?: number;
	/** Names the entity in a 404, e.g. `{ label: 'Trigger', id: 'trig_1' }`. */
	notFound?: { label: string; id: string };
	/**
	 * For a request that delivers a message or moves money (sends, refunds): the router's permit,
	 * given only once every item was checked. Such a request is never retried, and an unclear failure
	 * says it may already have happened.
	 */
	delivers?: DeliveryPermit;
}

export interface PeachResponse {
	statusCode: number;
	body: unknown;
	headers: Record<string, unknown>;
}

/** Where requests are made from: an execution, a list search or a hook. */
export type PeachContext = IExecuteFunctions | ILoadOptionsFunctions | IHookFunctions;
