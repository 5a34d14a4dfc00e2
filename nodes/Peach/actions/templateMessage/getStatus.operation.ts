import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { eventIdField } from '../../descriptions/fields';
import { requireText } from '../../helpers/fields';
import { isPlainObject } from '../../helpers/json';
import { apiPath, segment } from '../../transport/path';
import { peachApiRequest } from '../../transport/request';
import type { ItemResult, OperationOption } from '../operation/node.type';

export const option: OperationOption = {
	name: 'Get Status',
	value: 'getStatus',
	action: 'Get the status of a template message',
	description:
		"Read a sent template message's event status and its WhatsApp status (queued, sent, delivered, read, failed) by event ID",
};

export const properties: INodeProperties[] = [eventIdField('Send')];

/**
 * An event's answer with what matters first: the WhatsApp message status (`result.status`), the
 * event status and the failure message, then Peach's answer as it came.
 */
export function statusOutput(event: unknown): IDataObject {
	const answer = isPlainObject(event) ? event : { response: event as string };
	const result = isPlainObject(answer.result) ? answer.result : {};
	return {
		messageStatus: (result.status as string | undefined) ?? null,
		eventStatus: (answer.status as string | undefined) ?? null,
		failureMessage: (result.failure_message as string | undefined) ?? null,
		...answer,
	};
}

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<ItemResult> {
	const eventId = requireText(
		'Event ID',
		this.getNodeParameter('eventId', itemIndex),
		'Use the event_id a Send returned, e.g. {{ $json.event_id }} right after a Peach Send node.',
	);
	const event = await peachApiRequest.call(this, {
		method: 'GET',
		path: apiPath`/events/${segment('Event ID', eventId)}`,
		itemIndex,
		notFound: { label: 'Event', id: eventId },
	});
	return statusOutput(event);
}
