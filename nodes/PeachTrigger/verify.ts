import { createHash, timingSafeEqual } from 'crypto';

/** Constant-time comparison of the received secret with the configured one. */
export function secretMatches(received: unknown, expected: string): boolean {
	if (typeof received !== 'string' || expected === '') return false;
	const a = createHash('sha256').update(received).digest();
	const b = createHash('sha256').update(expected).digest();
	return timingSafeEqual(a, b);
}

/**
 * How long a trigger node keeps the secret it read from its credential, and for how many nodes. n8n
 * reads a credential from its database, decrypts it and resolves it in its expression sandbox on
 * every read: on n8n 2.40 that was most of a delivery's time (`npm run bench`).
 */
export const SECRET_KEPT = { ms: 10_000, nodes: 500 };

const kept = new Map<string, { secret: string; readAt: number }>();

/**
 * Whether the received secret is the one in the credential. Every delivery is checked; the secret
 * read for `scope` (the node and its credential) is reused for SECRET_KEPT.ms, and a secret that does
 * not match the one kept is checked against a fresh read: a changed secret works at once, and the
 * one it replaced stops working within SECRET_KEPT.ms.
 */
export async function verifySecret(
	received: unknown,
	scope: string,
	read: () => Promise<string>,
): Promise<boolean> {
	// A monotonic clock: a wall clock stepped back (time sync, a restored VM) would keep a replaced
	// secret working for the size of the step.
	const now = performance.now();
	const known = kept.get(scope);
	if (known && now - known.readAt < SECRET_KEPT.ms && secretMatches(received, known.secret)) {
		return true;
	}
	const secret = await read();
	kept.delete(scope);
	kept.set(scope, { secret, readAt: now });
	while (kept.size > SECRET_KEPT.nodes) kept.delete(kept.keys().next().value as string);
	return secretMatches(received, secret);
}
