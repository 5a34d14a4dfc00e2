import { describe, expect, it } from 'vitest';

import { parseEnvelope } from '../../../nodes/PeachTrigger/envelope';

describe('parseEnvelope', () => {
	it('reads the raw body whatever the content type', () => {
		expect(
			parseEnvelope(Buffer.from('{"type":"order.completed","data":{"id":"wa_ord_1"}}'), 'ignored'),
		).toEqual({
			ok: true,
			envelope: { type: 'order.completed', data: { id: 'wa_ord_1' } },
		});
	});

	it('uses the parsed body when there are no raw bytes, and an empty data when none', () => {
		expect(parseEnvelope(undefined, { type: 'order.completed' })).toEqual({
			ok: true,
			envelope: { type: 'order.completed', data: {} },
		});
	});

	it.each([
		[Buffer.from('not json'), {}, 'The body is not JSON'],
		[undefined, 'plain text', 'The body is not JSON'],
		[Buffer.from('[1,2]'), {}, 'The body is an array'],
		[Buffer.from('"text"'), {}, 'not a JSON object'],
		[Buffer.from('{"data":{}}'), {}, 'no "type"'],
		[Buffer.from('{"type":"  "}'), {}, 'no "type"'],
		[Buffer.from('{"type":"order.completed","data":[1]}'), {}, '"data" is not an object'],
		[undefined, {}, 'no "type"'],
	])('refuses %s with a reason', (raw, parsed, reason) => {
		const result = parseEnvelope(raw, parsed);
		expect(result.ok).toBe(false);
		expect(result.ok ? '' : result.reason).toContain(reason);
	});
});
