/** Real-n8n checks of the Order resource, with a refund Peach rejects and its reason shown. */
import { nodeError, nodeOutput } from '../n8n.mts';
import { assertEqual, type Check, runPeachWorkflow } from '../suite.mts';

export const orderChecks: Check[] = [
	{
		name: "orders: create in minor units, get, refund; a refund over the paid amount shows Peach's reason",
		fn: async (ctx) => {
			const created = await runPeachWorkflow(ctx, 'e2e-order-create', {
				resource: 'order',
				operation: 'create',
				phoneNumber: '+919988776655',
				items: { item: [{ name: 'Mango box', amount: 12000, quantity: 1, saleAmount: 0 }] },
				contactFields: {},
				additionalFields: { orderId: 'A-1', expiresAt: '={{ $now.plus({ days: 1 }).toISO() }}' },
			});
			const order = nodeOutput(created.execution, 'Peach')[0];
			assertEqual([order?.status, order?.total], ['pending', 12000], 'order');
			const id = String(order.id);
			const got = await runPeachWorkflow(ctx, 'e2e-order-get', {
				resource: 'order',
				operation: 'get',
				orderId: id,
			});
			assertEqual(nodeOutput(got.execution, 'Peach')[0]?.reference_id, 'A-1', 'get');
			await fetch(`${ctx.sandbox.url}/__sandbox/orders/${id}/pay`, { method: 'POST' });
			const refund = {
				resource: 'order',
				operation: 'refund',
				orderId: id,
				currency: 'INR',
				speed: 'normal',
			};
			const part = await runPeachWorkflow(ctx, 'e2e-order-refund', { ...refund, amount: 10000 });
			assertEqual(nodeOutput(part.execution, 'Peach')[0]?.value, 10000, 'refund');
			const refunded = nodeOutput(part.execution, 'Peach')[0] ?? {};
			assertEqual(
				{
					order: refunded.order,
					amount: refunded.amount,
					amountRupees: refunded.amountRupees,
				},
				{ order: id, amount: 10000, amountRupees: '₹100.00' },
				'the order named, the amount in rupees beside the paise',
			);
			const tooMuch = await runPeachWorkflow(ctx, 'e2e-order-refund-too-much', {
				...refund,
				amount: 5000,
			});
			assertEqual(tooMuch.execution.status, 'error', 'refused refund');
			assertEqual(
				nodeError(tooMuch.execution, 'Peach')?.message,
				'amount.value: 5000 is more than the 2000 left to refund on this order',
				'reason',
			);
			assertEqual(tooMuch.requests.length, 1, 'not retried');
		},
	},
];
