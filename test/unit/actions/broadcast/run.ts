import { throwingRunner } from '../../support/resourceRun';

/** Runs the node with `params` over `responses`; it throws what the node throws. */
export const run = throwingRunner();

/** A broadcast as Peach describes it. */
export const broadcast = { id: 'cmp_1', name: 'Spring', status: 'sent' };
