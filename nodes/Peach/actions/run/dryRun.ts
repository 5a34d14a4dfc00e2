import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import type { Delivering, Delivery } from '../operation/node.type';
import type { NodeError } from './items';
import { errorItem, pairedItemOf, toNodeError } from './items';
import { dryRunView } from './presentation';

/** The node's notice above a Dry Run's output (n8n's output pane): said once, not in every item. */
export const DRY_RUN_NOTE =
	'Dry Run: nothing was sent, uploaded or recorded. Turn off Dry Run to send.';

/**
 * Dry Run of a delivering operation, after every item was read and checked as for a real run:
 * each delivery's person's view first (to or order, message, outcome: presentation.ts), then
 * `dryRun: true`, `wouldSend` and `preview` (the operation's `preview`, which only reads), paired to
 * its input items; the items that failed their checks as error items (only with Continue
 * On Fail: without it the run has already stopped, naming them). No record is opened, no file is
 * uploaded, nothing is sent.
 */
export async function dryRunOutputs(
	context: IExecuteFunctions,
	operation: Delivering,
	preview: NonNullable<Delivering['preview']>,
	deliveries: Array<Delivery<unknown>>,
	failures: Map<number, { inputs: number[]; error: NodeError }>,
	continueOnFail: boolean,
): Promise<INodeExecutionData[]> {
	context.addExecutionHints?.({ message: DRY_RUN_NOTE, location: 'outputPane' });
	const output: Array<{ at: number; item: INodeExecutionData }> = [];
	for (const { inputs, plan } of deliveries) {
		try {
			const json = await preview.call(context, plan, inputs[0]);
			output.push({
				at: inputs[0],
				item: {
					json: dryRunView(
						{ dryRun: true, ...json },
						operation.recipientOf?.(plan),
						operation.recipientField,
					),
					pairedItem: pairedItemOf(inputs),
				},
			});
		} catch (caught) {
			const error = toNodeError(context, caught, inputs[0], operation.properties);
			if (!continueOnFail) throw error;
			output.push({ at: inputs[0], item: errorItem(error, inputs) });
		}
	}
	for (const [at, { inputs, error }] of failures)
		output.push({ at, item: errorItem(error, inputs) });
	return output.sort((a, b) => a.at - b.at).map(({ item }) => item);
}
