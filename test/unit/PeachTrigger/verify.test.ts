import { describe, expect, it } from 'vitest';

import { secretMatches } from '../../../nodes/PeachTrigger/verify';

describe('secretMatches', () => {
	it('accepts only the exact secret', () => {
		expect(secretMatches('s3cret-value', 's3cret-value')).toBe(true);
		expect(secretMatches('s3cret-valuE', 's3cret-value')).toBe(false);
		expect(secretMatches('s3cret', 's3cret-value')).toBe(false);
		expect(secretMatches(undefined, 's3cret-value')).toBe(false);
		expect(secretMatches(['s3cret-value'], 's3cret-value')).toBe(false);
		expect(secretMatches('', '')).toBe(false);
	});
});
