import { describe, expect, it } from 'vitest';

import { inputError } from '../support/inputError';
import { parseJsonObject } from '../../../nodes/Peach/helpers/json';

describe('JSON objects', () => {
	it('parses text and passes objects through', () => {
		expect(parseJsonObject('Definition', '{"a": 1}')).toEqual({ a: 1 });
		expect(parseJsonObject('Definition', { a: 1 })).toEqual({ a: 1 });
	});

	it.each([
		['[1, 2]', 'is an array, not a JSON object'],
		['"text"', 'is a string, not a JSON object'],
		['null', 'is null, not a JSON object'],
		['{"a": 1,}', 'is not valid JSON'],
		['', 'is empty'],
	])('refuses %j', (value, problem) => {
		const error = inputError(() => parseJsonObject('Definition (JSON)', value));
		expect(error.message).toContain(`Definition (JSON)`);
		expect(error.message).toContain(problem);
	});
});
