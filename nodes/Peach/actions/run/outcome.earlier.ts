import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { EarlierOutcome } from '../operation/node.type';
import type { NodeError } from './items';

/**
 * What a delivering run tells of a delivery an earlier try of the node made, or left with an unknown
 * outcome: its output (with a note that says why it is not sent again) and, for an unknown outcome,
 * its error. The error that ends a run is in outcome.ts.
 */

/** Why an earlier delivery is known as sent, for its output's note. */
function sentNote(earlier: EarlierOutcome): string {
	if (earlier.peachNote) return earlier.peachNote;
	const peach = earlier.peach
		? ` Peach lists it as ${earlier.peach.id}${earlier.peach.status ? ` (${earlier.peach.status})` : ''}.`
		: '';
	if (earlier.json && earlier.changed)
		return `Sent by an earlier try of this node to this contact with this template, as the item was then (it has changed since); not sent again.${peach}`;
	if (earlier.json)
		return `Sent by an earlier try of this node (Retry On Fail, or the execution this one retries); not sent again.${peach}`;
	if (earlier.byPeachOnly)
		return `Not sent again: Peach lists a message of this template to this contact since the execution began, and n8n's record of the execution did not show its outcome.${peach}`;
	return `Sent before the n8n process running the retried execution stopped; not sent again.${peach || " Peach's answer was not kept: Template Message → Get Many Statuses lists what Peach queued."}`;
}

/** The output of a delivery an earlier try of the node made, or left unknown; this run did not. */
export function earlierJson(earlier: EarlierOutcome, recipient: string | undefined): IDataObject {
	if (earlier.outcome === 'sent') {
		return {
			...earlier.json,
			alreadySent: {
				at: earlier.at,
				...(recipient !== undefined ? { recipient } : {}),
				...(earlier.peach ? { peach: { ...earlier.peach } } : {}),
				note: sentNote(earlier),
			},
		};
	}
	return {
		outcomeUnknown: {
			at: earlier.at,
			...(recipient !== undefined ? { recipient } : {}),
			reason: earlier.reason ?? null,
			note: "Not sent again: the earlier request may have reached Peach. Check the contact's conversation (or the order) in the Peach web app; to send it anyway, turn on Request Options → Send Again If Outcome Unknown and retry.",
		},
	};
}

/**
 * A delivery (of input item `itemIndex`) an earlier try left with an unknown outcome (`reason`): not
 * made again, and not a success.
 */
export function unknownError(
	context: IExecuteFunctions,
	itemIndex: number,
	recipient: string | undefined,
	reason: string | null | undefined,
): NodeError {
	return new NodeOperationError(
		context.getNode(),
		`The outcome of item ${itemIndex}${recipient !== undefined ? ` (${recipient})` : ''} is unknown: an earlier try's request may have reached Peach`,
		{
			itemIndex,
			description: `${reason ? `${reason} ` : ''}It is not sent again. Check it in the Peach web app (the contact's conversation, or the order; Template Message → Get Many Statuses lists what Peach queued); to send it anyway, turn on Request Options → Send Again If Outcome Unknown and retry.`,
		},
	);
}
