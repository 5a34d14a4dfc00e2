import type { INodeExecutionData } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { locator } from '../../support/harness';
import { expectNothingDone, expectRefusedAsReal, sentAsShown } from '../../support/dryRun';
import { run, trigger } from './run';

/** Dry Run of Automation → Trigger: every check of a real run, nothing triggered, read or recorded. */

const itemsOf = (output: unknown) => (output as INodeExecutionData[][])[0];

describe('Dry Run: Automation → Trigger', () => {
	it('makes no request and touches no record; the output shows the exact request, the automation and the payload', async () => {
		const dry = await run({ ...trigger, dryRun: true });
		expectNothingDone(dry);
		expect(itemsOf(dry.output)[0].json).toEqual({
			to: '+919988776655',
			outcome: 'not sent: Dry Run',
			dryRun: true,
			wouldSend: {
				method: 'POST',
				path: '/api/v1/streams/strm_1/events',
				body: { contact: { phone_number: '+919988776655', name: 'Asha' }, order_id: 'A-7' },
			},
			preview: { to: '+919988776655', automation: 'strm_1', payload: { order_id: 'A-7' } },
		});
	});

	it('a bad item is refused with the same error as a real run, before anything', async () => {
		const bads = [
			{ payloadInput: 'json', payloadJson: '{"contact": 1}' },
			{ payloadInput: 'json', payloadJson: '{not json' },
			{ phoneNumber: '' },
			{ automationId: locator('') },
		];
		await expectRefusedAsReal(run, trigger, bads);
	});

	it('off: the trigger goes as before, exactly the request the Dry Run showed, accepted', async () => {
		expect(
			await sentAsShown(run, trigger, [{ statusCode: 200, body: { event_id: 'evt_3' } }]),
		).toEqual({
			to: '+919988776655',
			outcome: 'accepted',
			peachId: 'evt_3',
			event_id: 'evt_3',
		});
	});
});
