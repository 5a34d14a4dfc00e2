import { Peach } from '../../../../nodes/Peach/Peach.node';
import { createExecuteContext } from '../../support/harness';

/** Peach's answer to an accepted template message. */
export const accepted = { statusCode: 200, body: { status: 'success', event_id: 'evt_9' } };

/** Runs the node with `params` over `responses`; the output, or the error it threw. */
export async function run(params: Record<string, unknown>, responses = [accepted], extra = {}) {
	const harness = createExecuteContext({ params, responses, ...extra });
	const output = await new Peach().execute.call(harness.context).catch((e: unknown) => e);
	return { ...harness, output };
}
