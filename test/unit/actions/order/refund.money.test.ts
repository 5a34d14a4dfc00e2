import { describe, expect, it } from 'vitest';

import { buildRefundBody } from '../../../../nodes/Peach/actions/order/refund.operation';
import { type FakeResponse, runPeach } from '../../support/harness';

/** What the user gave is what happens: money checked. */

const ok: FakeResponse = { statusCode: 200, body: { status: 'success', event_id: 'evt' } };

describe('money', () => {
	it.each(['0.00', '00', '-0', ' 0 ', 0, -0, '0', ''])(
		'a refund amount of %j is refused before any request (zero in other words is zero)',
		async (amount) => {
			expect(() =>
				buildRefundBody({ refundType: 'partial', amount, currency: 'INR', speed: 'normal' }),
			).toThrow('Amount (Minor Units)');
			const { requests, output } = await runPeach({
				params: {
					resource: 'order',
					operation: 'refund',
					orderId: 'wa_ord_1',
					refundType: 'partial',
					amount,
				},
				responses: [ok],
			});
			expect(requests).toHaveLength(0);
			expect((output as Error).message).toMatch(/^Amount \(Minor Units\) (.* )?is empty or zero$/);
		},
	);

	it('a positive whole amount goes as it is', () => {
		expect(
			buildRefundBody({
				refundType: 'partial',
				amount: ' 12000 ',
				currency: 'INR',
				speed: 'normal',
			}),
		).toEqual({ speed: 'normal', amount: { currency: 'INR', value: 12000 } });
	});
});
