import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { isPlainObject } from '../../helpers/json';
import type { Delivering, Sight } from '../operation/node.type';

/**
 * The person's view of a delivering operation's outputs: every output leads with what a person
 * checks, in the order they check it, and keeps beneath it, unchanged, what was there before (Peach's
 * answer, the Dry Run's exact request and preview, what an earlier try did), which expressions and
 * the record of what was sent read:
 *
 *   to        whom it went to (the contact's number; an audience), or `order` for an operation on
 *             an order (the operation's recipientField)
 *   message   the message as the contact's phone shows it (operations that send a message)
 *   outcome   what happened: queued (delivered, read… once Wait for Delivery knows), accepted,
 *             already sent, outcome unknown, not sent, not sent: Dry Run
 *   peachId   Peach's own ID of it (the event's event_id, else the record's id)
 *
 * A key Peach's answer has too stays Peach's (its value wins, in the first place).
 */

/** What happened to a delivery, in a person's words. */
export type Outcome =
	| 'queued'
	| 'accepted'
	| 'already sent'
	| 'outcome unknown'
	| 'not sent'
	| 'not sent: Dry Run';

/** The person's view of one output. */
export interface PersonView {
	to?: string;
	message?: string;
	outcome: string;
	peachId?: string;
}

/** One output of a delivering run, with what its view is made from. */
export interface Presentable {
	item: INodeExecutionData;
	/** The delivery's plan, when the item was read and checked (the message is rendered from it). */
	plan?: unknown;
	/** Its recipient as the run knows it (a phone number, an audience, an order). */
	recipient?: string;
	/** For an error item: whether the delivery certainly did not happen. */
	notSent?: boolean;
}

const text = (value: unknown) =>
	typeof value === 'string' || typeof value === 'number' ? String(value) : undefined;

/**
 * What a Dry Run's preview shows (`{preview: {to, text, fallback}}`, or a broadcast's `{preview:
 * {contacts: [{to, text}]}}`), as the Sight a real run's operation gives. Pure.
 */
function sightInPreview(previewed: IDataObject | undefined): Sight {
	const preview =
		previewed && isPlainObject(previewed.preview) ? previewed.preview : ({} as IDataObject);
	const contacts = Array.isArray(preview.contacts) ? preview.contacts.filter(isPlainObject) : [];
	if (contacts.length) {
		const [first] = contacts;
		return { to: text(first.to) ?? '?', more: contacts.length - 1, message: text(first.text) };
	}
	return {
		to: text(preview.to),
		message: text(preview.text),
		fallback: isPlainObject(preview.fallback) ? text(preview.fallback.text) : undefined,
	};
}

/**
 * To whom (the first of many, and how many more; else the recipient the run knows) and the message,
 * with what the contact gets when it cannot be shown, as the person's view says them. Pure.
 */
function seen(sight: Sight, recipient?: string): { to?: string; message?: string } {
	const message = sight.message || undefined;
	return {
		to:
			sight.to === undefined
				? recipient
				: `${sight.to}${sight.more ? ` and ${sight.more} more` : ''}`,
		message:
			message && sight.fallback ? `${message}\nIf the app cannot open: ${sight.fallback}` : message,
	};
}

/** To whom, and the message as the phone shows it, from an operation's Dry Run preview. Pure. */
export function sightOf(
	previewed: IDataObject | undefined,
	recipient?: string,
): { to?: string; message?: string } {
	return seen(sightInPreview(previewed), recipient);
}

/** What an earlier try's record says Peach lists of a delivery (`alreadySent.peach`), if anything. */
function peachListed(json: IDataObject): IDataObject {
	const earlier = isPlainObject(json.alreadySent) ? json.alreadySent : {};
	return isPlainObject(earlier.peach) ? earlier.peach : {};
}

/**
 * Peach's ID of a delivery: its event_id (or the record's id) in Peach's answer, else what Peach
 * lists of it, as an earlier try's record found it (`alreadySent.peach.id`).
 */
export function peachIdOf(json: IDataObject): string | undefined {
	return text(json.event_id) ?? text(json.id) ?? text(peachListed(json).id);
}

/**
 * What happened, in a person's words, from the output's own fields: Wait for Delivery's status once
 * known (delivered, read, failed…), an earlier try's sending (with the status Peach lists, when the
 * record found it), else `done`.
 */
export function outcomeOf(json: IDataObject, done: Outcome): string {
	if (isPlainObject(json.alreadySent)) {
		const status = text(peachListed(json).status) ?? text(json.deliveryStatus);
		return status ? `already sent (${status})` : 'already sent';
	}
	if (json.outcomeUnknown !== undefined) return 'outcome unknown';
	return text(json.deliveryStatus) ?? done;
}

/** The view with its recipient under the operation's field name (`to` by default, `order`). Pure. */
function named(view: PersonView, field: 'to' | 'order' = 'to'): IDataObject {
	if (field === 'to') return { ...view };
	const { to, ...rest } = view;
	return { [field]: to, ...rest };
}

/** The output's JSON with the person's view first; every field it had stays, after it. Pure. */
export function withPersonView(view: PersonView | IDataObject, json: IDataObject): IDataObject {
	const first: IDataObject = {};
	for (const [key, value] of Object.entries(view)) if (value !== undefined) first[key] = value;
	return { ...first, ...json };
}

/** The message (and recipient) of a plan, from the operation's `sight`; nothing when it has none. */
async function sightOfPlan(
	context: IExecuteFunctions,
	operation: Delivering,
	plan: unknown,
	itemIndex: number,
	recipient: string | undefined,
): Promise<{ to?: string; message?: string }> {
	if (!operation.sight || plan === undefined) return { to: recipient };
	try {
		return seen(await operation.sight.call(context, plan, itemIndex), recipient);
	} catch {
		// The view is a reading aid: what cannot be rendered is left out, the output stays.
		return { to: recipient };
	}
}

/**
 * A delivering run's outputs (in output order), each with the person's view first: whom, the
 * message, what happened, Peach's ID. Each message is rendered from its plan by the operation's
 * `sight` (never its Dry Run `preview`; the template is read once per execution). Pairing, errors
 * and every field stay as they were.
 */
export async function presentDeliveries(
	context: IExecuteFunctions,
	operation: Delivering,
	outputs: Presentable[],
): Promise<INodeExecutionData[]> {
	const done: Outcome = operation.doneOutcome ?? (operation.sight ? 'queued' : 'accepted');
	return await Promise.all(
		outputs.map(async ({ item, plan, recipient, notSent }) => {
			const inputs = Array.isArray(item.pairedItem) ? item.pairedItem : [item.pairedItem];
			const first = inputs[0];
			const itemIndex = typeof first === 'object' && first !== null ? first.item : 0;
			const sight = await sightOfPlan(context, operation, plan, itemIndex, recipient);
			const outcome = item.error
				? item.json.outcomeUnknown !== undefined || notSent === false
					? 'outcome unknown'
					: 'not sent'
				: outcomeOf(item.json, done);
			const view: PersonView = { ...sight, outcome, peachId: peachIdOf(item.json) };
			return { ...item, json: withPersonView(named(view, operation.recipientField), item.json) };
		}),
	);
}

/**
 * A Dry Run output with the person's view first: whom (under the operation's field, as in a real
 * run: `order` for a refund), the message, not sent.
 */
export function dryRunView(
	json: IDataObject,
	recipient?: string,
	field?: 'to' | 'order',
): IDataObject {
	const view: PersonView = { ...sightOf(json, recipient), outcome: 'not sent: Dry Run' };
	return withPersonView(named(view, field), json);
}
