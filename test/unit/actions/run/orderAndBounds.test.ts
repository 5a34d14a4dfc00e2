import { createHash } from 'crypto';

import type { INodeExecutionData } from 'n8n-workflow';
import { describe, expect, it, vi } from 'vitest';

import { registry } from '../../../../nodes/Peach/actions/registry';
import type { PeachOperation } from '../../../../nodes/Peach/actions/node.type';
import { normalizeContactPhoneNumber } from '../../../../nodes/Peach/helpers/phone';
import { buildRefundBody } from '../../../../nodes/Peach/actions/order/refund.operation';
import { verifySecret } from '../../../../nodes/PeachTrigger/verify';
import { type FakeResponse, locator, type RecordedRequest, runPeach } from '../../support/harness';

/** What the user gave is what happens: order kept, money checked, memory and time bounded. */

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
		expect(
			(output as INodeExecutionData[][])[0].map((item) => [
				item.json.event_id ?? item.json.error,
				item.pairedItem,
			]),
		).toEqual([
			['evt_1', { item: 0 }],
			['Audience ID is empty', { item: 1 }],
			['evt_3', { item: 2 }],
		]);
	});
});

describe('money', () => {
	it.each(['0.00', '00', '-0', ' 0 ', 0, -0, '0', ''])(
		'a refund amount of %j is refused before any request (zero in other words is zero)',
		async (amount) => {
			expect(() =>
				buildRefundBody({ refundType: 'partial', amount, currency: 'INR', speed: 'normal' }),
			).toThrow('Amount (Minor Units)');
			const { requests, output } = await runPeach({
				params: {
					resource: 'order',
					operation: 'refund',
					orderId: 'wa_ord_1',
					refundType: 'partial',
					amount,
				},
				responses: [ok],
			});
			expect(requests).toHaveLength(0);
			expect((output as Error).message).toMatch(/^Amount \(Minor Units\) (.* )?is empty or zero$/);
		},
	);

	it('a positive whole amount goes as it is', () => {
		expect(
			buildRefundBody({
				refundType: 'partial',
				amount: ' 12000 ',
				currency: 'INR',
				speed: 'normal',
			}),
		).toEqual({ speed: 'normal', amount: { currency: 'INR', value: 12000 } });
	});
});

describe('bounds', () => {
	it('header media from many files: each file is read again right before its upload, so only what is being uploaded is held', async () => {
		const files = Array.from({ length: 30 }, (_, index) => Buffer.from(`%PDF invoice ${index}`));
		const md5 = (bytes: Buffer) => createHash('md5').update(bytes).digest('base64');
		const template: FakeResponse = {
			statusCode: 200,
			body: {
				id: 'wat_invoice',
				components: [
					{ index: 0, component_type: 'header', data_type: 'document' },
					{ index: 1, component_type: 'body', value: 'Your invoice' },
				],
			},
		};
		const responses: FakeResponse[] = [template];
		files.forEach((bytes, index) => {
			responses.push(
				{
					statusCode: 200,
					body: {
						signed_id: `signed_${index}`,
						direct_upload: {
							url: `https://storage.test/up_${index}`,
							headers: { 'Content-MD5': md5(bytes) },
						},
					},
				},
				{ statusCode: 200, body: { id: index, media_url: `media://${index}` } },
			);
		});
		responses.push(...files.map(() => ok));
		const { events, output } = await runPeach({
			params: {
				resource: 'templateMessage',
				operation: 'send',
				phoneNumber: '={{ $json.phone }}',
				templateId: locator('wat_invoice'),
				headerMedia: 'binary',
				headerMediaBinaryField: 'data',
				requestOptions: { concurrency: 1 },
			},
			inputs: files.map((_, index) => ({ phone: `+9199887766${10 + index}` })),
			binary: Object.fromEntries(
				files.map((bytes, index) => [
					index,
					{ bytes, mimeType: 'application/pdf', fileName: `invoice-${index}.pdf` },
				]),
			),
			responses,
			templates: 'responses',
			plainResponses: files.map(() => ({ statusCode: 204, body: '' })),
		});
		expect(output).not.toBeInstanceOf(Error);
		// First every file is read to recognise it; then, one upload at a time, each is read again and
		// sent to storage before the next is read: never more than one file held at once.
		const recognised = files.map((_, index) => `read ${index}`);
		const uploaded = files.flatMap((_, index) => [
			`read ${index}`,
			`PUT https://storage.test/up_${index}`,
		]);
		expect(events).toEqual([...recognised, ...uploaded]);
	});

	it("the trigger's kept secret ages by a monotonic clock: a wall clock stepped back does not keep a replaced secret", async () => {
		vi.useFakeTimers({ toFake: ['Date', 'performance'] });
		try {
			let secret = 'old-secret';
			const read = vi.fn(async () => secret);
			expect(await verifySecret('old-secret', 'wf|node|cred-monotonic', read)).toBe(true);
			secret = 'new-secret';
			// 11 s pass, and the wall clock is stepped back an hour (time sync, a restored VM).
			vi.advanceTimersByTime(11_000);
			vi.setSystemTime(Date.now() - 3_600_000);
			expect(await verifySecret('old-secret', 'wf|node|cred-monotonic', read)).toBe(false);
			expect(await verifySecret('new-secret', 'wf|node|cred-monotonic', read)).toBe(true);
		} finally {
			vi.useRealTimers();
		}
	});
});
