import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import type {
	PeachOperation,
	ResourceDefinition,
} from '../../../nodes/Peach/actions/operation/node.type';
import { registry } from '../../../nodes/Peach/actions/registry';
import { router as runRouter } from '../../../nodes/Peach/actions/router';
import { createExecuteContext, node } from '../support/harness';

/**
 * The router over a registry of one resource whose one operation is the one under test: `router.call`
 * puts that resource into the node's registry (the object the router reads) for the run, and takes
 * it out again after, so no test file mocks the registry.
 */

export const option = { name: 'X', value: 'x', action: 'Do a thing', description: 'Does a thing' };

export const registryWith = (operation: PeachOperation): Record<string, ResourceDefinition> => ({
	thing: { displayName: 'Thing', defaultOperation: 'x', operations: { x: operation } },
});

/** The node's registry, as the router reads it. */
const nodeRegistry: Record<string, ResourceDefinition> = registry;

/** Runs the router over the items of `context` with `resources` added to the node's registry. */
export const router = {
	call: async (context: IExecuteFunctions, resources: Record<string, ResourceDefinition>) => {
		Object.assign(nodeRegistry, resources);
		try {
			return await runRouter.call(context, context.continueOnFail());
		} finally {
			for (const name of Object.keys(resources)) delete nodeRegistry[name];
		}
	},
};

/** The node's properties for that registry, so the harness resolves parameters as n8n would. */
const properties: INodeProperties[] = [
	{
		displayName: 'Resource',
		name: 'resource',
		type: 'options',
		options: [{ name: 'Thing', value: 'thing' }],
		default: 'thing',
	},
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		options: [option],
		default: 'x',
	},
	{
		displayName: 'Request Options',
		name: 'requestOptions',
		type: 'collection',
		default: {},
		options: [
			{ displayName: 'Max Concurrent Requests', name: 'concurrency', type: 'number', default: 5 },
		],
	},
];

export function context(
	items: number,
	continueOnFail = false,
	requestOptions: Record<string, unknown> = {},
) {
	return createExecuteContext({
		params: { resource: 'thing', operation: 'x', requestOptions },
		items,
		continueOnFail,
		properties,
	}).context as IExecuteFunctions;
}

export const failure = (itemIndex: number, status = '503') =>
	new NodeApiError(
		node,
		{ message: 'down' },
		{
			message: `Peach had a server error (${status})`,
			description: "This is on Peach's side.",
			httpCode: status,
			itemIndex,
		},
	);
