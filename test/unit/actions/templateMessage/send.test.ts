import { NodeApiError, NodeOperationError } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { buildSendTemplateMessageBody } from '../../../../nodes/Peach/actions/templateMessage/shared';
import { jsonOf, locator, TEST_API_KEY } from '../../support/harness';
import { runner, throwingRunner } from '../../support/resourceRun';

const minimal = {
	resource: 'templateMessage',
	operation: 'send',
	phoneNumber: '+919988776655',
	templateId: locator('wat_approved'),
	variablesInput: 'fields',
	variables: {},
	variablesJson: '',
	contactFields: {},
	additionalFields: {},
};

const accepted = { statusCode: 200, body: { status: 'success', event_id: 'evt_1' } };

/** Peach's answer to a send it queued as `eventId`. */
const queued = (eventId: string) => ({
	statusCode: 200,
	body: { status: 'success', event_id: eventId },
});

const run = throwingRunner({ responses: [accepted] });
/** The same run, for tests of runs that fail: the output, or the error the node threw. */
const attempt = runner({ responses: [accepted] });

/** The output item of `minimal` (item 0) that Peach queued as `accepted`. */
const queuedItem = {
	json: {
		to: '+919988776655',
		outcome: 'queued',
		peachId: 'evt_1',
		status: 'success',
		event_id: 'evt_1',
	},
	pairedItem: { item: 0 },
};

/** Three items, one to each of three contacts. */
const threeContacts = ['+14155550101', '+14155550102', '+14155550103'].map((phoneNumber) => ({
	...minimal,
	phoneNumber,
}));

/** Bad input `override` is refused before any request, with `message` and a fix containing `fix`. */
async function expectRefused(override: Record<string, unknown>, message: string, fix: string) {
	const { output, requests } = await attempt({ ...minimal, ...override });
	const error = output as NodeOperationError;
	expect(error).toBeInstanceOf(NodeOperationError);
	expect(error.message.startsWith(message)).toBe(true);
	expect(error.description).toContain(fix);
	expect(error.context.itemIndex).toBe(0);
	expect(requests).toHaveLength(0);
}

