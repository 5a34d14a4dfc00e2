import type { IDataObject } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { Witness } from '../../../../../nodes/Peach/actions/run/record/witness';
import { createExecuteContext } from '../../../support/harness';
import { welcome } from '../../../support/templates';

/** Peach answering the list of template messages with these records, in one page. */
async function witnessOf(records: IDataObject[], since = 0) {
	const harness = createExecuteContext({
		params: {},
		templates: { wat_welcome: { ...welcome, template_name: 'welcome' } },
		responses: [
			{
				statusCode: 200,
				body: { count: records.length, next: null, prev: null, template_messages: records },
			},
		],
	});
	const witness = await Witness.read(harness.context, since, new Set());
	return { witness, harness };
}

describe("Peach's list as the witness (witness.ts)", () => {
	it('reads the list since the execution began, at its largest page', async () => {
		const { harness } = await witnessOf([], Date.parse('2026-11-27T10:00:00Z'));
		expect(
			harness.requests.map((request) => [request.options.method, request.url, request.options.qs]),
		).toEqual([
			[
				'GET',
				'https://peach.test/api/v1/template_messages',
				{ updated_since: '2026-11-27T10:00:00.000Z', page: 1, per: 1000 },
			],
		]);
	});

	it('a list that names contact and template (under any of the names seen): each message is taken once, oldest listed first', async () => {
		const { witness } = await witnessOf([
			{
				id: 'cmsg_1',
				status: 'sent',
				phone_number: '+919988776655',
				whats_app_template_id: 'wat_welcome',
			},
			{
				id: 'cmsg_2',
				status: 'delivered',
				contact: { phone_number: '919988776655' },
				whats_app_template: { id: 'wat_welcome' },
			},
			{ id: 'cmsg_3', status: 'queued', to: '+919988776655', template_id: 'wat_other' },
		]);
		expect(witness.canTell).toBe(true);
		const delivery = { recipient: '+91 99887 76655', templateId: 'wat_welcome' };
		expect((await witness.untaken(delivery)).map((message) => message.id)).toEqual([
			'cmsg_1',
			'cmsg_2',
		]);
		expect(await witness.take(delivery)).toEqual({ id: 'cmsg_1', status: 'sent' });
		expect(await witness.take(delivery)).toEqual({ id: 'cmsg_2', status: 'delivered' });
		expect(await witness.take(delivery)).toBeUndefined();
	});

	it("a message named by its template's name matches the template read by ID", async () => {
		const { witness } = await witnessOf([
			{ id: 'cmsg_9', status: 'sent', phone_number: '+919988776655', template_name: 'welcome' },
		]);
		expect(await witness.take({ recipient: '+919988776655', templateId: 'wat_welcome' })).toEqual({
			id: 'cmsg_9',
			status: 'sent',
		});
	});

	it('a list with only what the documentation shows (id, status) cannot tell: nothing is taken', async () => {
		const { witness } = await witnessOf([{ id: 'cmsg_1', status: 'sent' }]);
		expect(witness.canTell).toBe(false);
		expect(
			await witness.take({ recipient: '+919988776655', templateId: 'wat_welcome' }),
		).toBeUndefined();
	});

	it('a message made before the execution began (where the list says when) is not counted', async () => {
		const since = Date.parse('2026-11-27T10:00:00Z');
		const { witness } = await witnessOf(
			[
				{
					id: 'cmsg_old',
					status: 'delivered',
					phone_number: '+919988776655',
					whats_app_template_id: 'wat_welcome',
					created_at: '2026-11-27T09:00:00Z',
				},
				{
					id: 'cmsg_new',
					status: 'sent',
					phone_number: '+919988776655',
					whats_app_template_id: 'wat_welcome',
					created_at: '2026-11-27T10:05:00Z',
				},
			],
			since,
		);
		expect(await witness.take({ recipient: '+919988776655', templateId: 'wat_welcome' })).toEqual({
			id: 'cmsg_new',
			status: 'sent',
		});
		expect(
			await witness.take({ recipient: '+919988776655', templateId: 'wat_welcome' }),
		).toBeUndefined();
	});
});
