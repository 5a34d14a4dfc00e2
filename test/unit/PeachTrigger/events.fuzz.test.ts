import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { deliveryKey } from '../../../nodes/PeachTrigger/dedupe';
import { parseEnvelope } from '../../../nodes/PeachTrigger/envelope';
import {
	buildOutput,
	decideEvent,
	isSelected,
	passesMessageFilter,
} from '../../../nodes/PeachTrigger/events';

/** Any JSON value, with the keys an attacker would try. */
const hostileKey = fc.constantFrom(
	'__proto__',
	'constructor',
	'prototype',
	'toString',
	'type',
	'data',
);
const jsonValue = fc.letrec((tie) => ({
	value: fc.oneof(
		{ depthSize: 'small' },
		fc.constant(null),
		fc.boolean(),
		fc.double(),
		fc.string(),
		fc.array(tie('value'), { maxLength: 4 }),
		fc.dictionary(fc.oneof(fc.string(), hostileKey), tie('value'), { maxKeys: 5 }),
	),
})).value;

const envelopeLike = fc.record(
	{
		type: fc.oneof(
			fc.string(),
			fc.constantFrom(
				'message_delivery.sent',
				'message_delivery.failed',
				'order.completed',
				'constructor',
				'__proto__',
			),
			jsonValue,
		),
		data: fc.oneof(
			jsonValue,
			fc.record({
				message: fc.record({ status: fc.oneof(fc.string(), jsonValue), type: jsonValue }),
			}),
		),
	},
	{ requiredKeys: [] },
);

describe('Peach Trigger parsing, property-based', () => {
	it('any body gives a 4xx reason or a well-formed item and identity; nothing throws or changes a prototype', () => {
		fc.assert(
			fc.property(fc.oneof(envelopeLike, jsonValue, fc.string()), (body) => {
				const raw = Buffer.from(typeof body === 'string' ? body : (JSON.stringify(body) ?? ''));
				const parsed = parseEnvelope(raw, body);
				if (!parsed.ok) {
					expect(typeof parsed.reason).toBe('string');
					expect(parsed.reason.length).toBeGreaterThan(0);
					return;
				}
				const decision = decideEvent(parsed.envelope);
				expect(typeof decision.event).toBe('string');
				expect(['order', 'flowExecution', 'messageDelivery', 'aiAgent', 'unknown']).toContain(
					decision.kind,
				);
				isSelected(decision.event, ['*']);
				passesMessageFilter(parsed.envelope, decision.kind, 'templateMessage');
				const output = buildOutput(parsed.envelope, decision, '2030-01-01T00:00:00.000Z');
				expect(Object.getPrototypeOf(output)).toBe(Object.prototype);
				expect(output.event).toBe(decision.event);
				expect(JSON.parse(JSON.stringify(output)).kind).toBe(decision.kind);
				// Its identity for Ignore Duplicates is always a short hex text, whatever the body.
				expect(deliveryKey(parsed.envelope, decision).key).toMatch(/^[0-9a-f]{16}$/);
			}),
			{ numRuns: 2000 },
		);
		expect(({} as Record<string, unknown>).polluted).toBeUndefined();
	});
});
