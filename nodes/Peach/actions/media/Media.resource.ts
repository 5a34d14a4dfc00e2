import type { ResourceDefinition } from '../operation/node.type';
import * as deleteMedia from './delete.operation';
import * as getMany from './getMany.operation';
import * as upload from './upload.operation';

/** The deprecated base64 upload (POST /medias) is left out: the direct upload replaces it (README). */
export const media: ResourceDefinition = {
	displayName: 'Media',
	defaultOperation: 'upload',
	operations: { delete: deleteMedia, getMany, upload },
};
