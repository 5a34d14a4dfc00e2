import { createHash } from 'crypto';
import type { IDataObject } from 'n8n-workflow';

import { isPlainObject } from '../Peach/helpers/json';
import type { PeachEnvelope } from './envelope';
import type { EventKind } from './events';

/**
 * "Ignore Duplicates": a delivery whose identity was seen within the window starts nothing.
 *
 * Two records, both bounded:
 * - in memory, per trigger node: exact within one n8n process, also under concurrent deliveries
 *   (the check and the mark happen together, with no await between them);
 * - in the workflow's static data (saved by n8n after each delivery): the newest identities, so a
 *   restart keeps them. n8n saves it last-writer-wins, so deliveries in flight at the same moment in
 *   two processes (several webhook processes) may each miss the other's.
 */
export const DEDUPE_LIMITS = { memoryPerNode: 10_000, persisted: 1_000, nodes: 500 };

/** Duplicate Window's default: a day. */
export const DEFAULT_WINDOW_MINUTES = 1440;

/** The window in milliseconds; a missing, non-numeric or non-positive value means the default. */
export function windowMs(minutes: unknown): number {
	const value = Number(minutes ?? DEFAULT_WINDOW_MINUTES);
	return (Number.isFinite(value) && value > 0 ? value : DEFAULT_WINDOW_MINUTES) * 60_000;
}

/**
 * The window for events without an identity of their own (Identical Events Window), in milliseconds;
 * 0, the default, means such events are never treated as duplicates.
 */
export function identicalWindowMs(minutes: unknown): number {
	const value = Number(minutes ?? 0);
	return Number.isFinite(value) && value > 0 ? value * 60_000 : 0;
}

/** Statuses after which a message's id and status name one delivery; a reply may come many times. */
const ONE_TIME_MESSAGE_STATUSES = ['sent', 'delivered', 'read', 'failed'];

const hash = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 16);

/** JSON with sorted keys, so the same event sent with its fields reordered has the same text. */
function canonical(value: unknown): string {
	if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
	if (isPlainObject(value)) {
		return `{${Object.keys(value)
			.sort()
			.map((key) => `${JSON.stringify(key)}:${canonical(value[key])}`)
			.join(',')}}`;
	}
	return JSON.stringify(value) ?? 'null';
}

const idOf = (value: unknown): string | undefined =>
	typeof value === 'string' && value !== ''
		? `s:${value}`
		: typeof value === 'number' && Number.isFinite(value)
			? `n:${value}`
			: undefined;

/**
 * The identity of a delivery: event + the message/order/flow execution id + status where Peach sends
 * one that names a single occurrence (`basis: 'id'`); else a hash of the whole body (`basis: 'body'`).
 * A body identity does not name one occurrence: Peach's AI agent events carry only the agent (two
 * real escalations by one agent are byte-identical) and replies repeat, so the webhook treats those as
 * duplicates only within the Identical Events Window the user sets.
 */
export function deliveryKey(
	envelope: PeachEnvelope,
	decision: { event: string; kind: EventKind },
): { key: string; basis: 'id' | 'body' } {
	const { data } = envelope;
	let id: string | undefined;
	let status: unknown;
	if (decision.kind === 'messageDelivery' && isPlainObject(data.message)) {
		status = data.message.status;
		const plainStatus = typeof status === 'string' ? status.trim().toLowerCase() : '';
		if (ONE_TIME_MESSAGE_STATUSES.includes(plainStatus)) {
			const type = typeof data.message.type === 'string' ? data.message.type : '';
			const messageId = idOf(data.message.id);
			id = messageId === undefined ? undefined : `${type}:${messageId}`;
		}
	} else if (decision.kind === 'order' || decision.kind === 'flowExecution') {
		id = idOf(data.id);
		status = data.status;
	}
	if (id !== undefined) {
		return {
			key: hash(['id', decision.event, id, typeof status === 'string' ? status : ''].join('\n')),
			basis: 'id',
		};
	}
	return { key: hash(`body\n${canonical({ type: envelope.type, data })}`), basis: 'body' };
}

/** What one trigger node saw, in this process (`memory` below). */
interface NodeMemory {
	seen: Map<string, number>;
	recent: string[];
}

/**
 * Seen identities per trigger node, in this process: identity → expiry (Map order is insertion order:
 * oldest first), and the newest identities in order, which are what the static data keeps.
 */
const memory = new Map<string, NodeMemory>();

function prune(seen: Map<string, number>, now: number, max: number) {
	for (const [key, expires] of seen) {
		if (expires > now && seen.size <= max) break;
		seen.delete(key);
	}
}

/** The static data record: identity → expiry in epoch seconds, oldest first. Identities are hex, never an array index, so the order holds. */
function persistedRecord(staticData: IDataObject): Record<string, number> {
	if (!isPlainObject(staticData.seenDeliveries)) staticData.seenDeliveries = {};
	return staticData.seenDeliveries as Record<string, number>;
}

/**
 * The memory of the trigger node `scope`, made on first use; past DEDUPE_LIMITS.nodes, the memory of
 * the node first seen is dropped.
 */
function memoryOf(scope: string): NodeMemory {
	let node = memory.get(scope);
	if (node === undefined) {
		node = { seen: new Map(), recent: [] };
		memory.set(scope, node);
		while (memory.size > DEDUPE_LIMITS.nodes) memory.delete(memory.keys().next().value as string);
	}
	return node;
}

/**
 * The static data record to save. Written whole from this process's memory (newest last) after what
 * was saved before and is not in memory (from before a restart): n8n saves static data
 * last-writer-wins, and a record merged only from what this request loaded would drop what
 * concurrent requests saved meanwhile.
 */
function recordToSave(
	persisted: Record<string, number>,
	{ seen, recent }: NodeMemory,
	now: number,
): Record<string, number> {
	const record: Record<string, number> = {};
	for (const [other, at] of Object.entries(persisted)) {
		if (typeof at === 'number' && at * 1000 > now && !seen.has(other)) record[other] = at;
	}
	for (const other of recent.slice(-DEDUPE_LIMITS.persisted)) {
		const at = seen.get(other);
		if (at !== undefined) {
			delete record[other];
			record[other] = Math.ceil(at / 1000);
		}
	}
	const keys = Object.keys(record);
	for (const old of keys.slice(0, Math.max(0, keys.length - DEDUPE_LIMITS.persisted))) {
		delete record[old];
	}
	return record;
}

/**
 * Whether `key` was seen within `windowMs` for this node; if not, marks it as seen in both records.
 * Synchronous on purpose: two deliveries cannot both pass between the check and the mark.
 */
export function seenBefore(
	scope: string,
	key: string,
	windowMs: number,
	staticData: IDataObject,
): boolean {
	const now = Date.now();
	const node = memoryOf(scope);
	const { seen, recent } = node;
	const inMemory = seen.get(key);
	if (inMemory !== undefined && inMemory > now) return true;

	const persisted = persistedRecord(staticData);
	const stored = Object.prototype.hasOwnProperty.call(persisted, key) ? persisted[key] : undefined;
	if (typeof stored === 'number' && stored * 1000 > now) {
		seen.set(key, stored * 1000);
		return true;
	}

	const expires = now + windowMs;
	seen.delete(key);
	seen.set(key, expires);
	prune(seen, now, DEDUPE_LIMITS.memoryPerNode);
	recent.push(key);
	if (recent.length > 2 * DEDUPE_LIMITS.persisted) recent.splice(0, DEDUPE_LIMITS.persisted);
	staticData.seenDeliveries = recordToSave(persisted, node, now);
	return false;
}
