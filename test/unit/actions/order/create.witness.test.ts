import type { IDataObject, INodeExecutionData, NodeApiError } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { sameOrder } from '../../../../nodes/Peach/actions/order/create.witness';
import type { RecordedRequest } from '../../support/harness';
import { crashRetry, editorRetry, newExecution } from '../../support/n8nRecovery';
import { asked, minutesLater, ledgerTry, PeachLedger } from '../../support/peachLedger';

/**
 * Order → Create with your own Order ID: an order Peach already has under it, with these contents,
 * comes back `alreadySent` (when Peach refuses the create as a duplicate, and when a Retry finds it);
 * another order under that ID stays an error naming the ID and the fix.
 */

const create = (orderId: string | undefined, amount = 30000, phoneNumber = '+919988776655') => ({
	resource: 'order',
	operation: 'create',
	phoneNumber,
	items: { item: [{ name: 'Mango box', amount, quantity: 1 }] },
	contactFields: {},
	additionalFields: orderId === undefined ? {} : { orderId },
});

const asAsked: IDataObject = {
	id: 'A-1',
	contact: { phone_number: '+919988776655' },
	items: [{ name: 'Mango box', amount: 30000, quantity: 1 }] as unknown as IDataObject,
};

describe('whether the order Peach has is this one', () => {
	it.each<[string, IDataObject, boolean | 'cannotTell']>([
		[
			'the same contact and items',
			{
				id: 'wa_ord_1',
				reference_id: 'A-1',
				contact: { phone_number: '919988776655' },
				items: [{ name: 'Mango box', amount: 30000, quantity: 1, sale_amount: null }],
			},
			true,
		],
		[
			'the same, items as line_items, quantity left out',
			{
				id: 'A-1',
				phone_number: '+91 99887 76655',
				line_items: [{ name: 'Mango box', amount: '30000' }],
			},
			true,
		],
		['another contact', { id: 'A-1', contact: { phone_number: '+14155550101' } }, false],
		[
			'another amount',
			{ id: 'A-1', items: [{ name: 'Mango box', amount: 12000, quantity: 1 }] },
			false,
		],
		[
			'one more item',
			{
				id: 'A-1',
				items: [
					{ name: 'Mango box', amount: 30000 },
					{ name: 'Bag', amount: 100 },
				],
			},
			false,
		],
		[
			'another reference id',
			{ id: 'wa_ord_1', reference_id: 'A-2', contact: { phone_number: '+919988776655' } },
			false,
		],
		[
			'another type',
			{ id: 'A-1', type: 'digital_goods', contact: { phone_number: '+919988776655' } },
			false,
		],
		[
			'neither contact nor items (the documented {id, status})',
			{ id: 'A-1', status: 'pending' },
			'cannotTell',
		],
	])('%s', (_, order, same) => {
		const verdict = sameOrder({ ...asAsked, type: 'physical_goods' }, order);
		expect(typeof verdict === 'string' ? 'cannotTell' : verdict).toBe(same);
	});
});

