import { describe, expect, it } from 'vitest';

import {
	canonical,
	occurrences,
	placeRun,
	RunningSum,
	runSums,
	sumOf,
	tokenOf,
} from '../../../../../nodes/Peach/actions/run/record/chain';

describe('what a delivery is (chain.ts)', () => {
	it('the same content in another key order is the same delivery; another variable value is another', () => {
		const body = {
			contact: { phone_number: '+91' },
			template_message: { liquid_values: { a: 1, b: 2 } },
		};
		const reordered = {
			template_message: { liquid_values: { b: 2, a: 1 } },
			contact: { phone_number: '+91' },
		};
		expect(canonical(body)).toBe(canonical(reordered));
		expect(tokenOf('templateMessage.send', '+91', body)).toBe(
			tokenOf('templateMessage.send', '+91', reordered),
		);
		const other = { ...body, template_message: { liquid_values: { a: 1, b: 3 } } };
		expect(tokenOf('templateMessage.send', '+91', other)).not.toBe(
			tokenOf('templateMessage.send', '+91', body),
		);
		// Another operation, another recipient: another delivery.
		expect(tokenOf('order.refund', '+91', body)).not.toBe(
			tokenOf('templateMessage.send', '+91', body),
		);
		expect(tokenOf('templateMessage.send', '+92', body)).not.toBe(
			tokenOf('templateMessage.send', '+91', body),
		);
	});

	it('a Delivery Key names the delivery instead of its content', () => {
		const first = tokenOf('templateMessage.send', '+91', { name: 'Asha' }, 'A-1');
		expect(tokenOf('templateMessage.send', '+91', { name: 'Asha K' }, 'A-1')).toBe(first);
		expect(tokenOf('templateMessage.send', '+91', { name: 'Asha' }, 'A-2')).not.toBe(first);
		// A key and a content never name each other's deliveries.
		expect(tokenOf('templateMessage.send', '+91', 'A-1')).not.toBe(first);
	});

	it('identical deliveries are told apart by their order among themselves only', () => {
		expect(occurrences(['x', 'y', 'x', 'x', 'y'])).toEqual([0, 0, 1, 2, 1]);
		const lanes = ['+91', '+91', '+92'];
		const run = placeRun('t1.Webhook', 0, ['x', 'x', 'y'], lanes);
		expect(new Set(run.places.map((place) => place.name)).size).toBe(3);
		// Rows added before them change nothing of their names.
		const later = placeRun('t1.Webhook', 0, ['z', 'x', 'x', 'y'], ['+93', ...lanes]);
		expect(later.places.slice(1).map((place) => place.name)).toEqual(
			run.places.map((place) => place.name),
		);
	});

	it('a run is named by the multiset of its tokens: the sums do not depend on order, and leave one out exactly', () => {
		const sums = runSums(['a', 'b', 'c']);
		expect(sums.all).toBe(runSums(['c', 'a', 'b']).all);
		expect(sums.without(1)).toBe(runSums(['a', 'c']).all);
		expect(sums.all).toBe(sumOf(['b', 'c', 'a']));
		const running = new RunningSum();
		for (const token of ['c', 'b', 'a']) running.add(token);
		expect(running.text).toBe(sums.all);
		expect(running.count).toBe(3);
	});
});
