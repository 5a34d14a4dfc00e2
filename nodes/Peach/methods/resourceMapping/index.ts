import { getTemplateVariables } from './templateVariables';

/** The resource mapper methods the node's fields name. */
export const resourceMapping = { getTemplateVariables };
