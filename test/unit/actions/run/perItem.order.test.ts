import type { INodeExecutionData } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { registry } from '../../../../nodes/Peach/actions/registry';
import type { PeachOperation } from '../../../../nodes/Peach/actions/operation/node.type';
import { normalizeContactPhoneNumber } from '../../../../nodes/Peach/helpers/phone';
import {
	type FakeResponse,
	locator,
	pairedOutcomes,
	type RecordedRequest,
	runPeach,
} from '../../support/harness';

/** What the user gave is what happens: order kept. */

const ok: FakeResponse = { statusCode: 200, body: { status: 'success', event_id: 'evt' } };
const phoneOf = (request: RecordedRequest) =>
	(request.body as { contact: { phone_number: string } }).contact.phone_number;

describe('order', () => {
	it('Max Concurrent Requests 1 sends in input order exactly (items 1 and 4 for one contact, 2 and 3 for others)', async () => {
		const phones = ['+14155550101', '+14155550102', '+14155550103', '+14155550101'];
		const { requests } = await runPeach({
			params: phones.map((phoneNumber) => ({
				resource: 'templateMessage',
				operation: 'send',
				phoneNumber,
				templateId: locator('wat_welcome'),
				requestOptions: { concurrency: 1 },
			})),
			responses: phones.map(() => ok),
		});
		expect(requests.map(phoneOf)).toEqual(phones);
	});

	it('Contact → Update of one contact written two ways: one after the other, in input order', async () => {
		const { requests } = await runPeach({
			params: ['+919988776655', '+91 99887 76655', '+14155550123'].map((phoneNumber, index) => ({
				resource: 'contact',
				operation: 'update',
				phoneNumber,
				updateFields: { name: `Name ${index + 1}` },
			})),
			responses: [ok, ok, ok],
			// The first update is slow: the second, for the same contact, must wait for it.
			answerDelayMs: (request) => ((request.body as { name: string }).name === 'Name 1' ? 40 : 1),
		});
		const [first, other, second] = requests;
		expect(requests.map((request) => (request.body as { name: string }).name)).toEqual([
			'Name 1',
			'Name 3',
			'Name 2',
		]);
		expect(second.startedAt).toBeGreaterThanOrEqual(first.answeredAt as number);
		expect(other.startedAt).toBeLessThan(first.answeredAt as number);
	});

	it('every per-item operation that changes a record names it, so its items go in turn', () => {
		const changing: string[] = [];
		for (const [resource, definition] of Object.entries(registry)) {
			for (const operation of Object.values(definition.operations) as PeachOperation[]) {
				if ('delivers' in operation || 'batch' in operation) continue;
				const value = operation.option.value;
				const reads = /^get/.test(value);
				// A create (or an upload) makes a new record: no earlier item can change it.
				const creates = /^(create|upload)/.test(value);
				if (!reads && !creates && !('recordOf' in operation && operation.recordOf))
					changing.push(`${resource}.${value}`);
			}
		}
		expect(changing).toEqual([]);
	});

	it('one contact is one lane, whether written with the trunk (0) or without', () => {
		expect(normalizeContactPhoneNumber('Phone Number', '+44 (0)20 7946 0958')).toBe(
			'+442079460958',
		);
		expect(normalizeContactPhoneNumber('Phone Number', '+44 20 7946 0958')).toBe('+442079460958');
		expect(normalizeContactPhoneNumber('Phone Number', '+44(0)2079460958')).toBe('+442079460958');
	});

	it('Broadcast → Launch to audiences under Continue On Fail: output i is input i', async () => {
		const { output } = await runPeach({
			params: ['aud_1', '', 'aud_3'].map((audienceId) => ({
				resource: 'broadcast',
				operation: 'launch',
				name: 'Spring',
				templateId: locator('wat_welcome'),
				recipients: 'audience',
				audienceId,
				requestOptions: { concurrency: 1 },
			})),
			responses: [
				{ statusCode: 200, body: { event_id: 'evt_1' } },
				{ statusCode: 200, body: { event_id: 'evt_3' } },
			],
			continueOnFail: true,
		});
		expect(pairedOutcomes((output as INodeExecutionData[][])[0], 'event_id')).toEqual([
			['evt_1', { item: 0 }],
			['Audience ID is empty', { item: 1 }],
			['evt_3', { item: 2 }],
		]);
	});
});
