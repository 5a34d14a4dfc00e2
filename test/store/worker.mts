/**
 * One n8n process of the store attack (started by run.mts with the n8n host's Node 24 and tsx, like
 * a queue-mode worker): it opens n8n's real store (n8nStore.mts), says `ready`, then runs the
 * executions it is sent, each as the delivering runner (nodes/Peach/actions/run/delivering.ts) drives
 * the package's DeliveryRecord: open (a Retry reads back n8n's store), then per lane in input order
 * claim, the request to the fake Peach, sent or unknown; then close. It reports what it decided.
 *
 * The harness, not the package, wraps the node's two store helpers to count and time every call and
 * to attack at a chosen call: SIGKILL of this process right before or right after it (its write
 * landed, the answer never seen), or another writer's older copy of the row (read by direct SQL
 * right before the call, written back by direct SQL `cycleMs` after the read, as a slow worker's
 * findOne-then-update would, by the slow writer: another of these processes, which outlives this one). A request to Peach can be answered by SIGKILL of this process (Peach
 * accepted it, the process never learnt it).
 */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { proofWaitMs } from '../../nodes/Peach/actions/run/record/proof';
import { ClaimedElsewhere, DeliveryRecord } from '../../nodes/Peach/actions/run/record/record';
import { type N8nStore, type NodeStore, openN8nStore } from './n8nStore.mts';
import type {
	CallLog,
	Execution,
	ExecutionResult,
	Job,
	OlderCopy,
	ToWorker,
	WorkerMessage,
} from './protocol.mts';

const send = (message: WorkerMessage) => process.send?.(message);
const kill = () => process.kill(process.pid, 'SIGKILL');

let staleWrites = 0;

/** The node's helpers with the harness's counting, timing and attacks (never the package's code). */
function attacked(store: N8nStore, execution: Execution, job: Job, calls: CallLog[]): NodeStore {
	const { attack } = job;
	const helpers = store.helpersFor(execution.workflowId, execution.nodeId);
	const wrap =
		<A extends unknown[], R>(kind: 'check' | 'remove', call: (...args: A) => Promise<R>) =>
		async (...args: A): Promise<R> => {
			const index = calls.length + 1;
			const items = (args[0] as unknown[]).length;
			if (attack?.killBeforeCall === index) kill();
			// The slow writer reads the row right before this call, and writes it back `cycleMs` later.
			if (attack?.staleAtCall === index) await olderCopy(execution, job.id, attack.cycleMs ?? 500);
			const started = Date.now();
			const log: CallLog = { kind, items, started, ms: 0, pid: process.pid, wait: proofWaitMs() };
			calls.push(log);
			try {
				return await call(...args);
			} finally {
				log.ms = Date.now() - started;
				if (attack?.killAfterCall === index) kill();
			}
		};
	return {
		checkProcessedAndRecord: wrap('check', helpers.checkProcessedAndRecord),
		removeProcessed: wrap('remove', helpers.removeProcessed),
	};
}

/** The slow writer's reads this process waits for (the attacked call follows the read). */
const reads = new Map<number, () => void>();
let olderCopies = 0;

/**
 * Another writer's older copy, made by the slow writer (another process, so that it outlives this
 * one): it reads the row now (before the call it is attached to) and writes it back, with one entry
 * of its own, `cycleMs` after its read.
 */
async function olderCopy(execution: Execution, id: number, cycleMs: number): Promise<void> {
	// Numbered apart from every other process's (the run routes the slow writer's answer by it).
	const olderCopy = process.pid * 10_000 + ++olderCopies;
	await new Promise<void>((resolve) => {
		reads.set(olderCopy, resolve);
		send({
			type: 'olderCopy',
			olderCopy,
			id,
			workflowId: execution.workflowId,
			nodeId: execution.nodeId,
			cycleMs,
		});
	});
}

/** In the slow writer: reads the row, says so, and writes it back `cycleMs` after the read. */
async function writeOlderCopy(store: N8nStore, order: OlderCopy): Promise<void> {
	const readAt = Date.now();
	const row = await store.readRow(order.workflowId, order.nodeId);
	send({ type: 'read', olderCopy: order.olderCopy });
	if (row === undefined) return;
	const value = JSON.parse(row) as { mode: string; data: string[] };
	value.data.push(`stale-writer-${process.pid}-${staleWrites++}`);
	await new Promise((resolve) =>
		setTimeout(resolve, Math.max(0, readAt + order.cycleMs - Date.now())),
	);
	await store.writeRow(order.workflowId, order.nodeId, JSON.stringify(value));
	send({ type: 'stale', id: order.id, cycleMs: Date.now() - readAt, wait: proofWaitMs() });
}

