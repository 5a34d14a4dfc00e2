import type { ResourceDefinition } from '../node.type';
import * as send from './send.operation';

export const templateMessage: ResourceDefinition = {
	displayName: 'Template Message',
	defaultOperation: 'send',
	operations: { send },
};
