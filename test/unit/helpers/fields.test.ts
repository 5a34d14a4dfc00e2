import { describe, expect, it } from 'vitest';

import { requireText, validateEmail, validateHttpUrl } from '../../../nodes/Peach/helpers/fields';
import { inputError } from '../support/inputError';

describe('email, times, time zones, URLs', () => {
	it('checks email addresses', () => {
		expect(validateEmail('Email', ' a@b.co ')).toBe('a@b.co');
		expect(inputError(() => validateEmail('Email', 'not-an-email')).message).toBe(
			'Email "not-an-email" is not an email address',
		);
	});

	it('accepts only http(s) URLs', () => {
		expect(validateHttpUrl('Backend URL', 'https://example.com/x')).toBe('https://example.com/x');
		expect(validateHttpUrl('Backend URL', 'http://localhost:8080')).toBe('http://localhost:8080');
		for (const bad of ['ftp://example.com', 'example.com', '', 'javascript:alert(1)']) {
			expect(inputError(() => validateHttpUrl('Backend URL', bad)).message).toContain(
				'is not an http(s) URL',
			);
		}
	});
});

describe('review defects', () => {
	it('an ID given as a number (expression, $fromAI) is used, not reported empty', () => {
		expect(requireText('Template', 12345, 'fix')).toBe('12345');
		expect(inputError(() => requireText('Template', '  ', 'fix')).message).toBe(
			'Template "  " is empty',
		);
		expect(inputError(() => requireText('Template', { a: 1 }, 'fix')).message).toBe(
			'Template {"a":1} is not text',
		);
	});
});
