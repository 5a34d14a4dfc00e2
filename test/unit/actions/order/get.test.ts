import { describe, expect, it } from 'vitest';

import { run } from './run';

describe('Order', () => {
	it('Get: GET /orders/{id}', async () => {
		const { requests } = await run({ resource: 'order', operation: 'get', orderId: 'wa_ord_1' }, [
			{ statusCode: 200, body: {} },
		]);
		expect([requests[0].options.method, requests[0].url]).toEqual([
			'GET',
			'https://peach.test/api/v1/orders/wa_ord_1',
		]);
	});
});
