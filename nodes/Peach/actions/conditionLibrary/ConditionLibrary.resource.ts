import type { ResourceDefinition } from '../operation/node.type';
import * as getMany from './getMany.operation';

export const conditionLibrary: ResourceDefinition = {
	displayName: 'Condition Library',
	defaultOperation: 'getMany',
	operations: { getMany },
};
