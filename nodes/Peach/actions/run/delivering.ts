import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { wasNotSent } from '../../transport/outcome';
import { DeliveryPermit } from '../../transport/permit';
import { dryRunOf, requestOptionsOf } from '../../transport/requestOptions';
import { concurrently } from '../../transport/width';
import type { Delivering, Delivery } from '../operation/node.type';
import type { Run } from './check';
import { checkEveryItem, deliveryKeyOf } from './check';
import { outputsOf } from './delivering.outputs';
import { stage } from './delivering.stage';
import type { NodeError } from './items';
import { errorItem, toNodeError } from './items';
import { dryRunOutputs } from './dryRun';
import type { RunEntry } from './outcome';
import { claimError, closingReport, nothingSentError, RunFailures } from './outcome';
import { unknownError } from './outcome.earlier';
import { runWitness } from './record/peachWitness';
import { ClaimedElsewhere, DeliveryRecord } from './record/record';
import type { PlannedDelivery } from './record/thisRun';

/**
 * An operation that delivers a message or moves money, in its named steps:
 * (1) `checkEveryItem`: every item is prepared (read and checked) before anything is sent; a problem
 *     in any item, without Continue On Fail, sends nothing and names every bad item; with Dry Run (an
 *     operation that previews), the previews are the outputs and nothing below happens (dryRun.ts);
 * (2) `openRecord`: the node's record says what an earlier try did (Retry On Fail, the editor's Retry,
 *     the Retry of a crashed execution): those deliveries are not made again, their outputs come back
 *     marked;
 * (3) `stage` makes what the other deliveries need (header files uploaded); its failures, without
 *     Continue On Fail, send nothing (delivering.stage.ts);
 * (4) `deliverAll`: the deliveries are made, Max Concurrent Requests at a time, each recipient's in
 *     input order, each claimed in the record first; a failure, without Continue On Fail, starts
 *     nothing new, and its error lists what was already delivered (`closingReport`, outcome.ts);
 * (5) `follow` runs over what was delivered (e.g. waiting for delivery), and can only add to those
 *     outputs; (6) `outputsOf`: outputs keep the input order, each paired to its input items
 *     (delivering.outputs.ts).
 * The operation is one object; which of its hooks each step calls is its type's map
 * (operation/node.type.ts, `Delivering`).
 */
export async function runDelivering(
	context: IExecuteFunctions,
	operation: Delivering,
	itemCount: number,
	operationKey: string,
	continueOnFail: boolean,
): Promise<INodeExecutionData[]> {
	const run: Run = {
		context,
		operation,
		continueOnFail,
		failures: new RunFailures(),
		asError: (caught, itemIndex) => toNodeError(context, caught, itemIndex, operation.properties),
	};
	const deliveries = await checkEveryItem(run, itemCount);
	if (operation.preview && dryRunOf(context))
		return await dryRunOutputs(
			context,
			operation,
			operation.preview,
			deliveries,
			run.failures.byItem,
			continueOnFail,
		);
	const opened = await openRecord(run, deliveries, operationKey);
	if (!('record' in opened)) return opened.outputs;
	const { entries, record } = opened;
	const notStarted = await deliverAll(run, await stage(run, entries), record);
	await closeRecord(context, record);
	const delivered = closingReport(context, {
		entries,
		failures: run.failures,
		notStarted,
		remembered: record.remembers,
		continueOnFail,
	});
	if (operation.follow && delivered.length) await operation.follow.call(context, delivered);
	return await outputsOf(run, entries, delivered);
}

/**
 * Step 2: the record of this run, and what an earlier try did with each delivery (`takeEarlier`). A
 * delivery is, for the record, what it sends (or the user's Delivery Key), to whom (`plannedOf`). A
 * record n8n cannot open sends nothing (`notOpened`).
 */
async function openRecord(
	run: Run,
	deliveries: Array<Delivery<unknown>>,
	operationKey: string,
): Promise<{ entries: RunEntry[]; record: DeliveryRecord } | { outputs: INodeExecutionData[] }> {
	const { context, operation } = run;
	const entries: RunEntry[] = deliveries.map((delivery, index) => ({
		delivery,
		index,
		recipient: operation.recipientOf?.(delivery.plan),
	}));
	let record: DeliveryRecord;
	try {
		record = await DeliveryRecord.open(context, operationKey, plannedOf(run, entries), {
			witness:
				operation.peachWitness &&
				runWitness(
					context,
					operation.peachWitness,
					entries.map(({ delivery }) => delivery.plan),
				),
			onEvidence: operation.madeOnEvidence === true,
		});
	} catch (caught) {
		return { outputs: notOpened(run, entries, caught) };
	}
	takeEarlier(context, entries, record);
	return { entries, record };
}

