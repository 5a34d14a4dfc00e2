import type { ResourceDefinition } from '../operation/node.type';
import * as createGuestLink from './createGuestLink.operation';
import * as createMany from './createMany.operation';
import * as upsert from './createOrUpdate.operation';
import * as expireGuestLink from './expireGuestLink.operation';
import * as get from './get.operation';
import * as regenerateGuestLink from './regenerateGuestLink.operation';
import * as update from './update.operation';
import * as updateCommunicationPreferences from './updateCommunicationPreferences.operation';

export const contact: ResourceDefinition = {
	displayName: 'Contact',
	defaultOperation: 'upsert',
	operations: {
		createGuestLink,
		createMany,
		expireGuestLink,
		get,
		regenerateGuestLink,
		update,
		updateCommunicationPreferences,
		upsert,
	},
};
