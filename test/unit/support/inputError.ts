import { expect } from 'vitest';

import { PeachInputError } from '../../../nodes/Peach/helpers/inputError';

/** The PeachInputError `run` throws (the test fails when it throws none, or another error). */
export function inputError(run: () => unknown): PeachInputError {
	try {
		run();
	} catch (error) {
		expect(error).toBeInstanceOf(PeachInputError);
		return error as PeachInputError;
	}
	throw new Error('expected a PeachInputError');
}
