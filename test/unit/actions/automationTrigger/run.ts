import { runner } from '../../support/resourceRun';

/** Runs the node with `params` over `responses` (by default a trigger created); the output, or the error it threw. */
export const run = runner({ responses: [{ statusCode: 201, body: { id: 'trig_9' } }] });