describe('Template Message → Send', () => {
	it('posts only the required fields when nothing else is set', async () => {
		const { requests, output } = await run(minimal);
		expect(requests).toHaveLength(1);
		expect(requests[0].credentialType).toBe('peachMessagingApi');
		expect(requests[0].options.method).toBe('POST');
		expect(requests[0].url).toBe('https://peach.test/api/v1/events');
		expect(requests[0].options.headers).not.toHaveProperty('Authorization');
		expect(requests[0].body).toEqual({
			event_type: 'send_template_message',
			contact: { phone_number: '+919988776655' },
			template_message: { whats_app_template_id: 'wat_approved' },
		});
		// What a person checks first (whom, what happened, Peach's ID), Peach's answer after it.
		expect(output).toEqual([[queuedItem]]);
		expect(Object.keys(output[0][0].json)).toEqual([
			'to',
			'outcome',
			'peachId',
			'status',
			'event_id',
		]);
	});

	it('sends every field the user set, under the real field names', async () => {
		const { requests } = await run(
			{
				...minimal,
				phoneNumber: '+91 99887 76655',
				templateId: locator('wat_by_id', 'id'),
				variables: {
					values: [
						{ key: 'first_name', value: 'Asha' },
						{ key: 'amount', value: 120 },
					],
				},
				contactFields: {
					name: 'Asha Rao',
					email: 'asha@example.com',
					language: 'en',
					metadata: { values: [{ key: 'customer_id', value: '42' }] },
				},
				additionalFields: {
					businessPhoneNumber: '919876543222',
					replyAutomation: locator('strm_reply'),
					retryUntil: '2999-01-01T10:00:00+05:30',
					retryWindow: { window: { startAt: '08:00', endAt: '20:00', timezone: 'Asia/Kolkata' } },
				},
			},
			[accepted],
		);
		expect(requests[0].body).toEqual({
			event_type: 'send_template_message',
			contact: {
				phone_number: '+919988776655',
				name: 'Asha Rao',
				email: 'asha@example.com',
				language: 'en',
				metadata: { customer_id: '42' },
			},
			template_message: {
				whats_app_template_id: 'wat_by_id',
				liquid_values: { first_name: 'Asha', amount: 120 },
				retry_until: '2999-01-01T04:30:00.000Z',
				retry_window: { start_at: '08:00', end_at: '20:00', timezone: 'Asia/Kolkata' },
				business_phone_number: '919876543222',
				reply_automation: { app_id: 'strm_reply' },
			},
		});
	});

	it('omits the retry window time zone when it is empty (the account default applies)', () => {
		const body = buildSendTemplateMessageBody(
			{
				phoneNumber: '+14155550123',
				templateId: 'wat_1',
				liquidValues: undefined,
				contactFields: {},
				additionalFields: {
					retryWindow: { window: { startAt: '09:00', endAt: '17:30', timezone: '' } },
				},
			},
			'UTC',
		);
		expect((body.template_message as Record<string, unknown>).retry_window).toEqual({
			start_at: '09:00',
			end_at: '17:30',
		});
	});

	it('takes template variables as a JSON object, header media included', async () => {
		const { requests } = await run({
			...minimal,
			variablesInput: 'json',
			variablesJson:
				'{"name": "Asha", "count": 3, "header_media": {"link": "https://x.test/a.pdf", "filename": "a.pdf"}}',
		});
		expect(
			(requests[0].body as Record<string, Record<string, unknown>>).template_message.liquid_values,
		).toEqual({
			name: 'Asha',
			count: 3,
			header_media: { link: 'https://x.test/a.pdf', filename: 'a.pdf' },
		});
	});

	it('outputs the 201 echo as it came, keeping event_id', async () => {
		const echo = {
			event_type: 'send_template_message',
			contact: { phone_number: '+919988776655' },
			template_message: { whats_app_template_id: 'wat_approved' },
			event_id: 'evt_9',
		};
		const { output } = await run(minimal, [{ statusCode: 201, body: echo }]);
		expect(output[0][0].json).toEqual({
			to: '+919988776655',
			outcome: 'queued',
			peachId: 'evt_9',
			...echo,
		});
	});

	it.each([
		[
			{ phoneNumber: '9988776655' },
			'Phone Number "9988776655" has no + and country code',
			'+919988776655',
		],
		[{ templateId: locator('') }, 'Template is empty', 'From List'],
		[
			{ contactFields: { email: 'nope' } },
			'Email "nope" is not an email address',
			'name@example.com',
		],
		[
			{ additionalFields: { retryUntil: '2000-01-01T00:00:00Z' } },
			'Retry Until "2000-01-01T00:00:00Z" is not in the future (it is 2000-01-01T00:00:00.000Z UTC, now is ',
			'later',
		],
		[
			{ additionalFields: { retryUntil: 'next week' } },
			'Retry Until "next week" is not a date-time',
			'2030-01-31T18:00:00Z',
		],
		[
			{ additionalFields: { retryWindow: { window: { startAt: '8am', endAt: '20:00' } } } },
			'Retry Window → Start Time "8am" is not a time of day',
			'HH:MM',
		],
		[
			{ additionalFields: { businessPhoneNumber: '+919876543222' } },
			'Business Phone Number "+919876543222" starts with +',
			'no +',
		],
		[
			{ variablesInput: 'json', variablesJson: '[1]' },
			'Variables (JSON) "[1]" is an array, not a JSON object',
			'{"key": "value"}',
		],
		[
			{ variablesInput: 'json', variablesJson: '{"a": true}' },
			'Variables (JSON) "a" true is neither text nor a number',
			'text or a number',
		],
	])('refuses bad input before any request: %j', expectRefused);

	it('refuses a Retry Window time zone that is not an IANA one before any request', async () => {
		await expectRefused(
			{
				additionalFields: {
					retryWindow: { window: { startAt: '08:00', endAt: '20:00', timezone: 'Asia/Mumbai' } },
				},
			},
			'Retry Window → Time Zone "Asia/Mumbai" is not an IANA time zone',
			'Asia/Kolkata',
		);
	});

	it('shows the 422 reason of a non-approved template as the error message', async () => {
		const { output } = await attempt(minimal, [
			{
				statusCode: 422,
				body: {
					status: 'failed',
					reason: {
						template_message: { whats_app_template_id: ['is not approved (status: pending)'] },
					},
				},
			},
		]);
		const error = output as NodeApiError;
		expect(error).toBeInstanceOf(NodeApiError);
		expect(error.message).toBe('Template: is not approved (status: pending)');
		expect(error.httpCode).toBe('422');
		expect(error.context.itemIndex).toBe(0);
	});

	it('with Continue On Fail, yields an error item per failed item and carries on, all paired', async () => {
		const { output, requests } = await run(
			[minimal, { ...minimal, phoneNumber: 'bad' }, minimal],
			[accepted, { statusCode: 500, body: { message: 'boom' } }],
			{ continueOnFail: true },
		);
		expect(requests).toHaveLength(2);
		expect(output[0]).toHaveLength(3);
		expect(output[0][0]).toEqual(queuedItem);
		// A refused item was certainly not sent; a 500 may have reached Peach: each says which.
		expect(output[0][1].pairedItem).toEqual({ item: 1 });
		expect(output[0][1].json.outcome).toBe('not sent');
		expect(output[0][1].json.error).toBe('Phone Number "bad" has no + and country code');
		expect(output[0][2].pairedItem).toEqual({ item: 2 });
		expect(output[0][2].json).toMatchObject({
			to: '+919988776655',
			outcome: 'outcome unknown',
			error: 'Peach had a server error (500): boom',
			httpCode: '500',
		});
		expect(output[0][2].json.description).toContain('It may already have been queued in Peach');
	});

	it('without Continue On Fail, stops at the failing item and reports its index', async () => {
		const { output } = await attempt(
			[minimal, minimal],
			[accepted, { statusCode: 401, body: { message: 'Unauthorized' } }],
		);
		const error = output as NodeApiError;
		expect(error.message).toBe('Peach rejected the API key: Unauthorized');
		expect(error.context.itemIndex).toBe(1);
	});

	it('never puts the API key in output or errors, when real requests carrying it fail', async () => {
		const transportFailure = Object.assign(new Error('socket hang up'), {
			code: 'ECONNRESET',
			config: { headers: { Authorization: TEST_API_KEY } },
		});
		const { output, requests } = await run(
			[minimal, minimal, minimal],
			[
				{ statusCode: 401, body: { message: 'Unauthorized' } },
				{ statusCode: 500, body: { message: 'Internal error' } },
				transportFailure,
			],
			{ continueOnFail: true },
		);
		// Each request went out with the key...
		expect(requests.map((request) => request.sent.headers?.Authorization)).toEqual([
			TEST_API_KEY,
			TEST_API_KEY,
			TEST_API_KEY,
		]);
		// ...and none of the three failures shows it.
		expect(jsonOf(output).map((json) => json.error)).toEqual([
			'Peach rejected the API key: Unauthorized',
			'Peach had a server error (500): Internal error',
			'Could not reach Peach at https://peach.test (connection closed unexpectedly)',
		]);
		expect(JSON.stringify(output)).not.toContain(TEST_API_KEY);

		const { output: error } = await attempt(minimal, [transportFailure]);
		expect(JSON.stringify(error)).not.toContain(TEST_API_KEY);
		expect(String((error as Error).stack)).not.toContain(TEST_API_KEY);
	});

	it("reads the reply automation, a locator inside a collection, through n8n's own locator extraction", async () => {
		const { requests, reads } = await run({
			...minimal,
			additionalFields: { replyAutomation: locator('aiflw_7', 'id') },
		});
		expect((requests[0].body as { template_message: object }).template_message).toMatchObject({
			reply_automation: { app_id: 'aiflw_7' },
		});
		// Its own path with extractValue, so a mode's extraction rule applies (a whole collection is not unpacked).
		expect(reads).toContainEqual({
			name: 'additionalFields.replyAutomation',
			itemIndex: 0,
			extractValue: true,
			shown: true,
		});
		expect(reads.find((read) => read.name === 'additionalFields')?.extractValue).toBe(false);
	});

	it('a template ID a tool or expression gives as a number is sent as text', async () => {
		const { requests } = await run({ ...minimal, templateId: 12345 });
		expect((requests[0].body as { template_message: object }).template_message).toEqual({
			whats_app_template_id: '12345',
		});
	});

	it('reads (decrypts) the credential once per execution, not per item', async () => {
		const { getCredentials, requests } = await run(
			[minimal, minimal, minimal],
			[accepted, accepted, accepted],
		);
		expect(requests).toHaveLength(3);
		expect(getCredentials).toHaveBeenCalledTimes(1);
	});

	it('gives each of several input items its own request and paired output', async () => {
		const { output, requests } = await run(
			[minimal, { ...minimal, phoneNumber: '+14155550123' }],
			[accepted, queued('evt_2')],
		);
		expect(
			requests.map((r) => (r.body as { contact: { phone_number: string } }).contact.phone_number),
		).toEqual(['+919988776655', '+14155550123']);
		expect(jsonOf(output).map((json) => json.event_id)).toEqual(['evt_1', 'evt_2']);
		expect(output[0].map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
	});

	it('checks every item before the first send: a bad 3rd phone number sends nothing', async () => {
		const { output, requests } = await attempt(
			[
				minimal,
				{ ...minimal, phoneNumber: '+14155550123' },
				{ ...minimal, phoneNumber: '9988776655' },
			],
			[accepted, accepted, accepted],
		);
		const error = output as NodeOperationError;
		expect(requests).toHaveLength(0);
		expect(error.message).toBe('Phone Number "9988776655" has no + and country code');
		expect(error.context.itemIndex).toBe(2);
		expect(error.description).toContain('Nothing was sent');
		// The fix offers the expression that adds the +, built from the field's own expression.
		const mapped = await attempt([{ ...minimal, phoneNumber: '={{ $json.phone }}' }], [accepted], {
			inputs: [{ phone: '919988776655' }],
		});
		const typed = mapped.output as NodeOperationError;
		expect(mapped.requests).toHaveLength(0);
		expect(typed.message).toBe('Phone Number "919988776655" has no + and country code');
		expect(typed.description).toBe(
			"Phone Number is {{ $json.phone }}. If the data has the digits with the country code but no +, add it: {{ '+' + $json.phone }}. Otherwise write the number with + and the country code, e.g. +919988776655. Nothing was sent: every item is checked before the first one is sent.",
		);
	});

	it('a refusal (422) on the 3rd send: the error lists the 2 sent with their event IDs, and a Retry sends only the 3rd', async () => {
		const { output, requests } = await attempt(threeContacts, [
			queued('evt_1'),
			queued('evt_2'),
			{ statusCode: 422, body: { status: 'failed', reason: { template_message: ['is paused'] } } },
		]);
		const error = output as NodeApiError;
		expect(requests).toHaveLength(3);
		expect(error.httpCode).toBe('422');
		expect(error.context.itemIndex).toBe(2);
		expect(error.description).toBe(
			'Peach validated the request and refused it, so it was not queued. Change the fields named in the message. Already sent: item 0 (event_id evt_1), item 1 (event_id evt_2). A Retry of this execution (or Retry On Fail) sends item 2, never what was sent.',
		);
		expect(error.description).not.toMatch(/run the workflow again|nothing was queued/i);
	});

	it('a 429 on the 3rd send is waited out and that send made again: each contact gets one message', async () => {
		const { output, requests } = await run(threeContacts, [
			queued('evt_1'),
			queued('evt_2'),
			{ statusCode: 429, headers: { 'retry-after': '0' }, body: { message: 'Slow down' } },
			queued('evt_3'),
		]);
		expect(
			requests.map(
				(request) => (request.body as { contact: { phone_number: string } }).contact.phone_number,
			),
		).toEqual(['+14155550101', '+14155550102', '+14155550103', '+14155550103']);
		expect(jsonOf(output).map((json) => json.event_id)).toEqual(['evt_1', 'evt_2', 'evt_3']);
	});

	it('sends every metadata key as given, also constructor and toString', async () => {
		const { requests } = await run({
			...minimal,
			contactFields: {
				metadata: {
					values: [
						{ key: 'constructor', value: 'x' },
						{ key: 'toString', value: 'y' },
						{ key: '__proto__', value: 'z' },
					],
				},
			},
		});
		expect(requests[0].sent.body).toContain(
			'"metadata":{"constructor":"x","toString":"y","__proto__":"z"}',
		);
	});
});
