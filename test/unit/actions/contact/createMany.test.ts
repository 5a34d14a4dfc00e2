import { NodeOperationError } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { CHUNK_SIZE } from '../../../../nodes/Peach/actions/contact/createMany.operation';
import { pairedOutcomes } from '../../support/harness';
import { type Items, run } from './run';

describe('Contact → Create Many', () => {
	const row = (phone: string, name: string) => ({
		resource: 'contact',
		operation: 'createMany',
		phoneNumber: phone,
		contactFields: { name },
	});

	it('one POST /contacts with an array of all items; outputs paired one to one when Peach answers a list', async () => {
		const { requests, output } = await run(
			[row('+14155550101', 'A'), row('+14155550102', 'B')],
			[{ statusCode: 200, body: [{ id: 'ct_a' }, { id: 'ct_b' }] }],
		);
		expect(requests).toHaveLength(1);
		expect(requests[0].body).toEqual([
			{ phone_number: '+14155550101', name: 'A' },
			{ phone_number: '+14155550102', name: 'B' },
		]);
		expect((output as Items)[0].map((item) => [item.json.id, item.pairedItem])).toEqual([
			['ct_a', { item: 0 }],
			['ct_b', { item: 1 }],
		]);
	});

	it(`chunks by ${CHUNK_SIZE}; an answer that is not a list gives one item per chunk, paired to its rows`, async () => {
		const rows = Array.from({ length: CHUNK_SIZE + 2 }, (_, i) =>
			row(`+1415555${String(i).padStart(4, '0')}`, `N${i}`),
		);
		const { requests, output } = await run(rows, [
			{ statusCode: 200, body: { created: CHUNK_SIZE } },
			{ statusCode: 200, body: { created: 2 } },
		]);
		expect(requests.map((request) => (request.body as unknown[]).length)).toEqual([CHUNK_SIZE, 2]);
		const items = (output as Items)[0];
		expect(items.map((item) => item.json.contactCount)).toEqual([CHUNK_SIZE, 2]);
		expect((items[1].pairedItem as unknown[]).length).toBe(2);
	});

	it('names all bad rows at once and sends nothing; with Continue On Fail sends the good ones', async () => {
		const rows = [row('+14155550101', 'A'), row('4155550102', 'B'), row('x', 'C')];
		const refused = await run(rows);
		expect(refused.requests).toHaveLength(0);
		expect(refused.output).toBeInstanceOf(NodeOperationError);
		expect((refused.output as Error).message).toBe(
			'Contacts "2 bad rows" cannot be sent; nothing was sent',
		);
		expect((refused.output as NodeOperationError).description).toContain(
			'Item 2 → Phone Number "x" has no + and country code',
		);
		const partial = await run(rows, [{ statusCode: 200, body: [{ id: 'ct_a' }] }], {
			continueOnFail: true,
		});
		expect(pairedOutcomes((partial.output as Items)[0], 'id')).toEqual([
			['ct_a', { item: 0 }],
			['Item 1 → Phone Number "4155550102" has no + and country code', { item: 1 }],
			['Item 2 → Phone Number "x" has no + and country code', { item: 2 }],
		]);
	});
});
