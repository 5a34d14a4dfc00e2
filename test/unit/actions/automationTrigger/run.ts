import { Peach } from '../../../../nodes/Peach/Peach.node';
import { createExecuteContext, type FakeResponse } from '../../support/harness';

/** Runs the node with `params` over `responses` (by default a trigger created); the output, or the error it threw. */
export async function run(
	params: Record<string, unknown>,
	responses: FakeResponse[] = [{ statusCode: 201, body: { id: 'trig_9' } }],
	extra = {},
) {
	const harness = createExecuteContext({ params, responses, ...extra });
	const output = await new Peach().execute.call(harness.context).catch((e: unknown) => e);
	return { ...harness, output };
}
