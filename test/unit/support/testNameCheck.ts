import { beforeEach } from 'vitest';

import { testNameProblem } from './testNames';

/**
 * The unit suite's setup (vitest.config.mts): before each test runs, its name is checked
 * (testNames.ts); a test whose name is too long or not a sentence fails, saying why.
 */
beforeEach(({ task }) => {
	const problem = testNameProblem(task.name);
	if (problem) throw new Error(`The test name "${task.name}" ${problem}.`);
});
