import { describe, expect, it } from 'vitest';

import { LONGEST_TEST_NAME, testNameProblem } from './testNames';

describe('what a test name is (testNames.ts, checked before every unit test)', () => {
	it('a sentence of at most 120 characters is a test name', () => {
		expect(testNameProblem('refuses an empty event ID before any request')).toBeUndefined();
		expect(testNameProblem('refuses "+12"')).toBeUndefined();
		expect(testNameProblem(`a name ${'x'.repeat(LONGEST_TEST_NAME - 7)}`)).toBeUndefined();
	});

	it('a name one character longer than 120 is refused, saying how long it is', () => {
		expect(testNameProblem(`a name ${'x'.repeat(LONGEST_TEST_NAME - 6)}`)).toBe(
			'is 121 characters long; a test name has at most 120',
		);
	});

	it.each(['notRead', '418 {}', 'Send', '400 ""'])(
		'a bare identifier or value such as %j is not a sentence',
		(name) => {
			expect(testNameProblem(name)).toBe(
				'is not a sentence (it needs two parts or more, one of them a word)',
			);
		},
	);
});
