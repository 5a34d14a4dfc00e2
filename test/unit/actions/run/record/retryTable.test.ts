import { describe, expect, it } from 'vitest';

import {
	type Decision,
	type PeachSays,
	RETRY_DECIDES,
	type RecordSays,
	recordSays,
} from '../../../../../nodes/Peach/actions/run/record/retryTable';

/**
 * How a Retry decides (retryTable.ts), row by row: the table as a maintainer reads it. Columns:
 * Peach lists it, does not list it, cannot tell, cannot be read, lists too few.
 */
const EXPECTED: Array<[RecordSays, Decision[]]> = [
	['contextSent', ['sent', 'sent', 'sent', 'sent', 'sent']],
	[
		'contextUnknown',
		['sent', 'unknownAsBefore', 'unknownAsBefore', 'unknownAsBefore', 'unknownTooFew'],
	],
	['storeSent', ['sent', 'unknownRecordSaysSent', 'sent', 'sent', 'sent']],
	['storeUnknown', ['sent', 'unknownCrash', 'unknownCrash', 'unknownCrash', 'unknownTooFew']],
	['storeCannotSay', ['sent', 'make', 'unknownCannotTell', 'unknownCannotTell', 'unknownTooFew']],
	['storeRefused', ['make', 'make', 'make', 'make', 'make']],
	['neverClaimed', ['make', 'make', 'make', 'make', 'make']],
	['notShown', ['sent', 'make', 'make', 'unknownNotShown', 'unknownTooFew']],
	['notRead', ['make', 'make', 'make', 'make', 'make']],
];
const COLUMNS: PeachSays[] = ['lists', 'notListed', 'cannotTell', 'unreadable', 'tooFewListed'];

describe('how a Retry decides each delivery of this node (retryTable.ts)', () => {
	it.each(EXPECTED)('the row %s decides as the table says', (row, decisions) => {
		expect(COLUMNS.map((column) => RETRY_DECIDES[row][column])).toEqual(decisions);
	});

	it('every row is in the table, and nothing a claim guards is ever made again by itself', () => {
		expect(Object.keys(RETRY_DECIDES).sort()).toEqual(EXPECTED.map(([row]) => row).sort());
		// A claim, or an outcome, is never `make`: only Peach's "not listed" where the record cannot say.
		for (const row of ['contextSent', 'contextUnknown', 'storeSent', 'storeUnknown'] as const)
			expect(Object.values(RETRY_DECIDES[row])).not.toContain('make');
	});

	it("a row is the node context's outcome first, else the store's; nothing shown is never claimed, unless seen", () => {
		// Unless the run was seen (or n8n 1.x).
		const retry = { retry: true, findsItsRecord: true, runSeen: false };
		expect(recordSays({ outcome: 'sent', at: null }, 'notReached', retry)).toBe('contextSent');
		expect(recordSays({ outcome: 'unknown', at: null }, 'sent', retry)).toBe('contextUnknown');
		expect(recordSays(undefined, 'unverifiable', retry)).toBe('storeCannotSay');
		expect(recordSays(undefined, 'notSent', retry)).toBe('storeRefused');
		expect(recordSays(undefined, 'notReached', retry)).toBe('neverClaimed');
		expect(recordSays(undefined, 'notReached', { ...retry, runSeen: true })).toBe('notShown');
		expect(recordSays(undefined, 'notReached', { ...retry, findsItsRecord: false })).toBe(
			'notShown',
		);
		expect(recordSays(undefined, 'notReached', { ...retry, retry: false, runSeen: true })).toBe(
			'neverClaimed',
		);
		expect(recordSays(undefined, 'absent', retry)).toBe('notRead');
	});
});
