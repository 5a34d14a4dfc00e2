import type { IDataObject, INodeExecutionData } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import {
	outcomeOf,
	peachIdOf,
	sightOf,
	withPersonView,
} from '../../../../nodes/Peach/actions/run/presentation';
import { runOverInputs } from '../../support/harness';
import { sendWelcomeByName as sendEach, welcome } from '../../support/templates';
import { newExecution } from '../../support/n8nRecovery';
import { accepted, phones, refused, runTry, sends } from '../../support/recoveryRuns';

/**
 * Every output of an operation that delivers leads with what a person checks (issue 44, point 1):
 * to whom, the message as the phone shows it, what happened, Peach's ID; the exact request (Dry
 * Run) and Peach's answer stay beneath, every field an expression may use kept.
 */

const PERSON = ['to', 'message', 'outcome', 'peachId'];

const people = [
	{ phone: '+919988776655', name: 'Ravi' },
	{ phone: '+919988776656', name: 'Asha' },
];
const queued = { statusCode: 200, body: { status: 'success', event_id: 'evt_1' } };

describe('the person’s view leads every delivering output', () => {
	it('a real send: to whom, the message as the phone shows it, queued, Peach’s event_id; Peach’s answer beneath', async () => {
		// Peach's answer as it came.
		const { items } = await runOverInputs(sendEach, [people[0]], queued, {
			templates: { wat_welcome: welcome },
		});
		expect(items[0].json).toEqual({
			to: '+919988776655',
			message: 'Hi Ravi, welcome!',
			outcome: 'queued',
			peachId: 'evt_1',
			status: 'success',
			event_id: 'evt_1',
		});
		expect(Object.keys(items[0].json).slice(0, 4)).toEqual(PERSON);
	});

	it('a Dry Run: the same view, "not sent: Dry Run", then dryRun, the exact request and the preview', async () => {
		// The sentence is the notice, said once.
		const { items, hints } = await runOverInputs({ ...sendEach, dryRun: true }, people, queued, {
			templates: { wat_welcome: welcome },
		});
		expect(items.map((item) => Object.keys(item.json))).toEqual([
			['to', 'message', 'outcome', 'dryRun', 'wouldSend', 'preview'],
			['to', 'message', 'outcome', 'dryRun', 'wouldSend', 'preview'],
		]);
		expect(items.map((item) => [item.json.to, item.json.message, item.json.outcome])).toEqual([
			['+919988776655', 'Hi Ravi, welcome!', 'not sent: Dry Run'],
			['+919988776656', 'Hi Asha, welcome!', 'not sent: Dry Run'],
		]);
		expect(items[0].json.dryRun).toBe(true);
		expect(hints.map((hint) => hint.message)).toEqual([
			'Dry Run: nothing was sent, uploaded or recorded. Turn off Dry Run to send.',
		]);
		// A template without buttons has no buttons list (n8n shows an empty one as a problem).
		expect(items[0].json.preview).not.toHaveProperty('buttons');
	});

	it('a Retry On Fail: what an earlier try sent says "already sent", with Peach’s ID kept from its answer', async () => {
		// alreadySent stays in the output.
		const execution = newExecution();
		const params = sends(2);
		await runTry(execution, params, [accepted('evt_1'), refused]);
		const second = await runTry(execution, params, [accepted('evt_2')]);
		const [items] = second.output as INodeExecutionData[][];
		expect(items.map((item) => [item.json.to, item.json.outcome, item.json.peachId])).toEqual([
			[phones(2)[0], 'already sent', 'evt_1'],
			[phones(2)[1], 'queued', 'evt_2'],
		]);
		expect(items[0].json.alreadySent).toMatchObject({ recipient: phones(2)[0] });
		expect(items[0].json.event_id).toBe('evt_1');
	});

	it('with Continue On Fail: a refused item says "not sent", one that may have reached Peach "outcome unknown"', async () => {
		// The error stays beneath.
		const { items } = await runOverInputs(
			{ ...sendEach, phoneNumber: '={{ $json.phone }}' },
			[{ phone: 'bad', name: 'X' }, people[0], people[1]],
			queued,
			{
				templates: { wat_welcome: welcome },
				continueOnFail: true,
				responses: [queued, { statusCode: 503, body: {} }],
			},
		);
		expect(items.map((item) => [item.json.outcome, item.json.to])).toEqual([
			['not sent', undefined],
			['queued', '+919988776655'],
			['outcome unknown', '+919988776656'],
		]);
		expect(items[0].json.error).toBe('Phone Number "bad" has no + and country code');
		expect(items[2].json.message).toBe('Hi Asha, welcome!');
	});

	it('an operation that moves money or triggers (no message): whom, "accepted", Peach’s ID', async () => {
		const { items } = await runOverInputs(
			{
				resource: 'order',
				operation: 'refund',
				orderId: 'wa_ord_1',
				refundType: 'full',
			},
			[{}],
			{ statusCode: 201, body: { id: 'rf_1', status: 'pending' } },
		);
		expect(items[0].json).toEqual({
			order: 'wa_ord_1',
			outcome: 'accepted',
			peachId: 'rf_1',
			wholeOrder: true,
			id: 'rf_1',
			status: 'pending',
		});
	});
});

describe('the view, field by field (pure)', () => {
	it('a broadcast to many: the first contact and how many more, with the first one’s message', () => {
		expect(
			sightOf({
				preview: {
					contacts: [
						{ to: '+911', text: 'Hi A' },
						{ to: '+912', text: 'Hi B' },
					],
				},
			}),
		).toEqual({ to: '+911 and 1 more', message: 'Hi A' });
	});

	it('"already sent" shows Peach’s ID and status from Peach’s list, and Wait for Delivery’s status once known', () => {
		// Peach's ID and status when the record found them in Peach's list (alreadySent.peach).
		const earlier: IDataObject = {
			alreadySent: {
				at: null,
				recipient: '+911',
				peach: { id: 'tm_7', status: 'delivered' },
			},
		};
		expect(peachIdOf(earlier)).toBe('tm_7');
		expect(outcomeOf(earlier, 'queued')).toBe('already sent (delivered)');
		expect(outcomeOf({ alreadySent: { at: null } }, 'queued')).toBe('already sent');
		expect(outcomeOf({ event_id: 'evt_1', deliveryStatus: 'read' }, 'queued')).toBe('read');
		expect(outcomeOf({ event_id: 'evt_1', deliveryStatus: null }, 'queued')).toBe('queued');
	});

	it('adds, never renames or drops: every field stays, and a key Peach answers too stays Peach’s', () => {
		const json = { event_id: 'evt_1', wouldSend: {}, preview: {}, outcomeUnknown: {}, to: 'Peach' };
		const shown = withPersonView({ to: '+911', message: 'Hi', outcome: 'queued' }, json);
		expect(shown).toMatchObject(json);
		expect(Object.keys(shown)).toEqual([
			'to',
			'message',
			'outcome',
			'event_id',
			'wouldSend',
			'preview',
			'outcomeUnknown',
		]);
	});
});
