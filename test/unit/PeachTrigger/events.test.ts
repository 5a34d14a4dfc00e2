import { describe, expect, it } from 'vitest';

import { parseEnvelope } from '../../../nodes/PeachTrigger/envelope';
import {
	buildOutput,
	decideEvent,
	EVENT_OPTIONS,
	EVENTS,
	isSelected,
	kindOf,
	passesMessageFilter,
} from '../../../nodes/PeachTrigger/events';

const delivery = (type: string, status?: string, messageType = 'template_message') => ({
	type,
	data: {
		message: { id: 'cmsg_1', status, type: messageType, reason: null },
		contact: { phone_number: '+919988776655' },
		event: null,
	},
});

describe('events catalogue', () => {
	it('every event a user can choose is decided as itself when Peach sends it', () => {
		const choosable = EVENT_OPTIONS.map((option) => String(option.value)).filter((v) => v !== '*');
		expect(choosable).toHaveLength(Object.keys(EVENTS).length);
		for (const type of choosable) {
			const status = type.startsWith('message_delivery.') ? type.split('.')[1] : undefined;
			const envelope = status ? delivery(type, status) : { type, data: {} };
			const decision = decideEvent(envelope);
			expect(decision.event).toBe(type);
			expect(decision.kind).not.toBe('unknown');
			expect(isSelected(decision.event, [type])).toBe(true);
		}
	});

	it('offers All Events first, then the events grouped by kind in sorted order', () => {
		expect(EVENT_OPTIONS[0]).toMatchObject({ name: 'All Events', value: '*' });
		const names = EVENT_OPTIONS.slice(1).map((option) => option.name);
		expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b)));
		expect(names[0]).toBe('AI Agent: Analyzed');
	});

	it('knows the kind of an undocumented event of a known family', () => {
		expect(kindOf('order.refunded')).toBe('order');
		expect(kindOf('ai_agent_execution.started')).toBe('aiAgent');
		expect(kindOf('conversation.message_received')).toBe('unknown');
		// Names of Object.prototype members are not events or families.
		expect(kindOf('constructor')).toBe('unknown');
		expect(kindOf('toString.x')).toBe('unknown');
		expect(isSelected('constructor', ['constructor'])).toBe(false);
	});
});

describe('decideEvent', () => {
	it('lets the message status decide a delivery event (the docs send .sent for a delivered message)', () => {
		expect(decideEvent(delivery('message_delivery.sent', 'delivered'))).toEqual({
			event: 'message_delivery.delivered',
			kind: 'messageDelivery',
			decidedBy: 'messageStatus',
		});
		expect(decideEvent(delivery('message_delivery.sent', 'SENT'))).toEqual({
			event: 'message_delivery.sent',
			kind: 'messageDelivery',
			decidedBy: 'type',
		});
	});

	it('a status that is no known event never overrides a known type (failed + "undelivered")', () => {
		expect(decideEvent(delivery('message_delivery.failed', 'undelivered'))).toEqual({
			event: 'message_delivery.failed',
			kind: 'messageDelivery',
			decidedBy: 'type',
		});
		expect(
			isSelected(decideEvent(delivery('message_delivery.failed', 'undelivered')).event, [
				'message_delivery.failed',
			]),
		).toBe(true);
		expect(decideEvent(delivery('message_delivery.sent', 'constructor')).event).toBe(
			'message_delivery.sent',
		);
	});

	it('keeps the type when there is no usable status, and for other kinds', () => {
		expect(decideEvent(delivery('message_delivery.failed')).event).toBe('message_delivery.failed');
		expect(decideEvent(delivery('message_delivery.failed', 'not a status!')).event).toBe(
			'message_delivery.failed',
		);
		expect(decideEvent({ type: 'order.completed', data: { status: 'canceled' } })).toEqual({
			event: 'order.completed',
			kind: 'order',
			decidedBy: 'type',
		});
	});
});

describe('selection and filters', () => {
	it('selects chosen events, and unknown types only under All Events', () => {
		expect(isSelected('order.completed', ['order.completed'])).toBe(true);
		expect(isSelected('order.canceled', ['order.completed'])).toBe(false);
		expect(isSelected('order.refunded', ['order.completed'])).toBe(false);
		expect(isSelected('order.refunded', ['*'])).toBe(true);
		expect(isSelected('order.completed', [])).toBe(false);
	});

	it('filters delivery events by template or interactive messages', () => {
		const template = delivery('message_delivery.sent', 'sent', 'template_message');
		const interactive = delivery('message_delivery.sent', 'sent', 'message');
		expect(passesMessageFilter(template, 'messageDelivery', 'templateMessage')).toBe(true);
		expect(passesMessageFilter(interactive, 'messageDelivery', 'templateMessage')).toBe(false);
		expect(passesMessageFilter(interactive, 'messageDelivery', 'interactive')).toBe(true);
		expect(passesMessageFilter(template, 'messageDelivery', 'interactive')).toBe(false);
		expect(passesMessageFilter(template, 'messageDelivery', 'all')).toBe(true);
		expect(passesMessageFilter({ type: 'order.completed', data: {} }, 'order', 'interactive')).toBe(
			true,
		);
	});
});

describe('buildOutput', () => {
	it('puts event, kind, what was sent and the data fields at the top; a clashing data field becomes data<Name>', () => {
		const envelope = delivery('message_delivery.sent', 'delivered');
		const output = buildOutput(envelope, decideEvent(envelope), '2026-01-01T00:00:00.000Z');
		expect(output).toEqual({
			event: 'message_delivery.delivered',
			kind: 'messageDelivery',
			sentType: 'message_delivery.sent',
			decidedBy: 'messageStatus',
			receivedAt: '2026-01-01T00:00:00.000Z',
			message: { id: 'cmsg_1', status: 'delivered', type: 'template_message', reason: null },
			contact: { phone_number: '+919988776655' },
			dataEvent: null,
		});
	});

	it('adds the raw body when asked', () => {
		const envelope = { type: 'order.completed', data: { id: 'wa_ord_1' } };
		expect(buildOutput(envelope, decideEvent(envelope), 'now', '{"raw":1}').rawBody).toBe(
			'{"raw":1}',
		);
	});

	it('a __proto__ key in the data stays a plain field', () => {
		const parsed = parseEnvelope(
			Buffer.from('{"type":"order.completed","data":{"__proto__":{"polluted":true}}}'),
			{},
		);
		const envelope = parsed.ok ? parsed.envelope : { type: '', data: {} };
		const output = buildOutput(envelope, decideEvent(envelope), 'now');
		expect(({} as Record<string, unknown>).polluted).toBeUndefined();
		expect(Object.getPrototypeOf(output)).toBe(Object.prototype);
	});
});
