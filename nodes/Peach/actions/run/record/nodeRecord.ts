import type { IDataObject } from 'n8n-workflow';

import type { Witnessed } from './witness';

/**
 * The record in the node context (n8n.ts, fact 2): what each run of the node did, per delivery, with
 * Peach's answer. Retry On Fail's tries share it; the editor's Retry gets the copy n8n saved.
 */

const RECORD_KEY = 'peachDeliveries';

export interface RecordEntry {
	outcome: 'sent' | 'unknown';
	at: string;
	json?: IDataObject;
	reason?: string;
	/** The contact and template Peach lists it by (a Retry whose item changed finds it so). */
	witnessed?: Witnessed;
}

export interface NodeRecord {
	/** Run number (n8n's run index) → the how-manieth run of the node in this execution it is. */
	ordinals: Record<string, number>;
	/** Per run: each delivery's outcome, by its identity. */
	runs: Record<string, Record<string, RecordEntry>>;
	/** Per run: how many tries opened it (Retry On Fail). */
	tries: Record<string, number>;
	/**
	 * Per run, per contact and template that has an outcome above: the identities of every delivery
	 * to them the tries planned, so that a Retry pairs only an item no try had as a changed one.
	 */
	planned?: Record<string, Record<string, string[]>>;
	/** When the node first ran in this execution (Peach is asked for what it queued since). */
	startedAt: number;
}

/** The record in the node context (a new one where there is none: `fresh`). */
export function nodeRecordIn(
	nodeContext: IDataObject | undefined,
): { record: NodeRecord; fresh: boolean } | undefined {
	if (!nodeContext) return undefined;
	const record = nodeContext[RECORD_KEY] as Partial<NodeRecord> | undefined;
	if (
		record &&
		typeof record.ordinals === 'object' &&
		typeof record.runs === 'object' &&
		typeof record.tries === 'object' &&
		typeof record.startedAt === 'number'
	)
		return { record: record as NodeRecord, fresh: false };
	const fresh: NodeRecord = { ordinals: {}, runs: {}, tries: {}, startedAt: Date.now() };
	nodeContext[RECORD_KEY] = fresh;
	return { record: fresh, fresh: true };
}

/** This run of the node in the record: its ordinal, and whether an earlier try opened it. */
export function openRun(
	record: NodeRecord,
	runIndex: number,
): {
	ordinal: number;
	earlierTry: boolean;
	entries: Record<string, RecordEntry>;
	planned: Record<string, string[]>;
} {
	record.ordinals[runIndex] ??= Object.keys(record.ordinals).length;
	const ordinal = record.ordinals[runIndex];
	const earlierTry = (record.tries[ordinal] ?? 0) > 0;
	record.tries[ordinal] = (record.tries[ordinal] ?? 0) + 1;
	record.runs[ordinal] ??= {};
	record.planned ??= {};
	record.planned[ordinal] ??= {};
	return {
		ordinal,
		earlierTry,
		entries: record.runs[ordinal],
		planned: record.planned[ordinal],
	};
}
