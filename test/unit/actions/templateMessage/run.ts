import { runner } from '../../support/resourceRun';

/** Peach's answer to an accepted template message. */
export const accepted = { statusCode: 200, body: { status: 'success', event_id: 'evt_9' } };

/** Runs the node with `params` over `responses`; the output, or the error it threw. */
export const run = runner({ responses: [accepted] });
