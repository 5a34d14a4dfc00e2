import type { ResourceDefinition } from '../operation/node.type';
import * as create from './create.operation';
import * as get from './get.operation';
import * as getMany from './getMany.operation';
import { trigger } from './trigger.operation';
import * as update from './update.operation';

export const automation: ResourceDefinition = {
	displayName: 'Automation',
	defaultOperation: 'create',
	operations: { create, get, getMany, trigger, update },
};