/** Each delivery as the record names it: what it sends (or the Delivery Key), to whom. */
function plannedOf(run: Run, entries: RunEntry[]): PlannedDelivery[] {
	const { context, operation } = run;
	return entries.map(({ delivery, recipient }) => ({
		lane: recipient ?? `key:${delivery.key ?? ''}`,
		content: operation.sameDelivery?.(delivery.plan) ?? delivery.plan,
		deliveryKey: deliveryKeyOf(context, delivery.inputs[0]),
		witnessed: operation.witnessOf?.(delivery.plan),
	}));
}

/**
 * A record n8n cannot open sends nothing: every item fails with the reason, the run too without
 * Continue On Fail.
 */
function notOpened(run: Run, entries: RunEntry[], caught: unknown): INodeExecutionData[] {
	const { context, failures } = run;
	for (const { delivery } of entries)
		failures.add(delivery.inputs, claimError(context, caught, delivery.inputs[0]));
	if (!run.continueOnFail) throw nothingSentError(failures.errors());
	return entries.map(({ delivery }) =>
		errorItem(failures.byItem.get(delivery.inputs[0])?.error as NodeError, delivery.inputs),
	);
}

/**
 * What an earlier try did with each delivery; one whose outcome was unknown is made again only with
 * Send Again If Outcome Unknown.
 */
function takeEarlier(
	context: IExecuteFunctions,
	entries: RunEntry[],
	record: DeliveryRecord,
): void {
	const { resendUnknown } = requestOptionsOf(context);
	for (const entry of entries) {
		entry.earlier = record.earlier(entry.index);
		// Sent again only where Peach was asked and does not list it.
		if (entry.earlier?.outcome === 'unknown' && resendUnknown && !entry.earlier.peachUnread) {
			record.forget(entry.index);
			entry.earlier = undefined;
		}
	}
}

/**
 * Step 4: the deliveries made, Max Concurrent Requests at a time, each recipient's in input order,
 * each claimed in the record first; after a failure, without Continue On Fail, nothing new starts.
 * Returns the input items not started.
 */
async function deliverAll(run: Run, toMake: RunEntry[], record: DeliveryRecord): Promise<number[]> {
	const going = {
		permit: new DeliveryPermit(),
		notStarted: [] as number[],
		stopped: run.failures.size > 0 && !run.continueOnFail,
	};
	await concurrently(
		run.context,
		toMake,
		(entry) => entry.recipient,
		async (entry) => await deliverOne(run, entry, record, going),
	);
	return going.notStarted;
}

/** One delivery: claimed, made once, its outcome recorded (never made again when it may have been). */
async function deliverOne(
	run: Run,
	entry: RunEntry,
	record: DeliveryRecord,
	going: { permit: DeliveryPermit; notStarted: number[]; stopped: boolean },
): Promise<void> {
	const { context, failures } = run;
	const { inputs, plan } = entry.delivery;
	if (going.stopped) {
		going.notStarted.push(...inputs);
		return;
	}
	try {
		await record.claim(entry.index);
	} catch (caught) {
		if (caught instanceof ClaimedElsewhere) {
			record.unknown(entry.index, caught.message);
			failures.add(
				inputs,
				unknownError(context, inputs[0], entry.recipient, caught.message),
				false,
			);
		} else failures.add(inputs, claimError(context, caught, inputs[0]));
		if (!run.continueOnFail) going.stopped = true;
		return;
	}
	if (going.stopped) {
		record.notSent(entry.index);
		going.notStarted.push(...inputs);
		return;
	}
	try {
		entry.json = await run.operation.deliver.call(context, plan, inputs[0], going.permit);
		record.sent(entry.index, entry.json);
	} catch (caught) {
		const error = run.asError(caught, inputs[0]);
		const notSent = wasNotSent(caught);
		if (notSent) record.notSent(entry.index);
		else record.unknown(entry.index, error.message);
		failures.add(inputs, error, notSent);
		if (!run.continueOnFail) going.stopped = true;
	}
}

/** The record closed; a failure to finish it hides nothing that was sent (a hint says what it means). */
async function closeRecord(context: IExecuteFunctions, record: DeliveryRecord): Promise<void> {
	try {
		await record.close();
	} catch (caught) {
		context.addExecutionHints?.({
			message: `n8n could not finish recording what this run sent (${(caught as Error).message}). Everything in the output was sent; if this execution is retried after a crash, some of it may be listed as unknown instead of sent.`,
			location: 'outputPane',
		});
	}
}
