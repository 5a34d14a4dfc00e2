import type { IExecuteFunctions } from 'n8n-workflow';
import { expect } from 'vitest';

import { Peach } from '../../../nodes/Peach/Peach.node';
import { type ContextOptions, createExecuteContext, type FakeResponse } from './harness';

/**
 * How a resource's tests run the node (each resource's run.ts makes its `run` here): once, in a new
 * context, with `params` (one item, or one per item) over `responses`, the resource's defaults (e.g.
 * its usual answer) and then `extra`. The harness comes back with the output.
 */

/** What a resource's runs share unless a test says otherwise: Peach's answers, its template reads. */
type Defaults = Pick<ContextOptions, 'templates'> & { responses?: FakeResponse[] };

/** Peach's answer when a resource names none: a 200 with an empty object. */
const OK: FakeResponse[] = [{ statusCode: 200, body: {} }];

function runnerWith<Output>(
	{ responses: answers = OK, ...defaults }: Defaults,
	execute: (context: IExecuteFunctions) => Promise<Output>,
) {
	return async (
		params: ContextOptions['params'],
		// A copy per run, as a default written in the call would be: no run sees another's answers.
		responses: ContextOptions['responses'] = structuredClone(answers),
		extra: Partial<ContextOptions> = {},
	) => {
		const harness = createExecuteContext({ params, responses, ...defaults, ...extra });
		const output = await execute(harness.context);
		return { ...harness, output };
	};
}

/** A resource's `run`: the output, or the error the node threw. */
export const runner = (defaults: Defaults = {}) =>
	runnerWith(defaults, (context) =>
		new Peach().execute.call(context).catch((error: unknown) => error),
	);

/** A resource's `run` for tests of runs that succeed: it throws what the node throws. */
export const throwingRunner = (defaults: Defaults = {}) =>
	runnerWith(defaults, (context) => new Peach().execute.call(context));

/**
 * What a delivering operation does when Peach cannot take `params` now: a 429 is waited out and sent
 * again; a 503 (which Peach may have acted on) is never sent again by itself. Peach accepts with `ok`.
 */
export async function expectResentAfter429Only(
	run: ReturnType<typeof runner>,
	params: Record<string, unknown>,
	ok: number,
): Promise<void> {
	const limited = await run(
		params,
		[{ statusCode: 429, headers: { 'retry-after': '0' } }, { statusCode: ok }],
		{ continueOnFail: true },
	);
	expect(limited.requests).toHaveLength(2);
	const failed = await run(params, [{ statusCode: 503 }, { statusCode: ok }], {
		continueOnFail: true,
	});
	expect(failed.requests).toHaveLength(1);
}
