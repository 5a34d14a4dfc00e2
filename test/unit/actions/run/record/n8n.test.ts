import type { IExecuteFunctions, IRunExecutionData } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { lineageOf, savedStateOf } from '../../../../../nodes/Peach/actions/run/record/n8n';

/** An execution's data as n8n 2.40 saves it, in the parts the record reads. */
const savedData = (parts: Record<string, unknown>) => parts as unknown as IRunExecutionData;

describe('what the record relies on from n8n (n8n.ts)', () => {
	it('fact 3: n8n 2.x names an execution by its context (kept by every retry), n8n 1.x by its ID', () => {
		// Its own two-method context: the test pins what n8n itself gives, not the harness's model of it.
		const context = (runtime: object | undefined, id = '42') =>
			({
				getExecutionContext: () => runtime,
				getExecutionId: () => id,
			}) as unknown as IExecuteFunctions;
		expect(
			lineageOf(
				context({ version: 1, establishedAt: 1_700_000_000_000, triggerNode: { name: 'Webhook' } }),
			),
		).toEqual({ name: 't1700000000000.Webhook', establishedAt: 1_700_000_000_000 });
		// n8n 1.x: the context is made when the execution runs, without its trigger.
		expect(lineageOf(context({ version: 1, establishedAt: 1_700_000_000_000 }))).toEqual({
			name: 'e42',
		});
		expect(lineageOf(context(undefined, '7'))).toEqual({ name: 'e7' });
	});

	it("fact 6: what n8n's saved data says of the node's run", () => {
		const created = savedData({
			resultData: { runData: {} },
			executionData: { nodeExecutionStack: [{}] },
		});
		expect(savedStateOf(created, 'Peach', 0)).toBe('running');
		// A Retry of a crashed execution: the crashed run's placeholder is there, this run is the next.
		const retried = savedData({
			resultData: { runData: { Peach: [{}] } },
			executionData: { nodeExecutionStack: [{}] },
		});
		expect(savedStateOf(retried, 'Peach', 1)).toBe('running');
		const succeeded = savedData({
			resultData: { runData: { Peach: [{}] } },
			executionData: { nodeExecutionStack: [] },
		});
		expect(savedStateOf(succeeded, 'Peach', 0)).toBe('succeeded');
		const failed = savedData({
			resultData: { runData: { Peach: [{}] }, error: { message: 'x' } },
			executionData: { nodeExecutionStack: [] },
		});
		expect(savedStateOf(failed, 'Peach', 0)).toBe('saved');
		const waiting = savedData({
			resultData: { runData: { Peach: [{}] } },
			executionData: { nodeExecutionStack: [{}] },
			waitTill: new Date(),
		});
		expect(savedStateOf(waiting, 'Peach', 0)).toBe('saved');
		expect(savedStateOf(undefined, 'Peach', 0)).toBe('gone');
	});
});
