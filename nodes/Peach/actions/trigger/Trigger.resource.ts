import type { ResourceDefinition } from '../node.type';
import * as create from './create.operation';
import * as getMany from './getMany.operation';
import * as update from './update.operation';

export const trigger: ResourceDefinition = {
	displayName: 'Trigger',
	defaultOperation: 'update',
	operations: { create, getMany, update },
};
