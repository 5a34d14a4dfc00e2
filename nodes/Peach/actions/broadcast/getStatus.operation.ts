import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { eventIdField } from '../../descriptions/fields';
import { requireText } from '../../helpers/fields';
import { isPlainObject } from '../../helpers/json';
import { followUntil } from '../../transport/poll';
import { apiPath, segment } from '../../transport/path';
import { peachApiRequest } from '../../transport/request';
import type { ItemResult, OperationOption } from '../operation/node.type';

export const option: OperationOption = {
	name: 'Get Status',
	value: 'getStatus',
	action: 'Get the status of a broadcast launch',
	description:
		'Read whether Peach processed a launched broadcast, with its statistics, by the event ID Launch returned; optionally wait until it is processed',
};

const MAX_WAIT_SECONDS = 600;

export const properties: INodeProperties[] = [
	eventIdField('Launch'),
	{
		displayName: 'Wait Until Processed',
		name: 'waitUntilProcessed',
		type: 'boolean',
		default: false,
		description:
			'Whether to poll until Peach reports the launch processed or failed, or the time runs out',
	},
	{
		displayName: 'Wait Timeout (Seconds)',
		name: 'waitTimeout',
		type: 'number',
		typeOptions: { minValue: 1, maxValue: MAX_WAIT_SECONDS },
		default: 60,
		description: 'How long to wait, at most 600 seconds (10 minutes)',
		displayOptions: { show: { waitUntilProcessed: [true] } },
	},
];

/** The event status and the broadcast's ID and statistics first, then Peach's answer as it came. */
export function broadcastStatusOutput(event: unknown): IDataObject {
	const answer = isPlainObject(event) ? event : { response: event as string };
	const result = isPlainObject(answer.result) ? answer.result : {};
	return {
		eventStatus: (answer.status as string | undefined) ?? null,
		broadcastId: (result.id as string | undefined) ?? null,
		stats: (result.stats as IDataObject | undefined) ?? null,
		...answer,
	};
}

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<ItemResult> {
	const eventId = requireText(
		'Event ID',
		this.getNodeParameter('eventId', itemIndex),
		'Use the event_id a Launch returned, e.g. {{ $json.event_id }} right after a Peach Launch node.',
	);
	const request = {
		method: 'GET' as const,
		path: apiPath`/events/${segment('Event ID', eventId)}`,
		itemIndex,
		notFound: { label: 'Event', id: eventId },
	};
	if (!this.getNodeParameter('waitUntilProcessed', itemIndex, false)) {
		return broadcastStatusOutput(await peachApiRequest.call(this, request));
	}
	const timeout = this.getNodeParameter('waitTimeout', itemIndex, 60) as number;
	const {
		results: [polled],
		waitedMs,
	} = await followUntil.call(this, [request], {
		timeoutMs: Math.min(Math.max(timeout, 1), MAX_WAIT_SECONDS) * 1000,
		done: (event) =>
			isPlainObject(event) && (event.status === 'processed' || event.status === 'failed'),
	});
	if (polled.error) throw polled.error;
	return {
		...broadcastStatusOutput(polled.body),
		wait: {
			final: polled.done,
			timedOut: !polled.done,
			waitedSeconds: Math.round(waitedMs / 100) / 10,
			polls: polled.polls,
		},
	};
}
