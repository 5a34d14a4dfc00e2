import type { ResourceDefinition } from '../operation/node.type';
import * as assignAgent from './assignAgent.operation';
import * as close from './close.operation';
import * as getMany from './getMany.operation';
import * as getManyActivities from './getManyActivities.operation';
import * as getManyMessages from './getManyMessages.operation';
import * as updateStatus from './updateStatus.operation';

/** Unassign Agent is left out: no source documents an endpoint for it (docs/peach-api.md §14). */
export const conversation: ResourceDefinition = {
	displayName: 'Conversation',
	defaultOperation: 'getMany',
	operations: { assignAgent, close, getMany, getManyActivities, getManyMessages, updateStatus },
};
