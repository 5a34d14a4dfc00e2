import type { IExecuteFunctions } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { PeachInputError } from '../../../helpers/inputError';

/**
 * One Send and Wait item's setup being read: its parameters, and every problem it has, gathered to be
 * reported at once.
 */

type Refusal = PeachInputError | NodeOperationError | NodeApiError;

/** The refusals of one item's setup, gathered instead of thrown one at a time. */
export class Problems {
	readonly list: Refusal[] = [];

	constructor(private readonly context: IExecuteFunctions) {}

	/** Runs `check`; what it refuses is noted, not thrown. */
	async note<T>(check: () => T | Promise<T>): Promise<T | undefined> {
		try {
			return await check();
		} catch (error) {
			this.list.push(
				error instanceof PeachInputError ||
					error instanceof NodeOperationError ||
					error instanceof NodeApiError
					? error
					: new NodeOperationError(this.context.getNode(), error as Error),
			);
			return undefined;
		}
	}

	/** All of them as one refusal (one alone as it is). */
	refusal(context: IExecuteFunctions, itemIndex: number): Error | undefined {
		const [first, ...others] = this.list;
		if (!first) return undefined;
		if (others.length === 0) return first;
		const line = (error: Refusal, index: number) =>
			`${index + 1}) ${error.message}${
				error instanceof PeachInputError
					? `: ${error.fix}`
					: error.description
						? `: ${error.description}`
						: ''
			}`;
		return new NodeOperationError(
			context.getNode(),
			`${first.message} (and ${others.length} more to fix)`,
			{
				description: `Send and Wait checks its whole setup before it asks; fix these ${this.list.length}, then run again. ${this.list.map(line).join(' ')}`,
				itemIndex,
			},
		);
	}
}

/** One item's setup being read: its context and parameters, and the problems noted so far. */
export interface Reading {
	context: IExecuteFunctions;
	itemIndex: number;
	read: (name: string, fallback: unknown) => unknown;
	problems: Problems;
}
