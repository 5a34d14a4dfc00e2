import type { ResourceDefinition } from '../operation/node.type';
import { connectToAiAgent } from './connectToAiAgent.operation';
import * as getManyStatuses from './getManyStatuses.operation';
import * as getStatus from './getStatus.operation';
import { send } from './send.operation';
import { sendAndWait } from './sendAndWait/sendAndWait.operation';
import { sendAppMessage } from './sendAppMessage.operation';

export const templateMessage: ResourceDefinition = {
	displayName: 'Template Message',
	defaultOperation: 'send',
	operations: { connectToAiAgent, getManyStatuses, getStatus, send, sendAndWait, sendAppMessage },
};
