import type { NodeApiError } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { apiPath } from '../../../nodes/Peach/transport/path';
import { DeliveryPermit } from '../../../nodes/Peach/transport/permit';
import { peachApiRequest } from '../../../nodes/Peach/transport/request';
import { createExecuteContext } from '../support/harness';

/** The router's permit for a delivering request (tests stand in for the router). */
const permit = new DeliveryPermit();

describe('network failures as n8n 1.x reports them', () => {
	it('reads the code from the original text n8n 1.x keeps, not its own "retry" advice', async () => {
		// n8n 1.x wraps the transport error in a NodeApiError of its own: no code, a message advising
		// to retry, and the original message in `messages`.
		const wrapped = Object.assign(
			new Error(
				'The connection to the server was closed unexpectedly, perhaps it is offline. You can retry the request immediately or wait and retry later.',
			),
			{ messages: ['read ECONNRESET'] },
		);
		const { context } = createExecuteContext({ params: {}, responses: [wrapped] });
		const error = (await peachApiRequest
			.call(context, { method: 'POST', path: apiPath`/events`, body: {}, delivers: permit })
			.catch((e: unknown) => e)) as NodeApiError;
		expect(error.message).toBe(
			'Could not reach Peach at https://peach.test (connection closed unexpectedly)',
		);
		expect(error.message).not.toContain('retry');
		expect(error.description).toContain('Network error ECONNRESET.');
		expect(error.description).toContain('It may already have been queued in Peach');
	});

	it('"socket hang up", the text Node gives a dropped connection, is a closed connection', async () => {
		const wrapped = Object.assign(
			new Error('The connection to the server was closed unexpectedly'),
			{
				messages: ['socket hang up'],
			},
		);
		const { context } = createExecuteContext({ params: {}, responses: [wrapped] });
		await expect(
			peachApiRequest.call(context, { method: 'GET', path: apiPath`/streams` }),
		).rejects.toThrow(
			'Could not reach Peach at https://peach.test (connection closed unexpectedly)',
		);
	});
});
