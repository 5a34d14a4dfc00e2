import { describe, expect, it } from 'vitest';

import { run } from './run';

describe('Contact → Create or Update, Update, Get', () => {
	it('upsert: POST /contacts with the fields set, tags split, time zone checked', async () => {
		const { requests } = await run({
			resource: 'contact',
			operation: 'upsert',
			phoneNumber: '+91 99887 76655',
			additionalFields: {
				name: 'Asha',
				timezone: 'Asia/Kolkata',
				tags: 'vip, newsletter',
				optedOut: false,
				communicationPreference: 'disallow_marketing',
				metadata: { values: [{ key: 'tier', value: 'gold' }] },
			},
		});
		expect([requests[0].options.method, requests[0].url]).toEqual([
			'POST',
			'https://peach.test/api/v1/contacts',
		]);
		expect(requests[0].body).toEqual({
			phone_number: '+919988776655',
			name: 'Asha',
			timezone: 'Asia/Kolkata',
			tags: ['vip', 'newsletter'],
			opted_out: false,
			communication_preference: 'disallow_marketing',
			metadata: { tier: 'gold' },
		});
		const bad = await run({
			resource: 'contact',
			operation: 'upsert',
			phoneNumber: '+919988776655',
			additionalFields: { timezone: 'Asia/Mumbai' },
		});
		expect((bad.output as Error).message).toBe('Time Zone "Asia/Mumbai" is not an IANA time zone');
	});
});
