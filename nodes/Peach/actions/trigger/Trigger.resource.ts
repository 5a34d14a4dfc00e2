import type { ResourceDefinition } from '../node.type';
import * as update from './update.operation';

export const trigger: ResourceDefinition = {
	displayName: 'Trigger',
	defaultOperation: 'update',
	operations: { update },
};
