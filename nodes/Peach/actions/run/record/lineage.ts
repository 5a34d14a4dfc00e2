import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { digest } from './chain';

/** The most of the trigger's output that goes into an execution's name (its first megabyte). */
const TRIGGER_TEXT_LIMIT = 1_000_000;

interface DataProxy {
	$?: (nodeName: string) => {
		all?: (branchIndex?: number, runIndex?: number) => INodeExecutionData[];
	};
}

/**
 * What the trigger started this execution with, as text: a retry runs from the same trigger output
 * (n8n stores it with the execution), while another execution, even in the same millisecond, was
 * started with its own delivery (a webhook's headers and body, a schedule's time).
 */
function triggerTextOf(context: IExecuteFunctions, triggerName: string): string {
	try {
		const proxy = context.getWorkflowDataProxy(0) as unknown as DataProxy;
		const items = proxy.$?.(triggerName).all?.(0, 0) ?? [];
		return (JSON.stringify(items.map((item) => item.json)) ?? '').slice(0, TRIGGER_TEXT_LIMIT);
	} catch {
		// Without a data proxy (a node run as a tool by some n8n versions), the time and trigger name.
		return '';
	}
}

/**
 * The name of the execution a try belongs to: the same for every retry of it, never another
 * execution's. n8n 2.x stores the execution context (`establishedAt`, the `triggerNode`) with the
 * execution when it creates it, so every retry inherits it, also after a crash; two executions can
 * share a millisecond, so the trigger's output goes into the name too. n8n 1.x makes the context only
 * when the execution runs (without `triggerNode`): there the execution ID names it, which a stalled
 * job run again (1.x's default) keeps.
 */
export function lineageOf(context: IExecuteFunctions): string {
	const runtime = context.getExecutionContext?.() as
		| { establishedAt?: unknown; triggerNode?: { name?: unknown } }
		| undefined;
	if (typeof runtime?.establishedAt === 'number' && runtime.triggerNode !== undefined) {
		const triggerName = String(runtime.triggerNode.name ?? '');
		return `t${runtime.establishedAt}.${digest(triggerName, triggerTextOf(context, triggerName))}`;
	}
	return `e${context.getExecutionId()}`;
}
