import { NodeOperationError } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { type FakeResponse, locator, pairedOutcomes } from '../../support/harness';
import { runner } from '../../support/resourceRun';

const accepted: FakeResponse = { statusCode: 200, body: { status: 'success', event_id: 'evt_b' } };
const base = {
	resource: 'broadcast',
	operation: 'launch',
	name: 'Spring',
	templateId: locator('wat_welcome'),
	variablesInput: 'fields',
	variables: { values: [{ key: 'shop', value: 'Peach Store' }] },
	recipients: 'items',
	deliveryMode: 'instant',
	contactName: '',
	contactVariables: {},
	additionalFields: {},
};
const rows = (phones: string[]) =>
	phones.map((phone, index) => ({
		...base,
		contactPhoneNumber: phone,
		contactName: `Name ${index}`,
		contactVariables: { values: [{ key: 'first_name', value: `N${index}` }] },
	}));

const run = runner({ responses: [accepted] });

/** What every send_broadcast of `base` says of the broadcast: its name, template and global values. */
const spring = {
	name: 'Spring',
	whats_app_template_id: 'wat_welcome',
	liquid_values: { shop: 'Peach Store' },
};

describe('Broadcast → Launch', () => {
	it('turns all input items into ONE send_broadcast request, paired to every item', async () => {
		const { requests, output } = await run(
			rows(['+14155550101', '+1 415 555 0102', '+14155550103']),
		);
		expect(requests).toHaveLength(1);
		expect([requests[0].options.method, requests[0].url]).toEqual([
			'POST',
			'https://peach.test/api/v1/events',
		]);
		expect(requests[0].body).toEqual({
			event_type: 'send_broadcast',
			broadcast: {
				...spring,
				delivery_mode: 'instant',
				contacts: [
					{ phone_number: '+14155550101', name: 'Name 0', liquid_values: { first_name: 'N0' } },
					{ phone_number: '+14155550102', name: 'Name 1', liquid_values: { first_name: 'N1' } },
					{ phone_number: '+14155550103', name: 'Name 2', liquid_values: { first_name: 'N2' } },
				],
			},
		});
		expect(output).toEqual([
			[
				{
					json: {
						to: '+14155550101 and 2 more',
						outcome: 'queued',
						peachId: 'evt_b',
						status: 'success',
						event_id: 'evt_b',
						contactCount: 3,
					},
					pairedItem: [{ item: 0 }, { item: 1 }, { item: 2 }],
				},
			],
		]);
	});

	it('checks every row first: bad rows are all named at once and nothing is sent', async () => {
		const { requests, output } = await run(
			rows(['+14155550101', '4155550102', '+14155550103', 'x']),
		);
		expect(requests).toHaveLength(0);
		expect(output).toBeInstanceOf(NodeOperationError);
		const error = output as NodeOperationError;
		expect(error.message).toBe(
			'Item 1 → Contact Phone Number "4155550102" has no + and country code',
		);
		expect(error.context.itemIndex).toBe(1);
		expect(error.description).toContain(
			'Nothing was sent: every item is checked before the first one is sent.',
		);
		expect(error.description).toContain(
			'Also to fix: Item 3 → Contact Phone Number "x" has no + and country code.',
		);
	});

	it('with Continue On Fail, launches the good rows and gives each bad row its own error item', async () => {
		const { requests, output } = await run(
			rows(['+14155550101', 'bad', '+14155550103']),
			[accepted],
			{
				continueOnFail: true,
			},
		);
		expect(
			(requests[0].body as { broadcast: { contacts: unknown[] } }).broadcast.contacts,
		).toHaveLength(2);
		const items = (
			output as Array<Array<{ json: Record<string, unknown>; pairedItem: unknown }>>
		)[0];
		expect(pairedOutcomes(items, 'event_id')).toEqual([
			['evt_b', [{ item: 0 }, { item: 2 }]],
			['Item 1 → Contact Phone Number "bad" has no + and country code', { item: 1 }],
		]);
	});

	it('an audience launches one broadcast per item with the options given; a 5xx says it may have started', async () => {
		const { requests, output } = await run(
			{
				...base,
				recipients: 'audience',
				audienceId: 'aud_1',
				deliveryMode: 'smart',
				additionalFields: {
					businessPhoneNumber: '919876543222',
					scheduledLaunchTime: '2999-01-01T10:00:00Z',
					replyAutomation: locator('strm_1'),
				},
			},
			[{ statusCode: 502, body: 'Bad gateway' }],
			{ continueOnFail: true },
		);
		expect(requests[0].body).toEqual({
			event_type: 'send_broadcast',
			broadcast: {
				...spring,
				delivery_mode: 'smart',
				scheduled_launch_time: '2999-01-01T10:00:00.000Z',
				phone_number: '919876543222',
				reply_automation: { app_id: 'strm_1' },
				audience_id: 'aud_1',
			},
		});
		const [item] = (output as Array<Array<{ json: Record<string, string> }>>)[0];
		expect(item.json.description).toContain('It may already have been queued in Peach');
	});

	const audience = (ids: string[]) =>
		ids.map((audienceId) => ({ ...base, recipients: 'audience', audienceId }));

	it('to audiences, every item is checked before the first launch: an empty audience ID launches nothing', async () => {
		const { requests, output } = await run(audience(['', 'aud_2', 'aud_3']), [accepted, accepted]);
		expect(requests).toHaveLength(0);
		const error = output as NodeOperationError;
		expect(error.message).toBe('Audience ID is empty');
		expect(error.description).toContain('Nothing was sent');
	});

	it('a failed launch stops the rest and lists the broadcasts already launched with their event IDs', async () => {
		const oneAtATime = audience(['aud_1', 'aud_2', 'aud_3', 'aud_4']).map((item) => ({
			...item,
			requestOptions: { concurrency: 1 },
		}));
		const { requests, output } = await run(oneAtATime, [
			{ statusCode: 200, body: { status: 'success', event_id: 'evt_1' } },
			{ statusCode: 200, body: { status: 'success', event_id: 'evt_2' } },
			{ statusCode: 503, body: { message: 'Maintenance' } },
			accepted,
		]);
		expect(
			requests.map(
				(request) => (request.body as { broadcast: { audience_id: string } }).broadcast.audience_id,
			),
		).toEqual(['aud_1', 'aud_2', 'aud_3']);
		const error = output as NodeOperationError;
		expect(error.message).toBe('Peach had a server error (503): Maintenance');
		expect(error.context.itemIndex).toBe(2);
		expect(error.description).toContain(
			'Already sent: item 0 (event_id evt_1), item 1 (event_id evt_2). Not sent: item 3. Item 2 may have reached Peach, so a Retry of this execution (or Retry On Fail) does not send it again; it sends the items not sent, and never what was sent.',
		);
		expect(error.description).not.toMatch(/run the workflow again/i);
	});
});
