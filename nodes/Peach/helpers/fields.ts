import { PeachInputError } from './inputError';

/**
 * A required text value, e.g. an ID. A number (an expression or an AI agent's `$fromAI` may give
 * one) is used as its text; only a missing or blank value is "empty".
 */
export function requireText(field: string, value: unknown, fix: string): string {
	const text = typeof value === 'number' && Number.isFinite(value) ? String(value) : value;
	if (typeof text !== 'string' || text.trim() === '') {
		throw new PeachInputError(
			field,
			value,
			typeof text === 'string' || text === undefined || text === null ? 'is empty' : 'is not text',
			fix,
		);
	}
	return text.trim();
}

/** Whether an optional parameter was given a value (n8n leaves unset ones undefined or ''). */
export function isSet(value: unknown): boolean {
	return value !== undefined && value !== null && value !== '';
}

export function validateEmail(field: string, value: string): string {
	const trimmed = value.trim();
	if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(trimmed)) {
		throw new PeachInputError(
			field,
			value,
			'is not an email address',
			'Enter an address such as name@example.com, or remove the field.',
		);
	}
	return trimmed;
}

export function validateHttpUrl(field: string, value: unknown): string {
	const text = typeof value === 'string' ? value.trim() : '';
	let parsed: URL | undefined;
	try {
		parsed = new URL(text);
	} catch {
		parsed = undefined;
	}
	if (
		!parsed ||
		(parsed.protocol !== 'http:' && parsed.protocol !== 'https:') ||
		!parsed.hostname
	) {
		throw new PeachInputError(
			field,
			value,
			'is not an http(s) URL',
			'Enter a full URL that starts with https:// (or http://), e.g. https://example.com/peach/backend.',
		);
	}
	return text;
}

/** One of the allowed values, or undefined when the field was left out. */
export function oneOf(
	field: string,
	value: unknown,
	allowed: readonly string[],
): string | undefined {
	if (!isSet(value)) return undefined;
	if (typeof value !== 'string' || !allowed.includes(value)) {
		throw new PeachInputError(
			field,
			value,
			'is not an allowed value',
			`Use one of: ${allowed.join(', ')}.`,
		);
	}
	return value;
}

/**
 * This n8n's waiting-webhook address (e.g. https://n8n.example.com/webhook-waiting), from a resume
 * link n8n made for the execution `executionId` (`<address>/<execution>/<node>?signature=...`).
 */
export function waitingWebhookBase(resumeLink: string, executionId: string): string {
	const at = resumeLink.lastIndexOf(`/${executionId}/`);
	return at === -1 ? resumeLink.replace(/\/[^/]*\/[^/]*$/, '') : resumeLink.slice(0, at);
}
