import type {
	IBinaryKeyData,
	IDataObject,
	IExecuteFunctions,
	INodeProperties,
	INodePropertyOptions,
} from 'n8n-workflow';

/** What the operation dropdown shows for an operation: its name, `action` and description. */
export interface OperationOption extends INodePropertyOptions {
	value: string;
	/** Sentence case, what an AI agent reads to pick the tool's operation. */
	action: string;
	description: string;
}

/** An output item carrying binary data (e.g. a downloaded media file). */
export interface BinaryItem {
	json: IDataObject;
	binary?: IBinaryKeyData;
}

/** Output items with binary data, told apart from a plain API answer by its class. */
export class ItemsWithBinary {
	constructor(readonly items: BinaryItem[]) {}
}

/** What one input item produces: Peach's answer (an object, or a list for one item per record), or items with binary data. */
export type ItemResult = IDataObject | IDataObject[] | ItemsWithBinary;

/** An operation run once per input item (most operations). */
export interface ItemOperation {
	option: OperationOption;
	description: INodeProperties[];
	execute(this: IExecuteFunctions, itemIndex: number): Promise<ItemResult>;
}

/**
 * One output of an operation that turns many input items into one request (create many contacts,
 * one broadcast from all items): the output and every input item it came from, or the error of
 * those input items.
 */
export type BatchOutput =
	| { json: IDataObject; binary?: IBinaryKeyData; inputs: number[] }
	| { error: Error; inputs: number[] };

/** An operation that reads all input items at once and answers with paired outputs. */
export interface BatchOperation {
	option: OperationOption;
	description: INodeProperties[];
	batch: true;
	executeBatch(this: IExecuteFunctions, itemIndexes: number[]): Promise<BatchOutput[]>;
}

export type PeachOperation = ItemOperation | BatchOperation;

/** A resource: its name in the Resource dropdown and its operations (the keys are the values). */
export interface ResourceDefinition {
	displayName: string;
	/** The operation selected when the resource is picked. */
	defaultOperation: string;
	operations: Record<string, PeachOperation>;
}

export function isBatchOperation(operation: PeachOperation): operation is BatchOperation {
	return 'batch' in operation && operation.batch;
}
