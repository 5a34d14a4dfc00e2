import type { ResourceDefinition } from '../operation/node.type';
import * as archive from './archive.operation';
import * as create from './create.operation';
import * as deleteTemplate from './delete.operation';
import * as get from './get.operation';
import * as getMany from './getMany.operation';
import * as pause from './pause.operation';
import * as submit from './submit.operation';
import * as update from './update.operation';

export const whatsAppTemplate: ResourceDefinition = {
	displayName: 'WhatsApp Template',
	defaultOperation: 'getMany',
	operations: { archive, create, delete: deleteTemplate, get, getMany, pause, submit, update },
};
