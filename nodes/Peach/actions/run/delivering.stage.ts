import type { Run } from './check';
import type { RunEntry } from './outcome';
import { nothingSentError } from './outcome';

/**
 * Step 3 of a delivering run (delivering.ts): what the deliveries this run makes need first (header
 * files uploaded); its failures, without Continue On Fail, send nothing (unless an earlier try
 * already sent some).
 */
export async function stage(run: Run, entries: RunEntry[]): Promise<RunEntry[]> {
	const { context, operation, failures } = run;
	let toMake = entries.filter((entry) => !entry.earlier);
	if (operation.stage && toMake.length) {
		const byFirstInput = new Map(toMake.map((entry) => [entry.delivery.inputs[0], entry]));
		const staged = await operation.stage.call(
			context,
			toMake.map((entry) => entry.delivery),
		);
		for (const { itemIndex, error } of staged.problems)
			failures.add([itemIndex], run.asError(error, itemIndex));
		toMake = staged.deliveries.map((delivery) => {
			const entry = byFirstInput.get(delivery.inputs[0]) as RunEntry;
			entry.delivery = delivery;
			return entry;
		});
	}
	if (failures.size && !run.continueOnFail && !entries.some((entry) => entry.earlier))
		throw nothingSentError(failures.errors());
	return toMake;
}
