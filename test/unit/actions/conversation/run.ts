import { runner } from '../../support/resourceRun';

/** Runs the node with `params` over `responses`; the output, or the error it threw. */
export const run = runner();
