import { ExecuteContext } from 'n8n-core';
import type { IDataObject, INode, IWorkflowExecuteAdditionalData } from 'n8n-workflow';
import { createRunExecutionData, Workflow } from 'n8n-workflow';

import { Peach } from '../../../nodes/Peach/Peach.node';

/**
 * n8n-core's own context of a Peach node (its ExecuteContext over a Workflow holding only that node),
 * for tests that need n8n's real machinery rather than the harness: its request helpers (wire.mts),
 * its expression engines (actions/item/itemExpressions.test.ts).
 */

const peach = new Peach();
const nodeTypes = {
	getByNameAndVersion: () => peach,
	getByName: () => peach,
	getKnownTypes: () => ({}),
};

/** A workflow with only `node`, whose type is the Peach node. */
export function peachWorkflow(node: INode, id = 'wf-peach'): Workflow {
	return new Workflow({
		id,
		nodes: [node],
		connections: {},
		active: false,
		nodeTypes: nodeTypes as never,
	});
}

/** n8n-core's context of `node` in `workflow` for a manual run over `items` (a copy of them). */
export function n8nExecuteContext(
	workflow: Workflow,
	node: INode,
	items: IDataObject[],
	additionalData: Partial<IWorkflowExecuteAdditionalData>,
): ExecuteContext {
	const data = structuredClone(items).map((json) => ({ json }));
	const input = { main: [data] };
	return new ExecuteContext(
		workflow,
		node,
		additionalData as IWorkflowExecuteAdditionalData,
		'manual',
		createRunExecutionData(),
		0,
		data,
		input,
		{ node, data: input, source: null },
		[],
	);
}
