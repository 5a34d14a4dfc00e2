import type { IDataObject, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import { expect } from 'vitest';

import { DRY_RUN_NOTE } from '../../../nodes/Peach/actions/run/dryRun';
import { type FakeResponse, type RecordedRequest, TEST_BASE_URL } from './harness';
import type { Lineage } from './n8nRecovery';

/**
 * What the Dry Run tests of every resource check alike: a Dry Run did nothing but say so, a real run
 * sends what it showed, a bad item is refused by both the same way.
 */

/** What a run (resourceRun.ts's `run`, or harness.ts's runOverInputs) gives back, as far as these checks need. */
interface Ran {
	requests: unknown[];
	hints: unknown[];
	output?: unknown;
}

/**
 * The Dry Run made no request and touched no record (n8n's deduplication store, the node context);
 * it said so once, in the notice.
 */
export function expectNothingDone(dry: Ran & { lineage: Lineage }): void {
	expect(dry.requests).toEqual([]);
	expect(dry.lineage.store.calls).toBe(0);
	expect(dry.lineage.nodeContext.peachDeliveries).toBeUndefined();
	expect((dry.hints as Array<{ message: string }>).map((hint) => hint.message)).toEqual([
		DRY_RUN_NOTE,
	]);
}

/** The real run's requests are exactly the ones the Dry Run's items showed (`wouldSend`), in order. */
export function expectSentAsShown(
	dryItems: INodeExecutionData[],
	requests: RecordedRequest[],
): void {
	expect(requests.map(({ options, url, body }) => ({ method: options.method, url, body }))).toEqual(
		dryItems.map((item) => {
			const wouldSend = item.json.wouldSend as { method: string; path: string; body: unknown };
			return {
				method: wouldSend.method,
				url: `${TEST_BASE_URL}${wouldSend.path}`,
				body: wouldSend.body,
			};
		}),
	);
}

/**
 * With Dry Run off, `params` send exactly what the Dry Run of them showed (Peach answering
 * `responses`, or the run's default answer): the real run's first output item.
 */
export async function sentAsShown(
	run: (
		params: Record<string, unknown>,
		responses?: FakeResponse[],
	) => Promise<Ran & { requests: RecordedRequest[] }>,
	params: Record<string, unknown>,
	responses?: FakeResponse[],
): Promise<IDataObject> {
	const dry = await run({ ...params, dryRun: true });
	const real = await run(params, responses);
	expectSentAsShown((dry.output as INodeExecutionData[][])[0], real.requests);
	return (real.output as INodeExecutionData[][])[0][0].json;
}

/**
 * Each of `bads` (changes to `base`) is refused by a Dry Run with the same error as by a real run,
 * before any request, and the Dry Run adds no notice; with `sameDescription`, the error's
 * description too.
 */
export async function expectRefusedAsReal(
	run: (params: Record<string, unknown>) => Promise<Ran>,
	base: Record<string, unknown>,
	bads: Array<Record<string, unknown>>,
	{ sameDescription = false } = {},
): Promise<void> {
	for (const bad of bads) {
		const real = await run({ ...base, ...bad });
		const dry = await run({ ...base, ...bad, dryRun: true });
		expect(real.requests).toEqual([]);
		expect(dry.requests).toEqual([]);
		expect(dry.hints).toEqual([]);
		expect(dry.output).toBeInstanceOf(NodeOperationError);
		expect((dry.output as Error).message).toBe((real.output as Error).message);
		if (sameDescription)
			expect((dry.output as { description?: string }).description).toBe(
				(real.output as { description?: string }).description,
			);
	}
}
