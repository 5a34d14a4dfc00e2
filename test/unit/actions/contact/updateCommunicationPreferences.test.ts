import { describe, expect, it } from 'vitest';

import { type Items, run } from './run';

describe('Contact → Update Communication Preferences, setup guest links', () => {
	it('all input items in one request, or a list per item', async () => {
		const items = await run(
			['+14155550101', '+14155550102'].map((phone) => ({
				resource: 'contact',
				operation: 'updateCommunicationPreferences',
				source: 'items',
				phoneNumber: phone,
				communicationPreference: 'mute_all',
			})),
			[{ statusCode: 200, body: { updated: 2 } }],
		);
		expect(items.requests[0].url).toBe(
			'https://peach.test/api/v1/contacts/bulk_update_communication_preferences',
		);
		expect(items.requests[0].body).toEqual({
			phone_numbers: ['+14155550101', '+14155550102'],
			communication_preference: 'mute_all',
		});
		expect((items.output as Items)[0][0].pairedItem).toEqual([{ item: 0 }, { item: 1 }]);
		const list = await run({
			resource: 'contact',
			operation: 'updateCommunicationPreferences',
			source: 'list',
			phoneNumbers: '+14155550101,\n+14155550102',
			communicationPreference: 'allow_everything',
		});
		expect((list.requests[0].body as { phone_numbers: string[] }).phone_numbers).toEqual([
			'+14155550101',
			'+14155550102',
		]);
	});
});
