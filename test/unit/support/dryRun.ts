import { NodeOperationError } from 'n8n-workflow';
import { expect } from 'vitest';

/** What a resource's `run` (support/resourceRun.ts) gives back, as far as a refusal needs. */
interface Ran {
	requests: unknown[];
	hints: unknown[];
	output: unknown;
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
