import { NodeApiError, NodeOperationError } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { locator } from '../../support/harness';
import { runner, throwingRunner } from '../../support/resourceRun';

const base = {
	resource: 'automationTrigger',
	operation: 'update',
	automationId: locator('strm_1'),
	triggerId: locator('trig_1'),
	activation: 'unchanged',
	updateFields: {},
};

const updated = {
	statusCode: 200,
	body: {
		id: 'trig_1',
		stream_id: 'strm_1',
		status: 'active',
		description: 'x',
		data_mappings: [],
	},
};

const run = throwingRunner({ responses: [updated] });
/** The same run, for tests of runs that fail: the output, or the error the node threw. */
const attempt = runner({ responses: [updated] });

describe('Trigger → Update', () => {
	it('activates: PATCH /api/v1/triggers/{id} with only activate: true', async () => {
		const { requests, output } = await run({ ...base, activation: 'activate' });
		expect(requests).toHaveLength(1);
		expect(requests[0].options.method).toBe('PATCH');
		expect(requests[0].url).toBe('https://peach.test/api/v1/triggers/trig_1');
		expect(requests[0].body).toEqual({ activate: true });
		expect(output).toEqual([[{ json: updated.body, pairedItem: { item: 0 } }]]);
	});

	it('pauses with activate: false, the trigger given By ID', async () => {
		const { requests } = await run({
			...base,
			triggerId: locator('trig_9', 'id'),
			activation: 'pause',
		});
		expect(requests[0].url).toBe('https://peach.test/api/v1/triggers/trig_9');
		expect(requests[0].body).toEqual({ activate: false });
	});

	it('sends description, variables and data mappings (replacing all) as chosen', async () => {
		const { requests } = await run({
			...base,
			updateFields: {
				description: ' Paid orders ',
				variables: {
					values: [
						{ key: 'key_path', value: '$.source_name' },
						{ key: 'value', value: 'pos' },
					],
				},
				dataMappings: {
					mappings: [
						{
							mappingFor: 'recipient',
							fields: {
								values: [
									{ key: 'phone_number', value: '$.customer.phone' },
									{ key: 'name', value: '$.customer.name' },
								],
							},
						},
						{ mappingFor: 'variable', fields: { values: [{ key: 'order_id', value: '$.id' }] } },
					],
				},
			},
		});
		expect(requests[0].body).toEqual({
			description: 'Paid orders',
			variables: { key_path: '$.source_name', value: 'pos' },
			data_mappings: [
				{
					mapping_for: 'recipient',
					value: { phone_number: '$.customer.phone', name: '$.customer.name' },
				},
				{ mapping_for: 'variable', value: { order_id: '$.id' } },
			],
		});
		expect(requests[0].body).not.toHaveProperty('activate');
	});

	it('clears the data mappings with Clear Data Mappings (data_mappings: [])', async () => {
		const { requests } = await run({ ...base, updateFields: { clearDataMappings: true } });
		expect(requests[0].body).toEqual({ data_mappings: [] });
		const both = await attempt({
			...base,
			updateFields: {
				clearDataMappings: true,
				dataMappings: {
					mappings: [
						{
							mappingFor: 'recipient',
							fields: { values: [{ key: 'phone_number', value: '$.p' }] },
						},
					],
				},
			},
		});
		expect((both.output as Error).message).toBe(
			'Clear Data Mappings true is on while Data Mappings has rows',
		);
		expect(both.requests).toHaveLength(0);
	});

	it("outputs Peach's answer as it came, also when it is empty or not an object", async () => {
		const empty = await run({ ...base, activation: 'activate' }, [{ statusCode: 204, body: '' }]);
		expect(empty.output).toEqual([[{ json: {}, pairedItem: { item: 0 } }]]);
		const text = await run({ ...base, activation: 'activate' }, [{ statusCode: 200, body: 'ok' }]);
		expect(text.output).toEqual([[{ json: { response: 'ok' }, pairedItem: { item: 0 } }]]);
	});

	it('refuses an update that would change nothing, before any request', async () => {
		const { output, requests } = await attempt({
			...base,
			updateFields: { description: '  ', variables: {} },
		});
		const error = output as NodeOperationError;
		expect(error).toBeInstanceOf(NodeOperationError);
		expect(error.message).toBe('Update Trigger "(no changes)" would change nothing');
		expect(error.description).toContain('Activate or Pause');
		expect(requests).toHaveLength(0);
	});

	it('refuses a missing trigger ID and a data mapping row without a key', async () => {
		const noId = await attempt(
			{ ...base, triggerId: locator('', 'id'), activation: 'activate' },
			[],
		);
		expect((noId.output as Error).message).toContain('Trigger is empty');
		const badRow = await attempt(
			{
				...base,
				updateFields: {
					dataMappings: {
						mappings: [
							{ mappingFor: 'recipient', fields: { values: [{ key: '', value: '$.x' }] } },
						],
					},
				},
			},
			[],
		);
		expect((badRow.output as Error).message).toContain('Data Mappings row 1 → Fields');
		expect(noId.requests.length + badRow.requests.length).toBe(0);
	});

	it('names the trigger ID in a 404', async () => {
		const { output } = await attempt(
			{ ...base, triggerId: locator('trig_missing', 'id'), activation: 'activate' },
			[{ statusCode: 404, body: { message: 'Not found' } }],
		);
		const error = output as NodeApiError;
		expect(error).toBeInstanceOf(NodeApiError);
		expect(error.message).toBe('Trigger "trig_missing" was not found in Peach');
		expect(error.httpCode).toBe('404');
	});

	it('keeps going with Continue On Fail, pairing the error item', async () => {
		const { output } = await run(
			{ ...base, activation: 'activate' },
			[{ statusCode: 404, body: {} }],
			{ continueOnFail: true },
		);
		expect(output[0]).toEqual([
			{
				json: {
					error: 'Trigger "trig_1" was not found in Peach',
					description: expect.stringContaining('Trigger ID') as unknown as string,
					httpCode: '404',
				},
				error: expect.objectContaining({ httpCode: '404' }),
				pairedItem: { item: 0 },
			},
		]);
	});
});
