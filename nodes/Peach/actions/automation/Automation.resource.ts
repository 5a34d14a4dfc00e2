import type { ResourceDefinition } from '../node.type';
import * as create from './create.operation';

export const automation: ResourceDefinition = {
	displayName: 'Automation',
	defaultOperation: 'create',
	operations: { create },
};
