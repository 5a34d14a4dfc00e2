import { throwingRunner } from '../../support/resourceRun';

/** Runs the node with `params` (one item, or one per item) over `responses`; it throws what the node throws. */
export const run = throwingRunner();
