/** Shapes shared by the sandbox's state: JSON, recorded requests, webhook deliveries, IDs. */

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

export interface RecordedRequest {
	at: string;
	method: string;
	path: string;
	query: Record<string, string>;
	/** Headers as received, except that Authorization is redacted (see redactAuthorization). */
	headers: Record<string, string>;
	body: Json | undefined;
	rawBody: string;
	status?: number;
	/** performance.now() when the request was read and when its answer was sent: what overlapped. */
	startedMs?: number;
	answeredMs?: number;
}

export interface WebhookDelivery {
	at: string;
	url: string;
	type: string;
	payload: JsonObject;
	status: number | null;
	error: string | null;
}

export interface WebhookTarget {
	url: string;
	headers: Record<string, string>;
}

export const ACCOUNT_ID = 'acc_sandbox';
export const BUSINESS_PHONE_NUMBER = '919876543222';

let counter = 0;
/** A new ID with Peach's prefix for the kind (wat_, strm_, trig_, evt_, cmsg_...). */
export function newId(prefix: string): string {
	counter += 1;
	return `${prefix}${Date.now().toString(36)}${counter.toString(36).padStart(3, '0')}`;
}
