import { NodeApiError, NodeOperationError } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { runner, throwingRunner } from '../../support/resourceRun';

const base = {
	resource: 'automation',
	operation: 'create',
	name: 'Order follow-up',
	additionalFields: {},
};
const created = {
	statusCode: 201,
	body: {
		id: 'strm_1',
		name: 'Order follow-up',
		status: 'draft',
		execution_mode: 'definition_driven',
		created_at: '2026-01-01T00:00:00Z',
	},
};

const run = throwingRunner({ responses: [created] });
/** The same run, for tests of runs that fail: the output, or the error the node threw. */
const attempt = runner({ responses: [created] });

describe('Automation → Create', () => {
	it('posts just the name when nothing else is set (execution mode not sent)', async () => {
		const { requests, output } = await run(base);
		expect(requests[0].options.method).toBe('POST');
		expect(requests[0].url).toBe('https://peach.test/api/v1/streams');
		expect(requests[0].body).toEqual({ name: 'Order follow-up' });
		expect(output).toEqual([[{ json: created.body, pairedItem: { item: 0 } }]]);
	});

	it('sends every field set, the definition as an object', async () => {
		const definition = {
			start_step: 'welcome',
			steps: { welcome: { type: 'send_message', payload: { message: { text: 'Hi' } } } },
		};
		const { requests } = await run({
			...base,
			additionalFields: {
				description: 'Thanks buyers',
				status: 'published',
				executionMode: 'definition_driven',
				businessPhoneNumber: '919876543210',
				backendUrl: 'https://example.com/backend',
				definition: JSON.stringify(definition),
			},
		});
		expect(requests[0].body).toEqual({
			name: 'Order follow-up',
			description: 'Thanks buyers',
			status: 'published',
			execution_mode: 'definition_driven',
			business_phone_number: '919876543210',
			backend_url: 'https://example.com/backend',
			definition,
		});
	});

	it('keeps an empty definition object given on purpose, and accepts an object from an expression', async () => {
		const empty = await run({ ...base, additionalFields: { definition: '{}' } });
		expect(empty.requests[0].body).toEqual({ name: 'Order follow-up', definition: {} });
		const fromExpression = await run({
			...base,
			additionalFields: { definition: { start_step: 'a', steps: {} } },
		});
		expect(fromExpression.requests[0].body).toEqual({
			name: 'Order follow-up',
			definition: { start_step: 'a', steps: {} },
		});
	});

	it.each([
		[{ name: '' }, 'Name is empty'],
		[
			{ additionalFields: { backendUrl: 'example.com/x' } },
			'Backend URL "example.com/x" is not an http(s) URL',
		],
		[
			{ additionalFields: { definition: '[]' } },
			'Definition (JSON) "[]" is an array, not a JSON object',
		],
		[
			{ additionalFields: { definition: '{"start_step": ' } },
			'Definition (JSON) "{"start_step": " is not valid JSON',
		],
		[
			{ additionalFields: { businessPhoneNumber: '+919876543210' } },
			'Business Phone Number "+919876543210" starts with +',
		],
		[
			{ additionalFields: { executionMode: 'magic' } },
			'Execution Mode "magic" is not an allowed value',
		],
	])('refuses %j before any request', async (override, message) => {
		const { output, requests } = await attempt({ ...base, ...override });
		expect(output).toBeInstanceOf(NodeOperationError);
		expect((output as Error).message.startsWith(message)).toBe(true);
		expect(requests).toHaveLength(0);
	});

	it('shows the service reasons of a 422 "validation failed"', async () => {
		const { output } = await attempt(
			{
				...base,
				additionalFields: {
					status: 'published',
					definition: '{"start_step": "nope", "steps": {}}',
				},
			},
			[
				{
					statusCode: 422,
					body: {
						status: 'failed',
						reason: { definition: { start_step: ['must name an existing step (nope)'] } },
					},
				},
			],
		);
		const error = output as NodeApiError;
		expect(error).toBeInstanceOf(NodeApiError);
		expect(error.message).toBe('definition.start_step: must name an existing step (nope)');
		expect(error.httpCode).toBe('422');
	});
});
