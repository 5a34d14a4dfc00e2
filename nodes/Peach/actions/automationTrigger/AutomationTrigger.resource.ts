import type { ResourceDefinition } from '../operation/node.type';
import * as create from './create.operation';
import * as getMany from './getMany.operation';
import * as update from './update.operation';

/** Peach's triggers of an automation (named apart from the Peach Trigger node, which receives webhooks). */
export const automationTrigger: ResourceDefinition = {
	displayName: 'Automation Trigger',
	defaultOperation: 'update',
	operations: { create, getMany, update },
};
