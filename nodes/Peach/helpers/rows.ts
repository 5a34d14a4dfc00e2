import type { IDataObject } from 'n8n-workflow';

import { PeachInputError } from './inputError';

/** One input item's row of a request built from many items: its value, or the problem with it. */
export type RowResult<T> =
	| { itemIndex: number; value: T }
	| { itemIndex: number; error: PeachInputError };

/** Checks every row with `build`; a row that cannot be sent becomes its problem, never a throw. */
export function checkRows<T>(
	itemIndexes: number[],
	build: (itemIndex: number) => T,
): RowResult<T>[] {
	return itemIndexes.map((itemIndex) => {
		try {
			return { itemIndex, value: build(itemIndex) };
		} catch (error) {
			return {
				itemIndex,
				error:
					error instanceof PeachInputError
						? error
						: new PeachInputError(`Item ${itemIndex}`, '', String(error), 'Check this item.'),
			};
		}
	});
}

/** All bad rows in one error, each with its item number, value and fix: nothing is sent until all are right. */
export function badRowsError(
	what: string,
	problems: PeachInputError[],
	verb = 'sent',
): PeachInputError {
	const lines = problems.slice(0, 20).map((error) => `${error.message}: ${error.fix}`);
	const more = problems.length > 20 ? ` (and ${problems.length - 20} more)` : '';
	return new PeachInputError(
		what,
		`${problems.length} bad row${problems.length === 1 ? '' : 's'}`,
		`cannot be ${verb}; nothing was sent${more}`,
		lines.join(' | '),
	);
}

export function chunks<T>(items: T[], size: number): T[][] {
	const result: T[][] = [];
	for (let start = 0; start < items.length; start += size)
		result.push(items.slice(start, start + size));
	return result;
}

/** Outputs of one chunk: one per contact when Peach answers a list of the same length, else one for the chunk. */
export function chunkOutputs(
	response: unknown,
	inputs: number[],
): Array<{ json: IDataObject; inputs: number[] }> {
	if (Array.isArray(response) && response.length === inputs.length) {
		return response.map((entry, index) => ({
			json:
				typeof entry === 'object' && entry !== null && !Array.isArray(entry)
					? (entry as IDataObject)
					: { response: entry as string },
			inputs: [inputs[index]],
		}));
	}
	const json =
		typeof response === 'object' && response !== null && !Array.isArray(response)
			? (response as IDataObject)
			: { response: response as IDataObject[] };
	return [{ json: { ...json, contactCount: inputs.length }, inputs }];
}
