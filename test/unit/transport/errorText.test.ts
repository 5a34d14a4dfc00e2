import { describe, expect, it } from 'vitest';

import { apiErrorText, flattenReasons } from '../../../nodes/Peach/transport/errorText';

describe('error text', () => {
	it('flattens 422 reasons into "field: message"', () => {
		expect(
			flattenReasons({
				template_message: { whats_app_template_id: ['is not approved', 'is archived'] },
				contact: { phone_number: ['is invalid'] },
			}),
		).toEqual([
			'template_message.whats_app_template_id: is not approved, is archived',
			'contact.phone_number: is invalid',
		]);
	});

	it('reads every documented error shape', () => {
		expect(apiErrorText({ message: 'Unauthorized' })).toBe('Unauthorized');
		expect(
			apiErrorText({ status: 'failed', reason: { blob: { byte_size: ['is too large'] } } }),
		).toBe('blob.byte_size: is too large');
		expect(apiErrorText({ error: 'Not found' })).toBe('Not found');
		expect(apiErrorText({ error: { message: 'boom' } })).toBe('boom');
		expect(apiErrorText({ errors: ['a', 'b'] })).toBe('a, b');
		expect(apiErrorText({ message: 'Variables missing', code: 'missing_variables' })).toBe(
			'Variables missing (missing_variables)',
		);
		expect(apiErrorText('plain text failure')).toBe('plain text failure');
		expect(apiErrorText('<!DOCTYPE html><html>oops</html>')).toBe('');
		expect(apiErrorText(undefined)).toBe('');
	});
});
