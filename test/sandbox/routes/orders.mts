/**
 * Orders (WhatsApp Payments, minor units, INR only): POST /orders, GET /orders/{id},
 * POST /orders/{id}/refunds (only a completed order, never more than what is left of its total).
 * An order is found by Peach's ID or by the reference order ID (docs/peach-api.md 7.3: your own `id`,
 * where you gave one); a second order with an `id` already taken is refused (422, as Rails words
 * it: the docs say nothing of duplicates). A read order shows its refunds (amount, status, date) and
 * the amount refunded, one of the shapes the cut-off 7.2 allows.
 * `POST /__sandbox/orders/{id}/pay` stands for the customer paying (order.completed webhook).
 */
import { isObject, notFound, Reasons, type Route, validationFailed } from '../http.mts';
import { isE164 } from '../rules.mts';
import { type JsonObject, newId, type Order } from '../state/index.mts';

const isMinor = (value: unknown) =>
	typeof value === 'number' && Number.isInteger(value) && value >= 0;

export const orderRoutes: Route = (ctx, { method, segments, body }) => {
	const [, id, sub] = segments;
	if (!id && method === 'POST') {
		const reasons = new Reasons();
		const contact = body.contact;
		if (
			!isObject(contact) ||
			typeof contact.phone_number !== 'string' ||
			!isE164(contact.phone_number)
		)
			reasons.nested(
				'contact',
				'phone_number',
				'is not a valid E.164 phone number (+ and country code)',
			);
		if (
			body.type !== undefined &&
			!['physical_goods', 'digital_goods'].includes(body.type as string)
		)
			reasons.field('type', 'must be physical_goods or digital_goods');
		const items = body.items;
		if (!Array.isArray(items) || items.length === 0) reasons.field('items', "can't be blank");
		else
			items.forEach((item, index) => {
				if (!isObject(item) || typeof item.name !== 'string' || item.name === '')
					reasons.nested(`items[${index}]`, 'name', "can't be blank");
				if (!isObject(item) || !isMinor(item.amount))
					reasons.nested(`items[${index}]`, 'amount', 'must be a whole number of minor units');
				if (isObject(item) && item.sale_amount !== undefined && !isMinor(item.sale_amount))
					reasons.nested(`items[${index}]`, 'sale_amount', 'must be a whole number of minor units');
			});
		const expiration = body.expiration;
		if (expiration !== undefined) {
			const timestamp = isObject(expiration) ? expiration.timestamp : undefined;
			if (typeof timestamp !== 'number' || !Number.isInteger(timestamp))
				reasons.nested('expiration', 'timestamp', 'must be epoch seconds');
			else if (timestamp * 1000 <= Date.now())
				reasons.nested('expiration', 'timestamp', 'must be in the future');
		}
		if (
			typeof body.id === 'string' &&
			ctx.state.orders.some((entry) => entry.reference_id === body.id || entry.id === body.id)
		)
			reasons.field('id', 'has already been taken');
		reasons.throwIfAny();
		const lines = items as JsonObject[];
		const order: Order = {
			id: newId('wa_ord_'),
			reference_id: typeof body.id === 'string' ? body.id : null,
			status: 'pending',
			type: (body.type as string | undefined) ?? null,
			contact: contact as JsonObject,
			items: lines,
			total: lines.reduce(
				(sum, item) =>
					sum +
					((item.sale_amount as number | undefined) ?? (item.amount as number)) *
						((item.quantity as number | undefined) ?? 1),
				0,
			),
			refunded: 0,
			refunds: [],
			expiration: (expiration as JsonObject | undefined) ?? null,
			created_at: ctx.now(),
		};
		ctx.state.orders.push(order);
		return { status: 201, body: order };
	}
	if (!id) return undefined;
	const order =
		ctx.state.orders.find((entry) => entry.id === id) ??
		ctx.state.orders.find((entry) => entry.reference_id === id);
	if (!order) throw notFound('Order', id);
	if (!sub && method === 'GET') return { status: 200, body: order };
	if (sub === 'refunds' && method === 'POST') {
		if (order.status !== 'completed')
			throw validationFailed({
				order: [`cannot be refunded: it is ${order.status}, not completed (paid)`],
			});
		if (body.speed !== undefined && !['normal', 'instant'].includes(body.speed as string))
			throw validationFailed({ speed: ['must be normal or instant'] });
		const left = order.total - order.refunded;
		let value = left;
		if (body.amount !== undefined) {
			const amount = body.amount;
			if (!isObject(amount) || amount.currency !== 'INR')
				throw validationFailed({ amount: { currency: ['only INR is supported'] } });
			if (!isMinor(amount.value) || (amount.value as number) <= 0)
				throw validationFailed({
					amount: { value: ['must be a positive whole number of minor units'] },
				});
			value = amount.value as number;
		}
		if (value > left)
			throw validationFailed({
				amount: { value: [`${value} is more than the ${left} left to refund on this order`] },
			});
		const refund = {
			id: newId('rfnd_'),
			value,
			currency: 'INR',
			speed: (body.speed as string | undefined) ?? 'normal',
			status: 'processing',
			created_at: ctx.now(),
		};
		order.refunds.push(refund);
		order.refunded += value;
		return { status: 201, body: refund };
	}
	return undefined;
};
