import type { IDataObject } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { DRY_RUN_NOTE } from '../../../../nodes/Peach/actions/run/dryRun';
import { expectNothingDone, expectSentAsShown } from '../../support/dryRun';
import { locator, runOverInputs } from '../../support/harness';
import {
	approvalWith,
	approvedTemplate,
	body,
	footer,
	header,
	urlButton,
	WELCOME_BODY,
	welcomeWith,
} from '../../support/templates';

/**
 * Dry Run (the node's own switch): every check of a real run, the template read, and nothing sent,
 * uploaded or recorded; each output says what would be sent (`wouldSend`) and what the contact's
 * phone would show (`preview`), and a real run with the same parameters sends exactly `wouldSend`.
 */

const NOTE = 'Dry Run: nothing was sent, uploaded or recorded. Turn off Dry Run to send.';

const templates: Record<string, IDataObject> = {
	wat_welcome: welcomeWith(
		header('Order {{order_id}}'),
		body(WELCOME_BODY),
		footer('Peach Shop'),
		urlButton('https://shop.test/track/{{tracking_code}}', 'Track'),
	),
	wat_code: approvedTemplate(
		'wat_code',
		'login_code',
		body('Your code is {{1}}, valid for {{2}} minutes.'),
	),
	wat_invoice: approvedTemplate(
		'wat_invoice',
		'invoice_ready',
		header('', 'document'),
		body("Invoice {{invoice_number | example: 'INV-1'}} is attached."),
	),
	wat_approval: approvalWith(
		'Approval needed: {{message}} Please answer here: {{approval_link}} Thank you.',
	),
};

const people: IDataObject[] = [
	{ phone: '+919900000001', name: 'Asha', order: 'A-1', code: 't1' },
	{ phone: '+919900000002', name: 'Ravi', order: 'A-2', code: 't2' },
];
const accepted = { statusCode: 200, body: { status: 'success', event_id: 'evt_1' } };

const run = async (params: Record<string, unknown>, inputs = people, extra = {}) =>
	await runOverInputs(params, inputs, accepted, { templates, ...extra });

const dry = { dryRun: true };
const send = {
	resource: 'templateMessage',
	operation: 'send',
	phoneNumber: '={{ $json.phone }}',
	templateId: locator('wat_welcome'),
	variablesInput: 'fields',
	variables: {
		values: [
			{ key: 'first_name', value: '={{ $json.name }}' },
			{ key: 'order_id', value: '={{ $json.order }}' },
			{ key: 'tracking_code', value: '={{ $json.code }}' },
		],
	},
};

