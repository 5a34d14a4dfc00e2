import type { ResourceDefinition } from '../operation/node.type';
import * as archive from './archive.operation';
import * as cancel from './cancel.operation';
import * as get from './get.operation';
import * as getMany from './getMany.operation';
import * as getStatus from './getStatus.operation';
import { launch } from './launch.operation';

export const broadcast: ResourceDefinition = {
	displayName: 'Broadcast',
	defaultOperation: 'launch',
	operations: { archive, cancel, get, getMany, getStatus, launch },
};
