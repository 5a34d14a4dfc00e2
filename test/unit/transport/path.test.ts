import { describe, expect, it } from 'vitest';

import { segment } from '../../../nodes/Peach/transport/path';
import { locator } from '../support/harness';
import { localPeachServers, ok, runOverTheWire as run } from '../support/localPeach';

/** What the user gave is what happens, over n8n's own request function (support/localPeach.ts). */

const peachServer = localPeachServers();

describe('an ID stays one segment of its path', () => {
	it.each([
		'.',
		'..',
		'%2e',
		'%2E%2e',
		'.%2e',
		'%252e%252e',
		'a/../events',
		'a%2F..%2Fevents',
		'..\\x',
		'',
	])('%j is refused', (value) => {
		// The value is named; an empty one is "Automation is empty".
		expect(() => segment('Automation', value)).toThrow(
			value === '' ? /^Automation is empty$/ : /^Automation ".*" /,
		);
	});

	it('anything else is encoded as one segment', () => {
		expect(segment('Template', 'wat.v2')).toBe('wat.v2');
		expect(segment('Template', '...')).toBe('...');
		expect(segment('Phone Number', '+919988776655')).toBe('%2B919988776655');
		expect(segment('Template', 'a b?c#d')).toBe('a%20b%3Fc%23d');
	});

	// Each operation that puts an ID in its path, with the ID '..': n8n would resolve it as a step.
	const operations: Array<[string, Record<string, unknown>]> = [
		[
			'Automation → Trigger (else: POST /events, the send endpoint)',
			{
				resource: 'automation',
				operation: 'trigger',
				automationId: locator('..', 'id'),
				phoneNumber: '+919988776655',
				payloadInput: 'json',
				payloadJson: '{"event_type":"send_template_message"}',
			},
		],
		[
			'Order → Refund (else: POST /refunds)',
			{ resource: 'order', operation: 'refund', orderId: '..', refundType: 'full' },
		],
		[
			'WhatsApp Template → Delete with "." (else: DELETE the templates collection)',
			{ resource: 'whatsAppTemplate', operation: 'delete', templateId: locator('.', 'id') },
		],
		['Order → Get', { resource: 'order', operation: 'get', orderId: '%2e%2e' }],
		[
			'Automation Trigger → Update',
			{
				resource: 'automationTrigger',
				operation: 'update',
				triggerId: locator('..', 'id'),
				activation: 'activate',
			},
		],
		[
			'Conversation → Update Status',
			{
				resource: 'conversation',
				operation: 'updateStatus',
				conversationId: locator('..', 'id'),
				status: 'closed',
			},
		],
		[
			'Broadcast → Cancel',
			{ resource: 'broadcast', operation: 'cancel', broadcastId: locator('..', 'id') },
		],
		[
			'Template Message → Get Status',
			{ resource: 'templateMessage', operation: 'getStatus', eventId: '..' },
		],
		['Media → Delete', { resource: 'media', operation: 'delete', mediaId: locator('..', 'id') }],
		[
			'Contact → Expire Setup Guest Link',
			{ resource: 'contact', operation: 'expireGuestLink', guestLinkId: '..' },
		],
	];

	it.each(operations)('%s: refused before any request', async (_name, params) => {
		const peach = await peachServer(ok);
		const { error } = await run(params, peach.url);
		expect(peach.seen).toEqual([]);
		expect(error?.message).toMatch(/ "(\.|\.\.|%2e%2e)" is a step in a path, not an ID$/);
	});

	it('an ID with a dot inside stays in its place', async () => {
		const peach = await peachServer(() => ({ status: 200, body: '{"id":"wat.v2"}' }));
		await run(
			{ resource: 'whatsAppTemplate', operation: 'get', templateId: locator('wat.v2', 'id') },
			peach.url,
		);
		expect(peach.seen.map((request) => request.url)).toEqual([
			'/api/v1/whats_app_templates/wat.v2',
		]);
	});
});
