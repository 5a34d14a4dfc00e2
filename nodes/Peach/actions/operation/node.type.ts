/**
 * The operation contract: what each kind of operation gives the run of its kind (actions/run/): per
 * item (ItemOperation), delivering (Delivering: its hooks, each with the step that calls it), batch
 * (BatchOperation). The router (actions/router.ts) picks the run by the kind.
 *
 * Reading a parameter. `this.getNodeParameter` is the default: n8n resolves the parameter for the
 * item, each time. Where one read repeats for every item of a large run (Send, Connect to AI Agent
 * and Send App Message to thousands of contacts, a broadcast's contact rows, Header Media, a
 * per-item operation's record), read through actions/item/itemParameters.ts instead:
 * `parameterOfItem` resolves a parameter without an expression once per execution and asks an
 * item's mapped fields of n8n together (itemExpressions.ts), because n8n's reading cost about as
 * much as the node's own work on an item (npm run bench:profile); the item readers built on it
 * (variablesOfItem, locatorValueOf, replyAutomationOfItem, recordIn) add their rules (only the
 * chosen mode's fields are read; what the user wrote, for a message). What parameterOfItem returns
 * is shared by every item: read it, never change it. A raw read (`rawExpressions`: what the user
 * typed, for an error message) and a context without items (a webhook, a list search) use
 * getNodeParameter.
 */
import type {
	IDataObject,
	IExecuteFunctions,
	INodeProperties,
	INodePropertyOptions,
} from 'n8n-workflow';

import type { DeliveryPermit } from '../../transport/permit';

export type { DeliveryPermit } from '../../transport/permit';

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
	/**
	 * For an operation that changes a record: which one (its ID, a contact's number), so that the
	 * items changing one record run one after another, in input order. Reads have none.
	 */
	recordOf?(this: IExecuteFunctions, itemIndex: number): string | undefined;
}

/**
 * A delivering operation: one that delivers a message or moves money (Template Message → Send, Send
 * and Wait, Connect to AI Agent, Send App Message; Broadcast → Launch; Order → Create, Refund;
 * Automation → Trigger). Each is ONE object, the export of its operation file, typed as one of the
 * two below; the router hands it whole to the delivering run (run/delivering.ts), which calls its
 * hooks step by step (each hook's comment names its step):
 *
 *   step 1   checkEveryItem (run/check.ts)       prepare or prepareBatch; recipientOf
 *   Dry Run  dryRunOutputs (run/dryRun.ts)       preview, recipientOf, recipientField: the run ends
 *   step 2   openRecord                          recipientOf, sameDelivery, witnessOf, peachWitness
 *   step 3   stage                               stage
 *   step 4   deliverAll, deliverOne              deliver
 *   step 5   follow                              follow
 *   step 6   outputsOf → run/presentation.ts     sight, recipientField, doneOutcome
 *
 * Only prepare (or prepareBatch) and deliver are required. Every item is prepared (read and checked:
 * nothing is delivered) before the first delivery; only when all are right are they delivered, with
 * the run's permit, skipping what an earlier try of the node delivered. Whatever happens after a
 * delivery succeeded (a later item failing, `follow`) never hides that item's output.
 */
export type Delivering<Plan = unknown> = DeliveringOperation<Plan> | DeliveringBatchOperation<Plan>;

/** A delivering operation that prepares each input item on its own (most of them). */
export interface DeliveringOperation<Plan = unknown> extends DeliveringHooks<Plan> {
	/**
	 * Step 1 (`checkEveryItem`, run/check.ts): reads and checks one item, everything its delivery
	 * needs. Makes no delivering request; what it throws is that item's problem.
	 */
	prepare(this: IExecuteFunctions, itemIndex: number): Promise<Plan>;
}

/**
 * A delivering operation that prepares every input item at once: one delivery from several items
 * (one broadcast for all of them), or it decides itself how items become deliveries.
 */
export interface DeliveringBatchOperation<Plan = unknown> extends DeliveringHooks<Plan> {
	batch: true;
	/**
	 * Step 1 (`checkEveryItem`, run/check.ts): reads and checks every item; its deliveries and the
	 * items that cannot be delivered. Makes no delivering request; what it throws is a problem of
	 * every item.
	 */
	prepareBatch(this: IExecuteFunctions, itemIndexes: number[]): Promise<PreparedDeliveries<Plan>>;
}

/**
 * What the contact's phone shows of one delivery, as the person's view of its output says it
 * (run/presentation.ts renders it: `to`, then `message`).
 */
