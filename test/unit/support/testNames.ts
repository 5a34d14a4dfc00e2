/**
 * What a unit test's name is (issue 52, 5): a sentence, of at most 120 characters, as vitest shows
 * it (an it.each title with its values put in). testNameCheck.ts holds every test of the suite to it.
 */

/** The longest a test name may be, in characters. */
export const LONGEST_TEST_NAME = 120;

/** Why `name` is not a test name, or undefined when it is one. */
export function testNameProblem(name: string): string | undefined {
	if (name.length > LONGEST_TEST_NAME)
		return `is ${name.length} characters long; a test name has at most ${LONGEST_TEST_NAME}`;
	// A sentence has words: a bare identifier, a number or a value alone is not one.
	if ((name.match(/\p{L}{2,}/gu) ?? []).length < 2)
		return 'is not a sentence (fewer than two words)';
	return undefined;
}
