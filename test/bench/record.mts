/**
 * npm run bench, part (g): what the delivery record costs at the size the package is for, in the same
 * n8n as the other parts, against the mock that answers at once (the record's share is largest there):
 *
 *   one contact's messages (one after another, one store write each): ms per item at 1,000 and 5,000,
 *   and HTTP Request's at 1,000 (fixed body);
 *   many contacts (each item its own): ms per item at 1,000 and 50,000, HTTP Request's at 1,000;
 *   the bytes n8n writes per delivery (the process's write_bytes: the record and everything else an
 *   execution saves) and the record's row, on a fresh workflow and after 100,000 deliveries recorded.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { codeNode, type Json, log, type N8nInstance } from '../e2e/n8n.mts';

export interface Variant {
	name: string;
	path: string;
	workflowId?: string;
}

export interface BenchTools {
	n8n: N8nInstance;
	userFolder: string;
	createSender(name: string, count: number, sender: Json, items?: Json): Promise<Variant>;
	runOnce(variant: Variant): Promise<number>;
	/** The median seconds of interleaved rounds, per variant. */
	rounds(variants: Variant[]): Promise<Record<string, number>>;
	/** HTTP Request with a fixed body (one phone) or mapped (each item's phone). */
	http(mapped: boolean): Json;
	/** Peach Send with its defaults, one phone or each item's. */
	peach(mapped: boolean): Json;
}

/** Every item its own contact (the bench's `items` repeat phones beyond 9,000). */
const uniqueItems = (count: number) =>
	codeNode(
		`return Array.from({ length: ${count} }, (_, i) => ({ json: { phone: '+1415' + String(1000000 + i), name: 'Guest ' + i } }));`,
		'Items',
	);

/** What the n8n process has written to storage so far (its database and everything else). */
function bytesWritten(pid: number): number {
	return Number(/write_bytes:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/io`, 'utf8'))?.[1] ?? 0);
}

/** A workflow's record rows in n8n's database: entries and bytes (SQLite, n8n's default). */
function recordRows(userFolder: string, workflowId = ''): { entries: number; bytes: number } {
	const db = join(userFolder, '.n8n', 'database.sqlite');
	const [entries, bytes] = execFileSync('sqlite3', [
		db,
		`select ifnull(sum(json_array_length(json_extract(value,'$.data'))),0), ifnull(sum(length(value)),0) from processed_data where workflowId = '${workflowId.replace(/'/g, '')}'`,
	])
		.toString()
		.trim()
		.split('|')
		.map(Number);
	return { entries, bytes };
}

const median = (values: number[]) =>
	[...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

export interface RecordResults {
	oneContact: { http1k: number; peach1k: number; peach5k: number };
	manyContacts: { http1k: number; peach1k: number; peach50k: number };
	bytes: {
		fresh: number;
		after: number;
		recordedBefore: number;
		rowFresh: { entries: number; bytes: number };
		rowAfter: { entries: number; bytes: number };
	};
}

export async function recordAtSize(tools: BenchTools): Promise<RecordResults> {
	const perItem = (seconds: number, count: number) => (seconds * 1000) / count;
	log('bench (g): one contact, 1,000 and 5,000 messages; HTTP Request at 1,000');
	const one = await tools.rounds([
		await tools.createSender('g http one', 1000, tools.http(false)),
		await tools.createSender('g peach one 1k', 1000, tools.peach(false)),
	]);
	const one5k = await tools.createSender('g peach one 5k', 5000, tools.peach(false));
	await tools.runOnce(one5k);
	const runs5k = [await tools.runOnce(one5k), await tools.runOnce(one5k)];

	log('bench (g): many contacts, 1,000 and 50,000; HTTP Request at 1,000');
	const many = await tools.rounds([
		await tools.createSender('g http many', 1000, tools.http(true), uniqueItems(1000)),
		await tools.createSender('g peach many 1k', 1000, tools.peach(true), uniqueItems(1000)),
	]);
	const many50k = await tools.createSender(
		'g peach many 50k',
		50_000,
		tools.peach(true),
		uniqueItems(50_000),
	);
	const runs50k = [await tools.runOnce(many50k), await tools.runOnce(many50k)];

	log('bench (g): bytes per delivery, on a fresh workflow and after 100,000 deliveries recorded');
	const pid = tools.n8n.process.pid as number;
	const history = await tools.createSender(
		'g bytes history',
		1000,
		tools.peach(true),
		uniqueItems(1000),
	);
	for (let run = 0; run < 100; run++) await tools.runOnce(history);
	const rowAfter = recordRows(tools.userFolder, history.workflowId);
	// A new workflow has its own, empty row: its runs, interleaved with the other's, are "with none".
	const fresh = await tools.createSender(
		'g bytes fresh',
		1000,
		tools.peach(true),
		uniqueItems(1000),
	);
	const bytesOf = { fresh: [] as number[], history: [] as number[] };
	for (let round = 0; round < 7; round++)
		for (const [name, variant] of [
			['fresh', fresh],
			['history', history],
		] as const) {
			const before = bytesWritten(pid);
			await tools.runOnce(variant);
			bytesOf[name].push((bytesWritten(pid) - before) / 1000);
		}
	const rowFresh = recordRows(tools.userFolder, fresh.workflowId);
	const freshBytes = median(bytesOf.fresh);
	const afterBytes = median(bytesOf.history);

	return {
		oneContact: {
			http1k: perItem(one['g http one'], 1000),
			peach1k: perItem(one['g peach one 1k'], 1000),
			peach5k: perItem(median(runs5k), 5000),
		},
		manyContacts: {
			http1k: perItem(many['g http many'], 1000),
			peach1k: perItem(many['g peach many 1k'], 1000),
			peach50k: perItem(median(runs50k), 50_000),
		},
		bytes: {
			fresh: freshBytes,
			after: afterBytes,
			recordedBefore: 100_000,
			rowFresh,
			rowAfter,
		},
	};
}
