import { Peach } from '../../../../nodes/Peach/Peach.node';
import { createExecuteContext } from '../../support/harness';

/** Runs the node with `params` (one item, or one per item) over `responses`; it throws what the node throws. */
export async function run(
	params: Record<string, unknown> | Array<Record<string, unknown>>,
	responses: Array<{ statusCode: number; body?: unknown }>,
	extra = {},
) {
	const harness = createExecuteContext({ params, responses, ...extra });
	const output = await new Peach().execute.call(harness.context);
	return { ...harness, output };
}
