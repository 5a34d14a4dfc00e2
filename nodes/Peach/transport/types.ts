import type { IDataObject, IHttpRequestMethods } from 'n8n-workflow';

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
	 * Whether repeating the request could deliver a message or move money (sends, refunds). Such a
	 * request is never retried, and an unclear failure says it may already have happened.
	 */
	delivers?: boolean;
}

export interface PeachResponse {
	statusCode: number;
	body: unknown;
	headers: Record<string, unknown>;
}
