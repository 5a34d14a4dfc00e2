import type { NodeError } from './items';

/**
 * Problems with what items share (their template: pending, paused, not found) are the same problem
 * for each of them: a person reads it once, not once per item.
 */
const sharedProblems = new WeakSet<Error>();

/** Marks `error` as a problem of what the items share (their template), not of one item. */
export function sharedByItems<E extends Error>(error: E): E {
	sharedProblems.add(error);
	return error;
}

/** One problem and the input items it is for, in input order. */
export interface Problem {
	items: number[];
	error: NodeError;
}

/**
 * The problems as a person reads them, in input order: a shared one (marked, or one error object
 * thrown for several items) once, with every item it is for; each item's own problem on its own.
 */
export function distinctProblems(problems: Map<number, NodeError>): Problem[] {
	const distinct: Problem[] = [];
	const shared = new Map<string, Problem>();
	for (const [itemIndex, error] of [...problems].sort(([a], [b]) => a - b)) {
		const again = distinct.find((problem) => problem.error === error);
		if (again) {
			again.items.push(itemIndex);
			continue;
		}
		const seen = sharedProblems.has(error) ? shared.get(error.message) : undefined;
		if (seen) {
			seen.items.push(itemIndex);
			continue;
		}
		const problem = { items: [itemIndex], error };
		if (sharedProblems.has(error)) shared.set(error.message, problem);
		distinct.push(problem);
	}
	return distinct;
}
