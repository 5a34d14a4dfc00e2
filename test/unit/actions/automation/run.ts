import { locator } from '../../support/harness';
import { runner } from '../../support/resourceRun';

/** Runs the node with `params` over `responses`; the output, or the error it threw. */
export const run = runner();

/** Automation → Trigger of strm_1 for Asha, with one payload field. */
export const trigger = {
	resource: 'automation',
	operation: 'trigger',
	automationId: locator('strm_1'),
	phoneNumber: '+919988776655',
	contactFields: { name: 'Asha' },
	payloadInput: 'fields',
	payload: { values: [{ key: 'order_id', value: 'A-7' }] },
};
