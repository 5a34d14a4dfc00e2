import { runner, throwingRunner } from '../../support/resourceRun';

/** Runs the node with `params` (one item, or one per item) over `responses`; it throws what the node throws. */
export const run = throwingRunner();

/** The same run, for tests of runs that fail: the output, or the error the node threw. */
export const attempt = runner();
