import { Peach } from '../../../../nodes/Peach/Peach.node';
import { createExecuteContext, type FakeResponse } from '../../support/harness';

/** Runs the node with `params` over `responses`; the output, or the error it threw. */
export async function run(
	params: Record<string, unknown>,
	responses: FakeResponse[],
	extra: Record<string, unknown> = {},
) {
	const harness = createExecuteContext({ params, responses, ...extra });
	const output = await new Peach().execute.call(harness.context).catch((e: unknown) => e);
	return { ...harness, output };
}
