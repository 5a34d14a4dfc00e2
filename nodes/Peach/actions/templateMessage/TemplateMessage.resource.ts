import type { ResourceDefinition } from '../operation/node.type';
import * as connectToAiAgent from './connectToAiAgent.operation';
import * as getManyStatuses from './getManyStatuses.operation';
import * as getStatus from './getStatus.operation';
import * as send from './send.operation';
import * as sendAndWait from './sendAndWait/sendAndWait.operation';
import * as sendAppMessage from './sendAppMessage.operation';

export const templateMessage: ResourceDefinition = {
	displayName: 'Template Message',
	defaultOperation: 'send',
	operations: { connectToAiAgent, getManyStatuses, getStatus, send, sendAndWait, sendAppMessage },
};
