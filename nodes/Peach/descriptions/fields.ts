import type { INodeProperties } from 'n8n-workflow';

import { REQUEST_LIMITS } from '../helpers/requestLimits';

/** A name/value row, as used by metadata, trigger variables and data-mapping values. */
export function keyValueCollection(
	name: string,
	displayName: string,
	options: {
		description: string;
		keyName?: string;
		keyPlaceholder?: string;
		valuePlaceholder?: string;
	},
): INodeProperties {
	return {
		displayName,
		name,
		type: 'fixedCollection',
		typeOptions: { multipleValues: true },
		placeholder: `Add ${displayName.replace(/s$/, '')}`,
		default: {},
		description: options.description,
		options: [
			{
				displayName: 'Values',
				name: 'values',
				values: [
					{
						displayName: options.keyName ?? 'Name',
						name: 'key',
						type: 'string',
						default: '',
						placeholder: options.keyPlaceholder,
					},
					{
						displayName: 'Value',
						name: 'value',
						type: 'string',
						default: '',
						placeholder: options.valuePlaceholder,
					},
				],
			},
		],
	};
}

/** Return All and Limit for a list operation, in n8n's wording. */
export function returnAllAndLimit(maxLimit = 1000): INodeProperties[] {
	return [
		{
			displayName: 'Return All',
			name: 'returnAll',
			type: 'boolean',
			default: false,
			description: 'Whether to return all results or only up to a given limit',
		},
		{
			displayName: 'Limit',
			name: 'limit',
			type: 'number',
			typeOptions: { minValue: 1, maxValue: maxLimit },
			default: 50,
			description: 'Max number of results to return',
			displayOptions: { show: { returnAll: [false] } },
		},
	];
}

/** The business (sender) number, digits with the country code and no +, in Additional Fields. */
export function businessPhoneNumberField(description?: string): INodeProperties {
	return {
		displayName: 'Business Phone Number',
		name: 'businessPhoneNumber',
		type: 'string',
		default: '',
		placeholder: 'e.g. 919876543222',
		description:
			description ??
			"The business number to send from: digits with the country code and no +. Leave it out to use the account's default number.",
	};
}

/** The event ID a send or launch returned, taken from the input item by default. */
export function eventIdField(returnedBy: string): INodeProperties {
	return {
		displayName: 'Event ID',
		name: 'eventId',
		type: 'string',
		required: true,
		default: '={{ $json.event_id }}',
		placeholder: 'e.g. evt_1234abcd',
		description: `The event ID a ${returnedBy} returned. By default the one in the input item.`,
	};
}

/** Which Request Options an operation has: see requestOptionsField. */
export type RequestOptionsKind = 'perItem' | 'delivering' | 'batch';

/** Request Options → Max Concurrent Requests (operations that make one request per item or per delivery). */
function concurrencyOption(): INodeProperties {
	return {
		displayName: 'Max Concurrent Requests',
		name: 'concurrency',
		type: 'number',
		typeOptions: { minValue: 1, maxValue: REQUEST_LIMITS.maxConcurrency },
		// n8n's lint wants a literal: REQUEST_LIMITS.defaultConcurrency (a unit test keeps them equal).
		default: 200,
		description:
			"The most requests with Peach at the same time. The node starts with fewer and goes wider while Peach answers promptly; a 429 (Peach's rate limit) or slower answers make it narrower, and the refused request is sent again after Retry-After. Items for the same contact (or record) always go one after another, in input order; 1 sends every item in input order. Outputs keep the input order.",
	};
}

/** Request Options → Timeout (every operation). */
function timeoutOption(): INodeProperties {
	return {
		displayName: 'Timeout (Seconds)',
		name: 'timeout',
		type: 'number',
		typeOptions: { minValue: 1, maxValue: REQUEST_LIMITS.maxTimeoutSeconds },
		// REQUEST_LIMITS.defaultTimeoutSeconds, as a literal for n8n's lint (a unit test keeps them equal).
		default: 30,
		description:
			'How long to wait for Peach to answer a request. A send that times out may already be queued: it is never sent again by itself, and the error says so.',
	};
}

/**
 * Request Options of operations that deliver: whether a Retry makes again what an earlier try left
 * with an unknown outcome, and what names each item's delivery between tries.
 */
function deliveryOptions(): INodeProperties[] {
	return [
		{
			displayName: 'Send Again If Outcome Unknown',
			name: 'resendUnknown',
			type: 'boolean',
			default: false,
			description:
				'Whether a retry of this execution sends again the items an earlier try left with an unknown outcome (a server error, a timeout, or a crash while the request was under way). They may already have reached the contact: check the conversations in Peach first. What was sent is never sent again either way.',
		},
		{
			displayName: 'Delivery Key',
			name: 'deliveryKey',
			type: 'string',
			default: '',
			placeholder: 'e.g. {{ $json.order_id }}',
			description:
				"What names each item's delivery between tries of this execution, as your data names it (what Stripe calls an idempotency key), e.g. an order ID. A retry then skips what was sent for that key and that contact, whatever changed in the rest of the item. Left empty, a delivery is named by what it sends (the contact, the template and its variables). Not sent to Peach; a new execution sends again.",
		},
	];
}

/**
 * Dry Run, a switch of its own on every operation that sends messages (not hidden under Request
 * Options): on, every item is checked and shown as its contact would get it, and nothing is sent.
 */
export function dryRunField(displayOptions: INodeProperties['displayOptions']): INodeProperties {
	return {
		displayName: 'Dry Run',
		name: 'dryRun',
		type: 'boolean',
		default: false,
		displayOptions,
		description:
			'Whether to check every item and show what each contact would get (to whom and the message first; beneath, wouldSend: the exact request, and preview) without sending, uploading or recording anything',
	};
}

/**
 * Request Options: how many items go to Peach at once (operations that make one request per item
 * or per delivery), how long a request may take (every operation), and, for operations that deliver,
 * whether a Retry makes again what an earlier try left with an unknown outcome. `displayOptions`
 * places each variant.
 */
export function requestOptionsField(
	kind: RequestOptionsKind,
	displayOptions: INodeProperties['displayOptions'],
): INodeProperties {
	const concurrency = concurrencyOption();
	const timeout = timeoutOption();
	const options = {
		perItem: [concurrency, timeout],
		delivering: [concurrency, timeout, ...deliveryOptions()],
		batch: [timeout],
	}[kind];
	return {
		displayName: 'Request Options',
		name: 'requestOptions',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		displayOptions,
		options,
	};
}

/** An operation's Additional Fields: its optional inputs, each added only when wanted. */
export function additionalFieldsCollection(options: INodeProperties[]): INodeProperties {
	return {
		displayName: 'Additional Fields',
		name: 'additionalFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		options,
	};
}