export interface Sight {
	/** To whom, when not the recipient the run knows (`recipientOf`): a broadcast's first contact. */
	to?: string;
	/** How many contacts besides `to` get it (a broadcast from input items). */
	more?: number;
	/** The message, every part as the phone shows it, as one text. */
	message?: string;
	/** What the contact gets instead when the message cannot be shown (Send App Message's template). */
	fallback?: string;
}

/** What every delivering operation has, whichever way it prepares: its hooks, by the run's step. */
interface DeliveringHooks<Plan> {
	/** Its entry in the Operation dropdown (registry.ts). */
	option: OperationOption;
	/** Its fields; the registry shows them for this resource and operation only. */
	properties: INodeProperties[];
	/** What makes the router run it as delivering (router.ts → run/delivering.ts). */
	delivers: true;
	/**
	 * Steps 1 and 2 (`checkEveryItem`, `openRecord`): who receives the delivery. Deliveries for the
	 * same recipient are made one after another, in input order (step 4), and two of them may not
	 * share a Delivery Key (step 1); the person's view names it (Dry Run, step 6).
	 */
	recipientOf?(plan: Plan): string | undefined;
	/**
	 * Step 1, Dry Run only (`dryRunOutputs`, run/dryRun.ts; the node's switch shows where an
	 * operation has it): what the delivery would send, `wouldSend` (method, path, body), and
	 * `preview`, what the contact's phone would show (for an order, a refund, an automation's run:
	 * what Peach would be asked, in a person's words). Reads (the template) only.
	 */
	preview?(this: IExecuteFunctions, plan: Plan, itemIndex: number): Promise<IDataObject>;
	/**
	 * Step 2 (`openRecord`): what the delivery sends, as the record names it between tries (by
	 * default the plan itself): without what differs from try to try (an input item's position, an
	 * upload's URL, Send and Wait's answer link).
	 */
	sameDelivery?(plan: Plan): unknown;
	/**
	 * Step 2 (`openRecord`): how Peach's list of template messages shows the delivery, its contact
	 * and its template, asked in a later try about what the record cannot tell.
	 */
	witnessOf?(plan: Plan): { recipient: string; templateId: string } | undefined;
	/**
	 * Step 2 (`openRecord`, run/record/peachWitness.ts): where Peach shows the delivery other than
	 * its list of template messages (an order's refunds, an order made with the user's ID, a
	 * broadcast), asked in a later try about what the record cannot tell. Without one, the record
	 * alone decides.
	 */
	peachWitness?: PeachWitness<Plan>;
	/**
	 * Step 2 (`openRecord`): the delivery moves money or launches (a refund, an order, a broadcast, an
	 * automation's run), so it is never made on the absence of evidence. In a Retry, one the record
	 * shows nothing of in a run it shows other entries of (another n8n process's older copy of the
	 * record may have cut it; n8n 1.x, whose crash Retry cannot find the record) is made only where
	 * `peachWitness` clearly shows none; where Peach cannot tell, or the operation has no witness, it
	 * is `outcomeUnknown`.
	 */
	madeOnEvidence?: true;
	/**
	 * Step 3 (`stage`), before the first delivery, for the deliveries still to make (not those an
	 * earlier try made): what they need to exist first (e.g. header files uploaded). Answers the
	 * deliveries to make and the input items that cannot be delivered, with their errors.
	 */
	stage?(
		this: IExecuteFunctions,
		deliveries: Array<Delivery<Plan>>,
	): Promise<PreparedDeliveries<Plan>>;
	/**
	 * Step 4 (`deliverOne`): the delivering request, made once, after its claim in the record, with
	 * the run's permit; its output (Peach's answer, with `event_id`). What it throws decides the
	 * record: not sent (transport/outcome.ts, `wasNotSent`) or outcome unknown.
	 */
	deliver(
		this: IExecuteFunctions,
		plan: Plan,
		itemIndex: number,
		permit: DeliveryPermit,
	): Promise<IDataObject>;
	/**
	 * Step 5 (`follow`), after the deliveries (e.g. waiting for delivery statuses): adds to the
	 * outputs of what was delivered, by this run or an earlier try (`earlier`). Never throws: what
	 * goes wrong is written into those outputs.
	 */
	follow?(this: IExecuteFunctions, delivered: Array<Delivered<Plan>>): Promise<void>;
	/**
	 * Step 6 (`outputsOf`, run/presentation.ts), after a real run, for every output whose item was
	 * prepared: what the contact's phone shows (the template is read once per execution), for the
	 * person's view. Reads only; what it cannot render is left out of the view. Without one, the
	 * view names the recipient alone (an order, a refund, an automation's run).
	 */
	sight?(this: IExecuteFunctions, plan: Plan, itemIndex: number): Promise<Sight>;
	/**
	 * Step 6 (`outputsOf`, run/presentation.ts) and Dry Run: the output field that names the
	 * recipient, first in the person's view: `to` (a contact, an audience) by default; `order` for an
	 * operation on an order.
	 */
	recipientField?: 'to' | 'order';
	/**
	 * Step 6 (`outputsOf`, run/presentation.ts): what a delivery Peach took is called in the person's
	 * view: by default `queued` for an operation that shows a message (`sight`: WhatsApp delivers it
	 * later), else `accepted`. What Peach does at once (an order, a refund, an automation's run)
	 * says `accepted` itself.
	 */
	doneOutcome?: 'queued' | 'accepted';
}

