import type {
	IDataObject,
	IExecuteFunctions,
	INodeProperties,
	INodePropertyOptions,
} from 'n8n-workflow';

import type { DeliveryPermit } from '../transport/permit';

export type { DeliveryPermit } from '../transport/permit';

/** What the operation dropdown shows for an operation: its name, `action` and description. */
export interface OperationOption extends INodePropertyOptions {
	value: string;
	/** Sentence case, what an AI agent reads to pick the tool's operation. */
	action: string;
	description: string;
}

/** What one input item produces: Peach's answer (an object, or a list for one item per record). */
export type ItemResult = IDataObject | IDataObject[];

/** An operation run once per input item that delivers nothing (reads, changes of records). */
export interface ItemOperation {
	option: OperationOption;
	/** Its fields; the registry shows them for this resource and operation only. */
	properties: INodeProperties[];
	execute(this: IExecuteFunctions, itemIndex: number): Promise<ItemResult>;
}

/** One item a delivering operation delivered: its output (which `follow` may add to) and its plan. */
export interface Delivered<Prepared = unknown> {
	itemIndex: number;
	json: IDataObject;
	prepared?: Prepared;
}

/**
 * An operation whose request delivers a message or moves money, once per input item. The router
 * first prepares every item (reads and checks all parameters: nothing is delivered), and only when
 * all are right delivers them, with its permit. Whatever happens after a delivery succeeded (a later
 * item failing, `follow`) never hides that item's output.
 */
export interface DeliveringOperation<Prepared = unknown> {
	option: OperationOption;
	/** Its fields; the registry shows them for this resource and operation only. */
	properties: INodeProperties[];
	delivers: true;
	/** Reads and checks one item: everything its delivery needs. Makes no delivering request. */
	prepare(this: IExecuteFunctions, itemIndex: number): Promise<Prepared>;
	/**
	 * After every item was prepared, before the first delivery: what the deliveries need to exist
	 * first (e.g. header files uploaded). Answers the items that cannot be delivered, with their
	 * errors; those are not delivered.
	 */
	stage?(
		this: IExecuteFunctions,
		prepared: Array<{ itemIndex: number; prepared: Prepared }>,
	): Promise<Map<number, Error>>;
	/** The item's delivering request; its output (Peach's answer, with `event_id`). */
	deliver(
		this: IExecuteFunctions,
		prepared: Prepared,
		itemIndex: number,
		permit: DeliveryPermit,
	): Promise<IDataObject>;
	/** Who receives it: items for the same recipient are delivered one after another, in input order. */
	recipientOf?(prepared: Prepared): string | undefined;
	/**
	 * After the deliveries (e.g. waiting for delivery statuses): adds to the outputs of the delivered
	 * items. Never throws: what goes wrong is written into those outputs.
	 */
	follow?(this: IExecuteFunctions, delivered: Array<Delivered<Prepared>>): Promise<void>;
}

/**
 * One output of an operation that turns many input items into one request (create many contacts,
 * one broadcast from all items): the output and every input item it came from, or the error of
 * those input items.
 */
export type BatchOutput =
	| { json: IDataObject; inputs: number[] }
	| { error: Error; inputs: number[] };

/** A batch operation that delivers nothing: reads all input items at once, answers with paired outputs. */
export interface BatchOperation {
	option: OperationOption;
	/** Its fields; the registry shows them for this resource and operation only. */
	properties: INodeProperties[];
	batch: true;
	executeBatch(this: IExecuteFunctions, itemIndexes: number[]): Promise<BatchOutput[]>;
}

/** What a delivering batch operation prepared: its plan, and the input items that cannot be sent. */
export interface PreparedBatch<Plan> {
	plan: Plan;
	problems: Array<{ itemIndex: number; error: Error }>;
}

/**
 * A batch operation that delivers (a broadcast): all items are prepared first; the router delivers
 * only when none has a problem (or, under Continue On Fail, the good ones). `deliverBatch` stops at
 * its first failed request unless Continue On Fail is on.
 */
export interface DeliveringBatchOperation<Plan = unknown> {
	option: OperationOption;
	/** Its fields; the registry shows them for this resource and operation only. */
	properties: INodeProperties[];
	batch: true;
	delivers: true;
	prepareBatch(this: IExecuteFunctions, itemIndexes: number[]): Promise<PreparedBatch<Plan>>;
	deliverBatch(this: IExecuteFunctions, plan: Plan, permit: DeliveryPermit): Promise<BatchOutput[]>;
}

export type PeachOperation =
	| ItemOperation
	| DeliveringOperation
	| BatchOperation
	| DeliveringBatchOperation;

/** A resource: its name in the Resource dropdown and its operations (the keys are the values). */
export interface ResourceDefinition {
	displayName: string;
	/** The operation selected when the resource is picked. */
	defaultOperation: string;
	operations: Record<string, PeachOperation>;
}
