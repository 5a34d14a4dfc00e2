import { isPlainObject } from '../helpers/json';

const NETWORK_CODES: Record<string, string> = {
	ECONNREFUSED: 'connection refused',
	ECONNRESET: 'connection closed unexpectedly',
	ECONNABORTED: 'timed out',
	ETIMEDOUT: 'timed out',
	ESOCKETTIMEDOUT: 'timed out',
	ENOTFOUND: 'host not found',
	EAI_AGAIN: 'host name lookup failed',
	EHOSTUNREACH: 'host unreachable',
	ENETUNREACH: 'network unreachable',
	CERT_HAS_EXPIRED: 'TLS certificate expired',
	DEPTH_ZERO_SELF_SIGNED_CERT: 'self-signed TLS certificate',
	SELF_SIGNED_CERT_IN_CHAIN: 'self-signed TLS certificate',
	UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'TLS certificate not trusted',
	ERR_TLS_CERT_ALTNAME_INVALID: 'TLS certificate for another host',
};

/**
 * Failures before a request left this machine (no connection was made, or TLS refused the host):
 * the request did not happen. Any other failure (a reset, a timeout) may come after Peach got it.
 */
const NEVER_SENT_CODES = new Set([
	'ECONNREFUSED',
	'ENOTFOUND',
	'EAI_AGAIN',
	'EHOSTUNREACH',
	'ENETUNREACH',
	'CERT_HAS_EXPIRED',
	'DEPTH_ZERO_SELF_SIGNED_CERT',
	'SELF_SIGNED_CERT_IN_CHAIN',
	'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
	'ERR_TLS_CERT_ALTNAME_INVALID',
]);

/** A failure before any HTTP answer, as read from the error: its code, its words, and whether nothing was sent. */
export interface NetworkFailure {
	code: string | undefined;
	/** The code in words (`connection refused`), else the code, the original text or `no answer`. */
	what: string;
	neverSent: boolean;
}

/** Reads a failure before any HTTP answer: only these fields, never the request config, which holds the key. */
export function readNetworkFailure(error: unknown): NetworkFailure {
	const source = isPlainObject(error) ? error : {};
	const cause = isPlainObject(source.cause) ? source.cause : {};
	// n8n 1.x hands over its own NodeApiError: the code is gone, its message is advice of its own
	// ("You can retry the request immediately"), and the original text ("read ECONNRESET") is in messages.
	const originalTexts = (Array.isArray(source.messages) ? source.messages : []).filter(
		(text): text is string => typeof text === 'string',
	);
	const code = ([source.code, cause.code].find((value) => typeof value === 'string') ??
		originalTexts
			.map(
				(text) =>
					Object.keys(NETWORK_CODES).find((known) => text.includes(known)) ??
					(text.includes('socket hang up') ? 'ECONNRESET' : undefined),
			)
			.find(Boolean)) as string | undefined;
	const rawMessage = [originalTexts[0], source.message, cause.message].find(
		(value) => typeof value === 'string' && value,
	) as string | undefined;
	const what = (code && NETWORK_CODES[code]) || code || rawMessage || 'no answer';
	return { code, what, neverSent: code !== undefined && NEVER_SENT_CODES.has(code) };
}

/**
 * What to do about the machine codes Peach's trigger errors carry, whatever the HTTP status they
 * come with (409, 404 and 422 in Peach's skill docs).
 */
const CODE_FIXES: Record<string, string> = {
	event_source_not_connected:
		'Connect the integration (e.g. Shopify or Stripe) in the Peach web app first, then run again.',
	condition_ambiguous:
		'Several integrations have a condition of this name: set Source (e.g. peach_shopify), or pick the condition From List, which sends its exact ID.',
	condition_not_found:
		'No condition of this name exists: pick one From List (the Condition Library), or check the spelling.',
	missing_variables:
		"The condition needs variables you did not give: add them under Variables (the Condition Library lists each condition's variables).",
};

/** The fix for the machine code of an error body (`code`, or `error.code`); undefined when it has no known one. */
export function codeFixOf(body: unknown): string | undefined {
	if (!isPlainObject(body)) return undefined;
	const code = body.code ?? (isPlainObject(body.error) ? body.error.code : undefined);
	return typeof code === 'string' && Object.prototype.hasOwnProperty.call(CODE_FIXES, code)
		? CODE_FIXES[code]
		: undefined;
}