/** One delivering request to make: what it sends (its plan) and the input items it answers for. */
export interface Delivery<Plan = unknown> {
	/** The input items it answers for: one for a send; every contact of a broadcast made from all items. */
	inputs: number[];
	plan: Plan;
	/**
	 * Where a delivery without a recipient goes (with what it sends, it names the delivery between
	 * tries): a delivery made from all items (one broadcast) names itself.
	 */
	key?: string;
}

/** Deliveries ready to make, and the input items that cannot be delivered (with why). */
export interface PreparedDeliveries<Plan> {
	deliveries: Array<Delivery<Plan>>;
	problems: Array<{ itemIndex: number; error: Error }>;
}

/**
 * What an earlier try of this node did with a delivery (n8n's Retry On Fail, the editor's Retry, the
 * Retry of a crashed execution): it was sent, or its outcome is unknown (the request may have reached
 * Peach).
 */
export interface EarlierOutcome {
	outcome: 'sent' | 'unknown';
	/** When, as an ISO date; null when only n8n's crash-proof record knows of it. */
	at: string | null;
	/** Peach's answer then (kept by the node's own record, not after a crash). */
	json?: IDataObject;
	/** Why the outcome is unknown. */
	reason?: string;
	/** What Peach lists of it (its list of template messages): Peach's own ID and status. */
	peach?: { id: string; status: string | null };
	/** Known only because Peach lists such a message (n8n's record did not show it). */
	byPeachOnly?: boolean;
	/** Sent by an earlier try as the item was then: the item has changed since. */
	changed?: boolean;
	/** Peach's list could not be read for it: not sent again even when asked to resend unknowns. */
	peachUnread?: boolean;
	/** Known from what an operation's own witness shows (an order, its refunds, a broadcast): why. */
	peachNote?: string;
}

/** One delivery that was made (or made by an earlier try): its output, which `follow` may add to. */
export interface Delivered<Prepared = unknown> {
	/** Its first input item. */
	itemIndex: number;
	json: IDataObject;
	prepared?: Prepared;
	/** Set when an earlier try of the node made it: this run did not send it again. */
	earlier?: EarlierOutcome;
}

/**
 * What Peach shows of one delivery, as a delivering operation's own witness reads it (an order's
 * refunds, an order made with the user's ID, a broadcast; run/record/peachWitness.ts asks it):
 * `shown` (it was made: the output holds what Peach shows), `absent` (Peach clearly shows none: it
 * may be made), `cannotTell` (never made again by itself; `unread`: Peach could not be read).
 */
export type PeachSays =
	| { shown: IDataObject; note: string }
	| { absent: true }
	| { cannotTell: string; unread?: true };

/** Where Peach shows a delivery: the record to read (an order's ID, the broadcast list), or why it shows nothing. */
export type SourceOf = { source: string } | { cannotTell: string };

/**
 * One delivering operation's witness: where Peach shows its deliveries, reading that once, and
 * whether what it shows is a given delivery. `Seen` is one thing Peach shows there (a refund, an
 * order, a broadcast), as the witness reads it.
 */
export interface PeachWitness<Plan = unknown, Seen = unknown> {
	sourceOf(plan: Plan): SourceOf;
	/**
	 * What Peach shows at `source` of what was made since `since` (ms): what it shows, or why it cannot
	 * tell. An error is a failed read (`cannotTell`, `unread`).
	 */
	read(
		this: IExecuteFunctions,
		source: string,
		since: number,
	): Promise<Seen[] | { cannotTell: string }>;
	/** Whether `seen` is this delivery: true, false, or why Peach cannot tell (e.g. no date shown). */
	matches(plan: Plan, seen: Seen): boolean | string;
	/** The output of a delivery Peach shows, and the note that says why it is not made again. */
	shown(plan: Plan, seen: Seen): { json: IDataObject; note: string };
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

export type PeachOperation = ItemOperation | Delivering | BatchOperation;

/** A resource: its name in the Resource dropdown and its operations (the keys are the values). */
export interface ResourceDefinition {
	displayName: string;
	/** The operation selected when the resource is picked. */
	defaultOperation: string;
	operations: Record<string, PeachOperation>;
}
