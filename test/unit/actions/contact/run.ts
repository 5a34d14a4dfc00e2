import { runner } from '../../support/resourceRun';

/** Runs the node with `params` (one item, or one per item) over `responses`; the output, or the error it threw. */
export const run = runner();

/** The node's output, as the tests read it. */
export type Items = Array<Array<{ json: Record<string, unknown>; pairedItem: unknown }>>;
