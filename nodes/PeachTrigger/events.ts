import type { IDataObject, INodePropertyOptions } from 'n8n-workflow';

import { isPlainObject, setOwn } from '../Peach/helpers/json';
import type { PeachEnvelope } from './envelope';

// Parsing the body lives in envelope.ts; the trigger node and the webhook name it from here too.
export { parseEnvelope, type PeachEnvelope } from './envelope';

/** The kinds of Peach webhook, as named in the output's `kind`. */
export type EventKind = 'order' | 'flowExecution' | 'messageDelivery' | 'aiAgent' | 'unknown';

export const ALL_EVENTS = '*';

/** Every documented event (README.md, "Trigger"), with `read` and `replied` reported by integrators only. */
export const EVENTS: Record<string, { kind: EventKind; label: string; description: string }> = {
	'ai_flow_execution.analyzed': {
		kind: 'aiAgent',
		label: 'AI Agent: Analyzed',
		description: 'An AI agent analyzed a conversation',
	},
	'ai_flow_execution.completed': {
		kind: 'aiAgent',
		label: 'AI Agent: Completed',
		description: 'An AI agent completed a conversation',
	},
	'ai_flow_execution.escalated': {
		kind: 'aiAgent',
		label: 'AI Agent: Escalated',
		description: 'An AI agent escalated a conversation to a person',
	},
	'ai_flow_execution.started': {
		kind: 'aiAgent',
		label: 'AI Agent: Started',
		description: 'An AI agent picked up a conversation',
	},
	'flow_execution.completed': {
		kind: 'flowExecution',
		label: 'Flow Execution: Completed',
		description: 'A contact finished an app (flow) journey',
	},
	'flow_execution.in_progress': {
		kind: 'flowExecution',
		label: 'Flow Execution: In Progress',
		description: 'A contact opened an app (flow) from its button',
	},
	'flow_execution.pending': {
		kind: 'flowExecution',
		label: 'Flow Execution: Pending',
		description: 'An app (flow) was sent to a contact',
	},
	'message_delivery.delivered': {
		kind: 'messageDelivery',
		label: 'Message Delivery: Delivered',
		description: 'A message reached the contact',
	},
	'message_delivery.failed': {
		kind: 'messageDelivery',
		label: 'Message Delivery: Failed',
		description: 'A message could not be delivered',
	},
	'message_delivery.read': {
		kind: 'messageDelivery',
		label: 'Message Delivery: Read',
		description: 'The contact read a message (reported by integrators, not in the docs)',
	},
	'message_delivery.replied': {
		kind: 'messageDelivery',
		label: 'Message Delivery: Replied',
		description: 'The contact replied to a message (reported by integrators, not in the docs)',
	},
	'message_delivery.sent': {
		kind: 'messageDelivery',
		label: 'Message Delivery: Sent',
		description: 'A message was sent to the contact',
	},
	'order.canceled': {
		kind: 'order',
		label: 'Order: Canceled',
		description: 'The business canceled an order before payment',
	},
	'order.completed': {
		kind: 'order',
		label: 'Order: Completed',
		description: 'The payment of an order was captured',
	},
};

export const EVENT_OPTIONS: INodePropertyOptions[] = [
	{
		name: 'All Events',
		value: ALL_EVENTS,
		description: 'Every event, including types Peach may add later',
	},
	...Object.entries(EVENTS)
		.map(([value, event]) => ({ name: event.label, value, description: event.description }))
		.sort((a, b) => a.name.localeCompare(b.name)),
];

const KIND_BY_PREFIX: Record<string, EventKind> = {
	order: 'order',
	flow_execution: 'flowExecution',
	message_delivery: 'messageDelivery',
	ai_flow_execution: 'aiAgent',
	ai_agent_execution: 'aiAgent',
};

const has = (record: object, key: string) => Object.prototype.hasOwnProperty.call(record, key);

/** The kind of an event type; a type such as "constructor" is unknown, not an inherited member. */
export function kindOf(event: string): EventKind {
	if (has(EVENTS, event)) return EVENTS[event].kind;
	const prefix = event.split('.')[0];
	return has(KIND_BY_PREFIX, prefix) ? KIND_BY_PREFIX[prefix] : 'unknown';
}

/**
 * The event to act on. For message delivery, Peach's examples send `type: message_delivery.sent` for a
 * delivered message, so the message's own status decides, but only when `message_delivery.<status>`
 * is a known event: an unknown status (e.g. "undelivered") never overrides a known type.
 */
export function decideEvent(envelope: PeachEnvelope): {
	event: string;
	kind: EventKind;
	decidedBy: 'type' | 'messageStatus';
} {
	const kind = kindOf(envelope.type);
	if (kind === 'messageDelivery') {
		const message = envelope.data.message;
		const status =
			isPlainObject(message) && typeof message.status === 'string'
				? message.status.trim().toLowerCase()
				: '';
		const event = `message_delivery.${status}`;
		if (has(EVENTS, event)) {
			return { event, kind, decidedBy: event === envelope.type ? 'type' : 'messageStatus' };
		}
	}
	return { event: envelope.type, kind, decidedBy: 'type' };
}

/** Whether the chosen events include this one. An unknown type starts an execution only under All Events. */
export function isSelected(event: string, selected: string[]): boolean {
	if (selected.includes(ALL_EVENTS)) return true;
	return has(EVENTS, event) && selected.includes(event);
}

export type MessageFilter = 'all' | 'templateMessage' | 'interactive';

/** Message delivery filter: template messages (`type: template_message`) or interactive ones (`type: message`). */
export function passesMessageFilter(
	envelope: PeachEnvelope,
	kind: EventKind,
	filter: MessageFilter,
): boolean {
	if (kind !== 'messageDelivery' || filter === 'all') return true;
	const message = envelope.data.message;
	const type = isPlainObject(message) ? message.type : undefined;
	return filter === 'templateMessage' ? type === 'template_message' : type === 'message';
}

const META_KEYS = ['event', 'kind', 'sentType', 'decidedBy', 'receivedAt', 'rawBody'];

/**
 * One output item: what happened (`event`, `kind`), what Peach sent (`sentType`) and how the event was
 * decided, when it arrived, then the event's data fields at the top (`contact.phone_number`,
 * `message.status`...). A data field whose name is taken by these is kept as `data<Name>` (e.g. `dataEvent`).
 */
export function buildOutput(
	envelope: PeachEnvelope,
	decision: ReturnType<typeof decideEvent>,
	receivedAt: string,
	rawBody?: string,
): IDataObject {
	const output: IDataObject = {
		event: decision.event,
		kind: decision.kind,
		sentType: envelope.type,
		decidedBy: decision.decidedBy,
		receivedAt,
	};
	for (const [key, value] of Object.entries(envelope.data)) {
		const name = META_KEYS.includes(key)
			? `data${key.charAt(0).toUpperCase()}${key.slice(1)}`
			: key;
		// Defined, not assigned: a sender's "__proto__" field stays a field and cannot change the prototype.
		setOwn(output, name, value);
	}
	if (rawBody !== undefined) output.rawBody = rawBody;
	return output;
}
