import type { ResourceDefinition } from '../operation/node.type';
import * as create from './create.operation';
import * as get from './get.operation';
import * as refund from './refund.operation';

export const order: ResourceDefinition = {
	displayName: 'Order',
	defaultOperation: 'create',
	operations: { create, get, refund },
};
