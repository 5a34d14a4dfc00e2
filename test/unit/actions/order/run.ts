import { runner } from '../../support/resourceRun';

/** Runs the node with `params` over `responses` (by default an order created); the output, or the error it threw. */
export const run = runner({ responses: [{ statusCode: 201, body: { id: 'wa_ord_1' } }] });
