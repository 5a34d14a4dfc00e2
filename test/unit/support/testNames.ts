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
	// A sentence says something of something: two parts at least, one a word (`refuses "+12"` is
	// one; a bare identifier, a status and a value, or one word alone is not).
	const parts = name.trim().split(/\s+/);
	if (parts.length < 2 || !parts.some((part) => /\p{L}{2,}/u.test(part)))
		return 'is not a sentence (it needs two parts or more, one of them a word)';
	return undefined;
}
