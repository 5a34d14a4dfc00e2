import type { INodeExecutionData } from 'n8n-workflow';

import type { Delivered } from '../operation/node.type';
import type { Run } from './check';
import { errorItem, errorJson, pairedItemOf } from './items';
import type { RunEntry } from './outcome';
import { unknownErrorOf } from './outcome';
import { earlierJson } from './outcome.earlier';
import { presentDeliveries } from './presentation';

/**
 * Step 6 of a delivering run (delivering.ts): the outputs in input order, each paired to its input
 * items: what was delivered, an earlier try's unknown outcome and every failure as error items; each
 * leads with what a person checks (presentation.ts), what it had stays beneath.
 */
export async function outputsOf(
	run: Run,
	entries: RunEntry[],
	delivered: Delivered[],
): Promise<INodeExecutionData[]> {
	const { context, failures } = run;
	const jsonByEntry = new Map(delivered.map((entry) => [entry.itemIndex, entry.json]));
	const output: Array<{ at: number; item: INodeExecutionData }> = [];
	for (const entry of entries) {
		const { inputs } = entry.delivery;
		if (entry.earlier?.outcome === 'unknown') {
			const error = unknownErrorOf(context, entry);
			const json = { ...errorJson(error), ...earlierJson(entry.earlier, entry.recipient) };
			output.push({ at: inputs[0], item: errorItem(error, inputs, json) });
			continue;
		}
		const json = jsonByEntry.get(inputs[0]);
		if (json) output.push({ at: inputs[0], item: { json, pairedItem: pairedItemOf(inputs) } });
	}
	for (const [at, { inputs, error }] of failures.byItem)
		output.push({ at, item: errorItem(error, inputs) });
	const entryAt = new Map(entries.map((entry) => [entry.delivery.inputs[0], entry]));
	return await presentDeliveries(
		context,
		run.operation,
		output
			.sort((a, b) => a.at - b.at)
			.map(({ at, item }) => ({
				item,
				plan: entryAt.get(at)?.delivery.plan,
				recipient: entryAt.get(at)?.recipient,
				notSent: failures.notSent.has(at),
			})),
	);
}
