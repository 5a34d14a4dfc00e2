import type { ResourceDefinition } from '../operation/node.type';
import { create } from './create.operation';
import * as get from './get.operation';
import { refund } from './refund.operation';

export const order: ResourceDefinition = {
	displayName: 'Order',
	defaultOperation: 'create',
	operations: { create, get, refund },
};
