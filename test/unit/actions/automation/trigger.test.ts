import { describe, expect, it } from 'vitest';

import { locator } from '../../support/harness';
import { expectResentAfter429Only } from '../../support/resourceRun';
import { run, trigger } from './run';

describe('Automation → Get Many, Get, Update, Trigger', () => {
	it('Trigger posts the contact and the payload at the top level; a 429 is sent again, a 503 never', async () => {
		const base = trigger;
		const { requests } = await run(base);
		expect([requests[0].options.method, requests[0].url, requests[0].body]).toEqual([
			'POST',
			'https://peach.test/api/v1/streams/strm_1/events',
			{ contact: { phone_number: '+919988776655', name: 'Asha' }, order_id: 'A-7' },
		]);
		const json = await run({
			...base,
			payloadInput: 'json',
			payloadJson: '{"cart": {"total": 3}}',
		});
		expect(json.requests[0].body).toEqual({
			contact: { phone_number: '+919988776655', name: 'Asha' },
			cart: { total: 3 },
		});
		const reserved = await run({ ...base, payloadInput: 'json', payloadJson: '{"contact": 1}' });
		expect((reserved.output as Error).message).toBe('Payload "contact" is a reserved name');
		await expectResentAfter429Only(run, base, 200);
	});

	it('Trigger: payload rows are named data, each name once; __proto__ and constructor are sent as given', async () => {
		const base = {
			resource: 'automation',
			operation: 'trigger',
			automationId: locator('strm_1'),
			phoneNumber: '+919988776655',
			payloadInput: 'fields',
		};
		const { requests } = await run({
			...base,
			payload: {
				values: [
					{ key: '__proto__', value: 'p' },
					{ key: 'constructor', value: 'c' },
				],
			},
		});
		expect(requests[0].sent.body).toBe(
			'{"contact":{"phone_number":"+919988776655"},"__proto__":"p","constructor":"c"}',
		);
		const twice = await run({
			...base,
			payload: {
				values: [
					{ key: 'order_id', value: 'A-7' },
					{ key: 'order_id', value: 'A-8' },
				],
			},
		});
		expect(twice.requests).toHaveLength(0);
		expect((twice.output as Error).message).toBe('Payload Fields "order_id" is used twice');
	});
});