describe('Peach refuses the create: the Order ID is taken', () => {
	it("by this order: alreadySent with Peach's order, read once", async () => {
		const ledger = new PeachLedger();
		ledger.order('wa_ord_7', { reference_id: 'A-1', status: 'pending' });
		const result = await ledgerTry(newExecution(), [create('A-1')], ledger);
		expect(asked(result)).toEqual(['POST /orders', 'GET /orders/A-1']);
		expect(result.error).toBeUndefined();
		const [[item]] = result.output as INodeExecutionData[][];
		expect(item.json).toMatchObject({
			id: 'wa_ord_7',
			reference_id: 'A-1',
			alreadySent: {
				at: null,
				note: 'Not created again: Peach already has order A-1 (your Order ID) with these contents.',
			},
		});
		expect(ledger.orders).toHaveLength(1);
	});

	it('by another order: an error naming the ID and the fix; nothing created, a Retry may try again', async () => {
		const ledger = new PeachLedger();
		ledger.order('wa_ord_7', { reference_id: 'A-1' });
		const result = await ledgerTry(newExecution(), [create('A-1', 12000)], ledger);
		expect(asked(result)).toEqual(['POST /orders', 'GET /orders/A-1']);
		const error = result.error as NodeApiError;
		expect(error.message).toBe(
			'Peach already has an order with Order ID "A-1" (id: has already been taken)',
		);
		expect(error.description).toContain(
			"Its contents differ from this order's. Nothing was created.",
		);
		expect(error.description).toContain('Give this order an Order ID of its own');
		expect(ledger.orders).toHaveLength(1);
	});

	it('a 409 whose words say the ID exists is read the same way; any other refusal is left as it is', async () => {
		const ledger = new PeachLedger();
		ledger.order('wa_ord_7', { reference_id: 'A-1' });
		const conflict = {
			answer: (request: RecordedRequest) =>
				request.options.method === 'POST'
					? { statusCode: 409, body: { message: 'Order with this id already exists' } }
					: ledger.answer(request),
		};
		const found = await ledgerTry(newExecution(), [create('A-1')], conflict);
		expect(asked(found)).toEqual(['POST /orders', 'GET /orders/A-1']);
		expect((found.output as INodeExecutionData[][])[0][0].json.alreadySent).toBeDefined();
		const refused = {
			answer: () => ({
				statusCode: 422,
				body: { status: 'failed', reason: { contact: { phone_number: ['is invalid'] } } },
			}),
		};
		const other = await ledgerTry(newExecution(), [create('A-1')], refused);
		expect(asked(other)).toEqual(['POST /orders']);
		expect(other.error?.message).toBe('Phone Number: is invalid');
	});

	it('Peach does not find the order it says exists: the refusal stands, marked not made', async () => {
		const answers = {
			answer: (request: RecordedRequest) =>
				request.options.method === 'POST'
					? {
							statusCode: 422,
							body: { status: 'failed', reason: { id: ['has already been taken'] } },
						}
					: { statusCode: 404, body: { message: 'Not found' } },
		};
		const result = await ledgerTry(newExecution(), [create('A-1')], answers, true);
		const [[item]] = result.output as INodeExecutionData[][];
		expect(item.json.error).toBe(
			'Peach already has an order with Order ID "A-1" (id: has already been taken)',
		);
		expect(String(item.json.description)).toContain('Peach does not find order A-1 when asked.');
	});
});

describe('a Retry of a create whose outcome is unknown', () => {
	const serverError = { statusCode: 500, body: { message: 'Internal error' } };

	it('Peach has the order under your ID, with these contents: alreadySent, not created again', async () => {
		const ledger = new PeachLedger();
		ledger.next.push(serverError);
		const original = newExecution();
		expect((await ledgerTry(original, [create('A-1')], ledger)).error?.httpCode).toBe('500');
		const retry = await ledgerTry(editorRetry(original), [create('A-1')], ledger);
		expect(asked(retry)).toEqual(['GET /orders/A-1']);
		expect(retry.error).toBeUndefined();
		const [[item]] = retry.output as INodeExecutionData[][];
		expect(item.json).toMatchObject({
			id: 'wa_ord_1',
			reference_id: 'A-1',
			alreadySent: { peach: { id: 'wa_ord_1', status: 'pending' } },
		});
		expect(ledger.orders).toHaveLength(1);
	});

	it('Peach has none (404): it is created, once', async () => {
		const ledger = new PeachLedger();
		const original = newExecution();
		await ledgerTry(original, [create('A-1')], { answer: () => serverError });
		const retry = await ledgerTry(editorRetry(minutesLater(original)), [create('A-1')], ledger);
		expect(asked(retry)).toEqual(['GET /orders/A-1', 'POST /orders']);
		expect(ledger.orders).toHaveLength(1);
	});

	it('without an Order ID of yours Peach cannot tell: outcomeUnknown, named, nothing asked or made', async () => {
		const ledger = new PeachLedger();
		ledger.next.push(serverError);
		const original = newExecution();
		await ledgerTry(original, [create(undefined)], ledger);
		const retry = await ledgerTry(crashRetry(original), [create(undefined)], ledger, true);
		expect(asked(retry)).toEqual([]);
		const [[item]] = retry.output as INodeExecutionData[][];
		expect(String((item.json.outcomeUnknown as IDataObject).reason)).toContain(
			'The order has no Order ID of yours, and Peach lists no orders',
		);
	});
});
