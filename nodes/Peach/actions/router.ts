import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { PeachInputError } from '../helpers/validation';
import * as automation from './automation/Automation.resource';
import * as templateMessage from './templateMessage/TemplateMessage.resource';
import * as trigger from './trigger/Trigger.resource';

export interface PeachOperation {
	description: INodeProperties[];
	/** Runs the operation for one input item and returns what becomes its output item(s). */
	execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject | IDataObject[]>;
}

export const resources: Record<string, Record<string, PeachOperation>> = {
	automation: automation.operations,
	templateMessage: templateMessage.operations,
	trigger: trigger.operations,
};

/** Any failure of one item as the n8n error to show: input problems name the field, value and fix. */
export function toNodeError(
	context: IExecuteFunctions,
	error: unknown,
	itemIndex: number,
): NodeApiError | NodeOperationError {
	if (error instanceof PeachInputError) {
		return new NodeOperationError(context.getNode(), error.message, {
			description: error.fix,
			itemIndex,
		});
	}
	if (error instanceof NodeApiError || error instanceof NodeOperationError) {
		error.context.itemIndex ??= itemIndex;
		return error;
	}
	return new NodeOperationError(context.getNode(), error as Error, { itemIndex });
}

export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const items = this.getInputData();
	const returnData: INodeExecutionData[] = [];

	for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
		const resource = this.getNodeParameter('resource', itemIndex) as string;
		const operation = this.getNodeParameter('operation', itemIndex) as string;
		const handler = resources[resource]?.[operation];
		if (!handler) {
			throw new NodeOperationError(
				this.getNode(),
				`The operation "${operation}" of resource "${resource}" is not supported`,
				{ itemIndex },
			);
		}
		try {
			const result = await handler.execute.call(this, itemIndex);
			returnData.push(
				...this.helpers.constructExecutionMetaData(this.helpers.returnJsonArray(result), {
					itemData: { item: itemIndex },
				}),
			);
		} catch (caught) {
			const error = toNodeError(this, caught, itemIndex);
			if (!this.continueOnFail()) throw error;
			const json: IDataObject = { error: error.message };
			if (error.description) json.description = error.description;
			if (error instanceof NodeApiError && error.httpCode) json.httpCode = error.httpCode;
			returnData.push({ json, pairedItem: { item: itemIndex } });
		}
	}
	return [returnData];
}
