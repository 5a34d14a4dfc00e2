import type { IExecuteFunctions } from 'n8n-workflow';

/**
 * The name of the execution a try belongs to, the same for every retry of it. n8n 2.x stores the
 * execution context (`establishedAt`, the `triggerNode`) with the execution when it creates it, so
 * every retry inherits it, also after a crash. It is a millisecond, which two executions can share:
 * record.ts gives each execution of that millisecond its own slot. n8n 1.x makes the context only when
 * the execution runs (without `triggerNode`): there the execution ID names it, which a stalled job run
 * again (1.x's default) keeps.
 *
 * Nothing else of the original execution reaches a node in the Retry of a crashed one: n8n rebuilds
 * the nodes that had finished from its event log, with placeholder outputs (n8n 2.40
 * `ExecutionRecoveryService.amend`, `ARTIFICIAL_TASK_DATA`), so not even the trigger's output.
 */
export function lineageOf(context: IExecuteFunctions): { name: string; shared: boolean } {
	const runtime = context.getExecutionContext?.() as
		| { establishedAt?: unknown; triggerNode?: { name?: unknown } }
		| undefined;
	if (typeof runtime?.establishedAt === 'number' && runtime.triggerNode !== undefined)
		return {
			name: `t${runtime.establishedAt}.${String(runtime.triggerNode.name ?? '')}`,
			shared: true,
		};
	return { name: `e${context.getExecutionId()}`, shared: false };
}
