import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type {
	BatchOperation,
	Delivering,
	PeachOperation,
	ResourceDefinition,
} from './operation/node.type';
import { registry } from './registry';
import { runBatch } from './run/batch';
import { runDelivering } from './run/delivering';
import { runPerItem } from './run/perItem';

function isDelivering(operation: PeachOperation): operation is Delivering {
	return 'delivers' in operation && operation.delivers === true;
}

function isBatch(operation: PeachOperation): operation is BatchOperation {
	return 'batch' in operation && operation.batch === true;
}

/**
 * The value n8n adds to resource and operation as "Custom API Call" for a node whose credential
 * authenticates requests (n8n's CUSTOM_API_CALL_KEY; n8n-workflow does not export it).
 */
const CUSTOM_API_CALL = '__CUSTOM_API_CALL__';

/**
 * Runs the chosen operation over the input items, the way its kind runs (run/): per item, as one
 * batch, or delivering (checked first, recorded, never repeated). Resource and operation cannot come
 * from an expression (noDataExpression), so they are read once. `continueOnFail`: the node's setting,
 * read by the node's execute().
 */
export async function router(
	this: IExecuteFunctions,
	continueOnFail: boolean,
): Promise<INodeExecutionData[][]> {
	const resources: Record<string, ResourceDefinition> = registry;
	const itemCount = this.getInputData().length;
	const resource = this.getNodeParameter('resource', 0) as string;
	const operationName = this.getNodeParameter('operation', 0, '') as string;
	const has = (object: object, key: string) => Object.prototype.hasOwnProperty.call(object, key);
	const operation =
		has(resources, resource) && has(resources[resource].operations, operationName)
			? resources[resource].operations[operationName]
			: undefined;
	if (!operation) {
		if (resource === CUSTOM_API_CALL || operationName === CUSTOM_API_CALL) {
			throw new NodeOperationError(this.getNode(), 'Custom API Call runs in an HTTP Request node', {
				description:
					'Add an HTTP Request node, set Authentication → Predefined Credential Type → Peach API, choose this credential and give the full URL, e.g. https://app.trypeach.io/api/v1/conversations. The key is added as the Peach node adds it (docs/operations.md, A custom API call).',
			});
		}
		throw new NodeOperationError(
			this.getNode(),
			`The operation "${operationName}" of resource "${resource}" is not supported`,
		);
	}
	if (isDelivering(operation))
		return [
			await runDelivering(
				this,
				operation,
				itemCount,
				`${resource}.${operationName}`,
				continueOnFail,
			),
		];
	if (isBatch(operation)) return [await runBatch(this, operation, itemCount, continueOnFail)];
	return [await runPerItem(this, operation, itemCount, continueOnFail)];
}