/** The execute context the record reads, as n8n 2.x gives it to a node (only what it reads). */
function contextOf(execution: Execution, helpers: NodeStore): IExecuteFunctions {
	const nodeContext: IDataObject = {};
	const node = { id: execution.nodeId, name: 'Peach' };
	return {
		helpers,
		getContext: () => nodeContext,
		getWorkflow: () => ({ id: execution.workflowId }),
		getNode: () => node,
		getWorkflowDataProxy: () => ({ $runIndex: 0 }),
		getExecutionContext: () => ({
			establishedAt: execution.establishedAt,
			triggerNode: { name: 'Trigger' },
		}),
		getMode: () => (execution.retry ? 'retry' : 'trigger'),
		getExecutionId: () => execution.executionId,
		// n8n has not saved the execution with the node's run (the process died first): the record stays.
		getExecutionDataById: async () => ({ resultData: { runData: {} } }),
	} as unknown as IExecuteFunctions;
}

/** A request to the fake Peach: counted per key there; `killMe` makes Peach accept it, then SIGKILL us. */
async function deliver(peachUrl: string, key: string, killMe: boolean): Promise<IDataObject> {
	const response = await fetch(`${peachUrl}/deliver`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify({ key, pid: process.pid, killMe }),
	});
	if (!response.ok) throw new Error(`Peach answered ${response.status}`);
	return (await response.json()) as IDataObject;
}

async function runExecution(
	store: N8nStore,
	execution: Execution,
	job: Job,
	calls: CallLog[],
): Promise<ExecutionResult> {
	const { attack } = job;
	const context = contextOf(execution, attacked(store, execution, job, calls));
	const result: ExecutionResult = { executionId: execution.executionId, decided: {} };
	const record = await DeliveryRecord.open(
		context,
		'message:send',
		execution.deliveries.map(({ lane, key }) => ({ lane, content: { key } })),
		// PEACH_STORE_ON_EVIDENCE=1: deliveries that move money, with no witness in Peach (an
		// automation's run: DeliveringOperation.madeOnEvidence).
		{ onEvidence: process.env.PEACH_STORE_ON_EVIDENCE === '1' },
	);
	const lanes = new Map<string, number[]>();
	execution.deliveries.forEach(({ lane }, index) =>
		lanes.set(lane, [...(lanes.get(lane) ?? []), index]),
	);
	let posts = 0;
	await Promise.all(
		[...lanes.values()].map(async (indexes) => {
			for (const index of indexes) {
				const { key } = execution.deliveries[index];
				const earlier = record.earlier(index);
				if (earlier) {
					result.decided[key] = earlier.outcome === 'sent' ? 'earlierSent' : 'earlierUnknown';
					continue;
				}
				try {
					await record.claim(index);
				} catch (caught) {
					result.decided[key] =
						caught instanceof ClaimedElsewhere ? 'claimedElsewhere' : `notKept: ${String(caught)}`;
					if (caught instanceof ClaimedElsewhere) record.unknown(index, 'claimed elsewhere');
					continue;
				}
				posts += 1;
				try {
					const json = await deliver(execution.peachUrl, key, attack?.killAtPost === posts);
					record.sent(index, json);
					result.decided[key] = 'made';
				} catch (caught) {
					record.unknown(index, String(caught));
					result.decided[key] = 'madeUnknown';
				}
			}
		}),
	);
	await record.close();
	return result;
}

async function main(): Promise<void> {
	const [n8nModules, databaseJson, setup] = process.argv.slice(2);
	const store = await openN8nStore(n8nModules, JSON.parse(databaseJson) as never, !!setup);
	if (setup) {
		await store.close();
		process.exit(0);
	}
	process.on('message', (message: ToWorker) => {
		if ('readDone' in message) {
			reads.get(message.readDone)?.();
			reads.delete(message.readDone);
			return;
		}
		if ('olderCopy' in message) {
			void writeOlderCopy(store, message).catch((error: unknown) =>
				send({ type: 'failed', id: message.id, error: String(error), calls: [] }),
			);
			return;
		}
		void (async () => {
			const calls: CallLog[] = [];
			try {
				const start = (message.startAt ?? 0) - Date.now();
				if (start > 0) await new Promise((resolve) => setTimeout(resolve, start));
				const results = await Promise.all(
					message.executions.map(
						async (execution) => await runExecution(store, execution, message, calls),
					),
				);
				// The run's replacements (summary, folds) are proven and removed beside the next runs: wait.
				await new Promise((resolve) => setTimeout(resolve, message.lingerMs ?? 0));
				send({ type: 'done', id: message.id, results, calls });
			} catch (caught) {
				send({
					type: 'failed',
					id: message.id,
					error: String((caught as Error).stack ?? caught),
					calls,
				});
			}
		})();
	});
	send({ type: 'ready' });
}

void main().catch((error: unknown) => {
	send({ type: 'failed', id: 0, error: String((error as Error).stack ?? error), calls: [] });
	process.exit(1);
});
