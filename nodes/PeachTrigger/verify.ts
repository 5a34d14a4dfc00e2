import { createHash, timingSafeEqual } from 'crypto';

/** Constant-time comparison of the received secret with the configured one. */
export function secretMatches(received: unknown, expected: string): boolean {
	if (typeof received !== 'string' || expected === '') return false;
	const a = createHash('sha256').update(received).digest();
	const b = createHash('sha256').update(expected).digest();
	return timingSafeEqual(a, b);
}
