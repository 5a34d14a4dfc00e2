import { Peach } from '../../../../nodes/Peach/Peach.node';
import { createExecuteContext, type FakeResponse } from '../../support/harness';

/** Runs the node with `params` over `responses`; it throws what the node throws. */
export async function run(params: Record<string, unknown>, responses: FakeResponse[], extra = {}) {
	const harness = createExecuteContext({ params, responses, ...extra });
	const output = await new Peach().execute.call(harness.context);
	return { ...harness, output };
}

/** A broadcast as Peach describes it. */
export const broadcast = { id: 'cmp_1', name: 'Spring', status: 'sent' };
