import type { INodeProperties } from 'n8n-workflow';

import { DEFAULT_WINDOW_MINUTES } from './dedupe';

/** How Peach proves a delivery is its own: a shared secret, required unless None is chosen. */
export const verificationField: INodeProperties = {
	displayName: 'Verification',
	name: 'verification',
	type: 'options',
	options: [
		{
			name: 'Header',
			value: 'header',
			description: 'Peach must send the secret in a header you name',
		},
		{
			name: 'None',
			value: 'none',
			description:
				'Accept every POST to the URL (not recommended: anyone who has it can start the workflow)',
		},
		{
			name: 'Token Query Parameter',
			value: 'queryToken',
			description: 'Peach must call the URL with the secret in a token query parameter (?token=…)',
		},
	],
	default: 'queryToken',
	description:
		'Peach documents no webhook signature; a shared secret in the URL or a header keeps strangers out',
};

/** Whether a delivery seen before starts nothing. */
export const ignoreDuplicatesField: INodeProperties = {
	displayName: 'Ignore Duplicates',
	name: 'ignoreDuplicates',
	type: 'boolean',
	default: true,
	description:
		'Whether a delivery seen before within the Duplicate Window starts nothing (answered 200 so Peach stops retrying). A delivery is the same when its event, message/order/flow execution ID and status are. Events without an ID of their own (AI agent events, replies) are never duplicates unless Identical Events Window is set.',
};

/**
 * Options: the duplicate windows, the raw body, which message delivery events start the workflow, and
 * which refused deliveries are reported on the Refused output.
 */
export const optionsField: INodeProperties = {
	displayName: 'Options',
	name: 'options',
	type: 'collection',
	placeholder: 'Add Option',
	default: {},
	options: [
		{
			displayName: 'Duplicate Window (Minutes)',
			name: 'duplicateWindow',
			type: 'number',
			typeOptions: { minValue: 1 },
			default: DEFAULT_WINDOW_MINUTES,
			description:
				'How long a delivery is remembered for Ignore Duplicates (the last 10,000 per trigger in memory, the last 1,000 across restarts)',
			displayOptions: { show: { '/ignoreDuplicates': [true] } },
		},
		{
			displayName: 'Identical Events Window (Minutes)',
			name: 'identicalWindow',
			type: 'number',
			typeOptions: { minValue: 0 },
			default: 0,
			description:
				"For events without an ID of their own (AI agent events, replies): ignore one whose whole body was received within this many minutes, e.g. 5 for Peach's retries. 0 (the default) never ignores them: two real escalations by one agent look the same.",
			displayOptions: { show: { '/ignoreDuplicates': [true] } },
		},
		{
			displayName: 'Include Raw Body',
			name: 'includeRawBody',
			type: 'boolean',
			default: false,
			description:
				'Whether to add the body as text in rawBody: the bytes Peach sent, or the parsed JSON written out again when n8n did not keep them',
		},
		{
			displayName: 'Message Types',
			name: 'messageTypes',
			type: 'options',
			options: [
				{ name: 'All Messages', value: 'all' },
				{
					name: 'Interactive Messages Only',
					value: 'interactive',
					description: 'Messages of conversations (type "message")',
				},
				{
					name: 'Template Messages Only',
					value: 'templateMessage',
					description: 'Template messages (type "template_message")',
				},
			],
			default: 'all',
			description: 'Which message delivery events start the workflow',
		},
		{
			displayName: 'Report Refused Deliveries',
			name: 'reportRefused',
			type: 'multiOptions',
			options: [
				{
					name: 'Duplicate',
					value: 'duplicate',
					description: 'Received before and ignored (Ignore Duplicates), e.g. a retry by Peach',
				},
				{ name: 'Event Not Selected', value: 'event', description: 'Not one of the Events' },
				{
					name: 'Message Type Filtered Out',
					value: 'messageType',
					description: 'Left out by Message Types',
				},
				{
					name: 'Not a Peach Body',
					value: 'body',
					description: 'Not JSON, or not {"type": "...", "data": {...}} (answered 400)',
				},
				{
					name: 'Wrong or Missing Secret',
					value: 'secret',
					description: "No token or header, or not the credential's secret (answered 401)",
				},
			],
			default: ['secret', 'body', 'event', 'messageType'],
			description:
				"Refused deliveries that start the workflow on the Refused output, with the reason, the fix and how many were refused: at most once a minute per reason, the others counted into the next report. Counted in this n8n process's memory. A refused delivery is still answered as before.",
		},
	],
};