describe('Dry Run: checked, read, shown; nothing sent, uploaded or recorded', () => {
	it('Send: each item shows the exact request and the message as the phone shows it; a real run sends that', async () => {
		// The message: header, body, footer, URL button with its suffix; the real run sends exactly that request.
		const dryRun = await run({ ...send, ...dry });
		expect(dryRun.error).toBeUndefined();
		expectNothingDone(dryRun);
		expect(DRY_RUN_NOTE).toBe(NOTE);
		expect(dryRun.templateReads).toEqual(['wat_welcome']);
		expect(dryRun.items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
		const [first, second] = dryRun.items.map((item) => item.json);
		// The person's view first (whom, the message, not sent), said once in the notice, not per row.
		expect(Object.keys(first).slice(0, 4)).toEqual(['to', 'message', 'outcome', 'dryRun']);
		expect(first.to).toBe('+919900000001');
		expect(first.message).toBe(
			'Order A-1\nHi Asha, welcome!\nPeach Shop\n[Track → https://shop.test/track/t1]',
		);
		expect(first.outcome).toBe('not sent: Dry Run');
		expect(first.dryRun).toBe(true);
		expect(first.preview).toEqual({
			to: '+919900000001',
			template: 'welcome',
			header: { text: 'Order A-1' },
			body: 'Hi Asha, welcome!',
			footer: 'Peach Shop',
			buttons: [{ type: 'url', text: 'Track', url: 'https://shop.test/track/t1' }],
			text: 'Order A-1\nHi Asha, welcome!\nPeach Shop\n[Track → https://shop.test/track/t1]',
		});
		expect((second.preview as IDataObject).text).toBe(
			'Order A-2\nHi Ravi, welcome!\nPeach Shop\n[Track → https://shop.test/track/t2]',
		);
		expectSentAsShown(dryRun.items, (await run(send)).requests);
	});

	it('numbered variables ({{1}}, {{2}}) are filled like named ones', async () => {
		const { items, requests } = await run({
			...send,
			...dry,
			templateId: locator('wat_code'),
			variables: {
				values: [
					{ key: '1', value: '4711' },
					{ key: '2', value: '10' },
				],
			},
		});
		expect(requests).toEqual([]);
		expect((items[0].json.preview as IDataObject).text).toBe(
			'Your code is 4711, valid for 10 minutes.',
		);
	});

	it('the checks still run: an empty variable in item 2 stops it, naming the item, as a real run would', async () => {
		const { error, requests } = await run({ ...send, ...dry }, [
			people[0],
			{ ...people[1], name: '' },
		]);
		expect(requests).toEqual([]);
		expect(error?.message).toBe('Variable first_name is empty for +919900000002 (item 1)');
	});

	it("Send with Header Media From a Binary Field: nothing uploaded; the phone shows the file's name", async () => {
		// The request holds the file by its place.
		const { items, requests, plainRequests } = await run(
			{
				...send,
				...dry,
				templateId: locator('wat_invoice'),
				headerMedia: 'binary',
				variables: { values: [{ key: 'invoice_number', value: 'INV-7' }] },
			},
			[people[0]],
			{
				binary: {
					0: {
						bytes: Buffer.from('%PDF-1.4 x'),
						mimeType: 'application/pdf',
						fileName: 'invoice-7.pdf',
					},
				},
			},
		);
		expect(requests).toEqual([]);
		expect(plainRequests).toEqual([]);
		const { wouldSend, preview } = items[0].json as {
			wouldSend: { body: { template_message: { liquid_values: IDataObject } } };
			preview: IDataObject;
		};
		expect(wouldSend.body.template_message.liquid_values).toEqual({
			invoice_number: 'INV-7',
			header_media: { link: '(the upload of invoice-7.pdf)', filename: 'invoice-7.pdf' },
		});
		expect(preview.header).toEqual({ media: 'document', file: 'invoice-7.pdf' });
		expect(preview.text).toBe('[document: invoice-7.pdf]\nInvoice INV-7 is attached.');
	});

	it('Connect to AI Agent: its own event, the template shown', async () => {
		const { items, requests } = await run({
			...send,
			...dry,
			operation: 'connectToAiAgent',
			aiAgentId: 'aiflw_1',
		});
		expect(requests).toEqual([]);
		const wouldSend = items[0].json.wouldSend as { body: IDataObject };
		expect(wouldSend.body.event_type).toBe('connect_to_ai_agent');
		expect(wouldSend.body.ai_agent).toEqual({ id: 'aiflw_1' });
		expect((items[0].json.preview as IDataObject).body).toBe('Hi Asha, welcome!');
	});

	it('Send and Wait: the answer link in the exact request, shown as [answer link]; the workflow does not wait', async () => {
		// [answer link] is what stands where a person reads the message.
		const { items, requests, putExecutionToWait } = await run(
			{
				resource: 'templateMessage',
				operation: 'sendAndWait',
				phoneNumber: '={{ $json.phone }}',
				templateId: locator('wat_approval'),
				message: 'Refund order A-1?',
				messageVariable: 'message',
				...dry,
			},
			[people[0]],
		);
		expect(requests).toEqual([]);
		expect(putExecutionToWait).not.toHaveBeenCalled();
		const { wouldSend, preview } = items[0].json as {
			wouldSend: { body: { template_message: { liquid_values: IDataObject } } };
			preview: IDataObject;
		};
		const link = String(wouldSend.body.template_message.liquid_values.approval_link);
		expect(link).toMatch(/^https?:\/\//);
		expect(preview.body).toBe(
			'Approval needed: Refund order A-1? Please answer here: [answer link] Thank you.',
		);
		expect(items[0].json.message).toBe(preview.text);
		expect(JSON.stringify(items[0].json.preview)).not.toContain(link);
	});

	it('Send App Message: the app, and the Fallback Template as the phone would show it', async () => {
		const { items, requests } = await run(
			{ ...send, ...dry, operation: 'sendAppMessage', appId: 'flw_1', useFallbackTemplate: true },
			[people[0]],
		);
		expect(requests).toEqual([]);
		const preview = items[0].json.preview as IDataObject;
		expect(preview.app).toBe('flw_1');
		expect((preview.fallback as IDataObject).body).toBe('Hi Asha, welcome!');
		expect((items[0].json.wouldSend as IDataObject).path).toBe('/api/v1/events');
	});

	it('Broadcast → Launch from input items: one request for all, each contact shown with its own values; nothing launched', async () => {
		const { items, requests, lineage } = await run({
			resource: 'broadcast',
			operation: 'launch',
			name: 'Welcome',
			templateId: locator('wat_welcome'),
			recipients: 'items',
			contactPhoneNumber: '={{ $json.phone }}',
			deliveryMode: 'instant',
			variablesInput: 'fields',
			variables: { values: [{ key: 'tracking_code', value: 'all' }] },
			contactVariables: {
				values: [
					{ key: 'first_name', value: '={{ $json.name }}' },
					{ key: 'order_id', value: '={{ $json.order }}' },
				],
			},
			...dry,
		});
		expect(requests).toEqual([]);
		expect(lineage.store.calls).toBe(0);
		expect(items).toHaveLength(1);
		expect(items[0].pairedItem).toEqual([{ item: 0 }, { item: 1 }]);
		const wouldSend = items[0].json.wouldSend as { body: { broadcast: { contacts: unknown[] } } };
		expect(wouldSend.body.broadcast.contacts).toHaveLength(2);
		const contacts = (items[0].json.preview as { contacts: IDataObject[] }).contacts;
		expect(contacts.map((contact) => [contact.to, contact.body])).toEqual([
			['+919900000001', 'Hi Asha, welcome!'],
			['+919900000002', 'Hi Ravi, welcome!'],
		]);
	});
});
